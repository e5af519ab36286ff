/**
 * The event watch over IPC: the same protocol as the log stream (src-shared/ipc/log-stream.ts:
 * a MessagePort per stream, `open`/`chunk`/`end`/`error` down, credit up), on its own channel.
 * Chunks are the watch's NDJSON records.
 */
export const IPC_EVENT_STREAM = 'skiff:event-stream';
