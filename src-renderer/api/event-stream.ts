import { type EventWatchRecord, SSE } from '../../src-shared/contract/event-watch-operations';
import { operations } from '../../src-shared/contract/operations';
import { fillPath } from '../../src-shared/contract/path';
import { isProblem, type Problem } from '../../src-shared/contract/problem';
import type { LogStreamBridge } from '../../src-shared/ipc/log-stream';
import { SseParser } from '../../src-shared/streams/sse';
import { bodyChunks, type ChunkStream, openBridgeStream, refusalOf, streamProblem } from './chunk-stream';
import { ApiError, syncingOf } from './client';
import type { Scope } from './queries';

declare global {
  interface Window {
    /** The desktop app's event watch channel (src-preload/index.ts); absent in a browser. */
    skiffEvents?: LogStreamBridge;
  }
}

/** Where the watch stands, for the view: live, (re)connecting, or down with the reason. */
export type WatchState =
  | { kind: 'connecting' }
  | { kind: 'live'; stale?: string }
  | { kind: 'down'; problem: Problem; retryInMs: number };

export interface WatchHandlers {
  /** The records of one chunk, in order (a RESET among them means: drop what you hold). */
  records(records: EventWatchRecord[]): void;
  state(state: WatchState): void;
}

/** How the watch reaches the service: a fetch stream, or a MessagePort from the preload. */
export interface WatchTransport {
  /** Opens one connection; resolves once the service accepted it. */
  open(
    scope: Scope,
    query: Record<string, string>,
    lastEventId: string | undefined,
  ): Promise<ChunkStream & { framing: 'sse' | 'ndjson' }>;
  /** A 401 over HTTP: get a fresh access token; false when the session is over. */
  refresh?(): Promise<boolean>;
}

const TITLE = 'Event watch failed';

/** Turns chunks of either framing into records. */
export function recordReader(framing: 'sse' | 'ndjson'): (chunk: string) => EventWatchRecord[] {
  if (framing === 'sse') {
    const sse = new SseParser();
    return (chunk) => sse.push(chunk).map((e) => JSON.parse(e.data) as EventWatchRecord);
  }
  let rest = '';
  return (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    const out: EventWatchRecord[] = [];
    for (const line of lines) {
      if (line.trim() === '') continue;
      const r = JSON.parse(line) as EventWatchRecord;
      if (r.type !== 'HEARTBEAT') out.push(r);
    }
    return out;
  };
}

/** Reconnect delays: quick first, then doubling to a cap, reset by a connection that synced. */
const RETRY_MS = [500, 1_000, 2_000, 5_000, 10_000, 15_000];

/**
 * Follows the event watch until closed: reconnects after any break with the last id it saw
 * (Last-Event-ID), so the holder gets the missed changes, or a RESET and the state when they are
 * no longer kept. A 401 refreshes the token once, then retries; other failures back off.
 */
export function followEvents(
  transport: WatchTransport,
  scope: Scope,
  query: Record<string, string>,
  handlers: WatchHandlers,
  sleep: (ms: number, signal: AbortSignal) => Promise<void> = abortableSleep,
): { close(): void } {
  const abort = new AbortController();
  let lastEventId: string | undefined;
  let current: { cancel(): void } | undefined;

  async function run() {
    let failures = 0;
    while (!abort.signal.aborted) {
      handlers.state({ kind: 'connecting' });
      let failure: Problem | undefined;
      try {
        const conn = await transport.open(scope, query, lastEventId);
        current = conn;
        if (abort.signal.aborted) {
          conn.cancel();
          return;
        }
        const read = recordReader(conn.framing);
        for (;;) {
          const chunk = await conn.next();
          if (chunk === null) break;
          const records = read(chunk);
          for (const r of records) {
            if ('id' in r && r.id !== undefined) lastEventId = r.id;
            if (r.type === 'SYNCED') {
              failures = 0;
              handlers.state({ kind: 'live' });
            } else if (r.type === 'STATUS') {
              handlers.state(
                r.stale && r.staleSince ? { kind: 'live', stale: r.staleSince } : { kind: 'live' },
              );
            } else if (r.type === 'ERROR') failure = r.problem;
          }
          if (records.length > 0) handlers.records(records);
        }
        failure ??= streamProblem(TITLE, 0, 'The event watch ended; reconnecting.', 'cluster_unreachable');
      } catch (err) {
        failure = isProblem((err as { problem?: unknown }).problem)
          ? (err as { problem: Problem }).problem
          : streamProblem(TITLE, 0, `The event watch broke off (${(err as Error).message}).`);
      } finally {
        current = undefined;
      }
      if (abort.signal.aborted) return;
      if (failure.status === 401 && transport.refresh && (await transport.refresh())) continue;
      // The cluster's events still arriving is progress, not a failure: back when the service says.
      const syncing = syncingOf(new ApiError(failure));
      const wait =
        syncing?.retryAfterMs ??
        (failure.status === 429 ? 5_000 : RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!);
      if (!syncing) failures++;
      handlers.state({ kind: 'down', problem: failure, retryInMs: wait });
      await sleep(wait, abort.signal);
    }
  }
  void run();
  return {
    close() {
      abort.abort();
      current?.cancel();
    },
  };
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Over /v1 HTTP: fetch with the session's token (EventSource cannot send it), read as SSE. */
export function httpWatchTransport(
  origin: string,
  authorize: () => Promise<Record<string, string> | undefined>,
  refresh?: () => Promise<boolean>,
): WatchTransport {
  return {
    ...(refresh ? { refresh } : {}),
    async open(scope, query, lastEventId) {
      const url = new URL(fillPath(operations.watchEvents.path, { ...scope }), origin);
      for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
      url.searchParams.set('watch', 'true');
      const abort = new AbortController();
      const res = await fetch(url, {
        headers: {
          Accept: SSE,
          ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
          ...(await authorize()),
        },
        signal: abort.signal,
      });
      if (!res.ok || !res.body) throw new ApiError(await refusalOf(res, TITLE));
      // A read that fails on its own rethrows as is; followEvents words it and reconnects.
      return { framing: 'sse' as const, ...bodyChunks(res.body, abort, (err) => err) };
    },
  };
}

/** Chunks main may send ahead of what the page consumed. */
const IPC_WINDOW = 8;

/** Over the desktop app's MessagePort channel, read as NDJSON. */
export function ipcWatchTransport(bridge: LogStreamBridge): WatchTransport {
  return {
    async open(scope, query, lastEventId) {
      const stream = await openBridgeStream(bridge, {
        params: { ...scope },
        query: { ...query, watch: 'true', ...(lastEventId ? { lastEventId } : {}) },
        credit: IPC_WINDOW,
      });
      return { framing: 'ndjson' as const, ...stream };
    },
  };
}
