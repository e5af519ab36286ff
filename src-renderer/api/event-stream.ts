import { type EventWatchRecord, SSE } from '../../src-shared/contract/event-watch-operations';
import { operations } from '../../src-shared/contract/operations';
import { fillPath } from '../../src-shared/contract/path';
import { isProblem, type Problem } from '../../src-shared/contract/problem';
import type { LogStreamBridge, LogStreamDown } from '../../src-shared/ipc/log-stream';
import { SseParser } from '../../src-shared/streams/sse';
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
  ): Promise<{ next(): Promise<string | null>; cancel(): void; framing: 'sse' | 'ndjson' }>;
  /** A 401 over HTTP: get a fresh access token; false when the session is over. */
  refresh?(): Promise<boolean>;
}

const problem = (status: number, detail: string, code: Problem['code'] = 'internal_error'): Problem => ({
  type: 'about:blank',
  title: 'Event watch failed',
  status,
  detail,
  code,
});

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
        failure ??= problem(0, 'The event watch ended; reconnecting.', 'cluster_unreachable');
      } catch (err) {
        failure = isProblem((err as { problem?: unknown }).problem)
          ? (err as { problem: Problem }).problem
          : problem(0, `The event watch broke off (${(err as Error).message}).`);
      } finally {
        current = undefined;
      }
      if (abort.signal.aborted) return;
      if (failure.status === 401 && transport.refresh && (await transport.refresh())) continue;
      const wait = failure.status === 429 ? 5_000 : RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!;
      failures++;
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

class WatchRefused extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
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
      if (!res.ok || !res.body) {
        const body: unknown = await res.json().catch(() => null);
        throw new WatchRefused(isProblem(body) ? body : problem(res.status, res.statusText));
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      return {
        framing: 'sse' as const,
        async next() {
          for (;;) {
            const read = await reader.read().catch((err: Error) => {
              if (abort.signal.aborted) return { done: true as const, value: undefined };
              throw err;
            });
            if (read.done) return null;
            const text = decoder.decode(read.value, { stream: true });
            if (text !== '') return text;
          }
        },
        cancel: () => abort.abort(),
      };
    },
  };
}

/** Chunks main may send ahead of what the page consumed. */
const IPC_WINDOW = 8;

/** Over the desktop app's MessagePort channel, read as NDJSON. */
export function ipcWatchTransport(bridge: LogStreamBridge): WatchTransport {
  return {
    open(scope, query, lastEventId) {
      return new Promise((resolve, reject) => {
        const chunks: string[] = [];
        let ended = false;
        let failure: Problem | null = null;
        let wake: (() => void) | null = null;
        const notify = () => {
          const w = wake;
          wake = null;
          w?.();
        };
        const conn = {
          framing: 'ndjson' as const,
          async next() {
            while (chunks.length === 0 && !ended && !failure) await new Promise<void>((r) => (wake = r));
            const chunk = chunks.shift();
            if (chunk !== undefined) {
              handle.credit(1);
              return chunk;
            }
            if (failure) throw new WatchRefused(failure);
            return null;
          },
          cancel() {
            ended = true;
            handle.cancel();
            notify();
          },
        };
        const handle = bridge.open(
          {
            params: { ...scope },
            query: { ...query, watch: 'true', ...(lastEventId ? { lastEventId } : {}) },
            credit: IPC_WINDOW,
          },
          (m: LogStreamDown) => {
            if (m.type === 'open') resolve(conn);
            else if (m.type === 'chunk') chunks.push(m.data);
            else if (m.type === 'end') ended = true;
            else {
              failure = m.problem;
              reject(new WatchRefused(m.problem));
            }
            notify();
          },
        );
      });
    },
  };
}
