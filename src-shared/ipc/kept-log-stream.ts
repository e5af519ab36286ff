/**
 * A kept run's lines over IPC (issue 27 §3, getKeptLog): the log stream's protocol
 * (log-stream.ts: a MessagePort per stream, `open`/`chunk`/`end`/`error` down, credit up) on its
 * own channel. Chunks are NDJSON log records, as for the live log.
 */
export const IPC_KEPT_LOG_STREAM = 'skiff:kept-log-stream';
