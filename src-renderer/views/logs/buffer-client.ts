import type { BufferApi, BufferMethod, BufferRequest, BufferResponse } from './buffer-protocol';
import { LogBuffer } from './log-buffer';
// Vite's ?worker form: built, a classic same-origin worker script, which loads under app://skiff/ and http alike.
import LogWorker from './worker?worker';

type Async<T> = { [K in keyof T]: T[K] extends (...a: infer A) => infer R ? (...a: A) => Promise<R> : never };

/** The buffer as the page sees it: every call async, answered by the worker in order. */
export interface BufferClient extends Async<BufferApi> {
  /** Worker time of the last answered call (ms). */
  readonly lastMs: number;
  /** True when the buffer runs in a Web Worker (false: the in-page fallback). */
  readonly offThread: boolean;
  dispose(): void;
}

function inPage(): BufferClient {
  const buffer = new LogBuffer();
  let lastMs = 0;
  const call =
    <A extends unknown[], R>(fn: (...a: A) => R) =>
    async (...a: A): Promise<R> => {
      const started = performance.now();
      const result = fn(...a);
      lastMs = performance.now() - started;
      return result;
    };
  return {
    ingest: call((t: string) => buffer.ingest(t)),
    clear: call(() => buffer.clear()),
    setView: call((s) => buffer.setView(s)),
    stats: call(() => buffer.stats()),
    rowsAt: call((s: number, c: number) => buffer.rowsAt(s, c)),
    matchRow: call((k: number) => buffer.matchRow(k)),
    matchNear: call((r: number, d: 1 | -1) => buffer.matchNear(r, d)),
    exportBlob: call((f: boolean, t: boolean) => new Blob(buffer.exportParts(f, t), { type: 'text/plain' })),
    get lastMs() {
      return lastMs;
    },
    offThread: false,
    dispose: () => {},
  };
}

/**
 * The buffer in a worker. Should the worker fail to start (a platform that refuses workers), the
 * calls waiting for it and every later one are answered by an in-page buffer instead, so the
 * viewer degrades to slower rather than to broken.
 */
function inWorker(worker: Worker): BufferClient {
  let fallback: BufferClient | null = null;
  let nextId = 1;
  let lastMs = 0;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const sent = new Map<number, BufferRequest>();
  worker.onmessage = (event: MessageEvent<BufferResponse>) => {
    const { id, result, error, ms } = event.data;
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    sent.delete(id);
    lastMs = ms;
    if (error !== undefined) p.reject(new Error(error));
    else p.resolve(result);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    worker.terminate();
    fallback ??= inPage();
    const local = fallback as unknown as Record<BufferMethod, (...a: unknown[]) => Promise<unknown>>;
    for (const [id, p] of pending) {
      const req = sent.get(id)!;
      local[req.method](...req.args).then(p.resolve, p.reject);
    }
    pending.clear();
    sent.clear();
  };
  const call =
    (method: BufferMethod) =>
    (...args: unknown[]): Promise<never> => {
      if (fallback) {
        const local = fallback as unknown as Record<BufferMethod, (...a: unknown[]) => Promise<never>>;
        return local[method](...args);
      }
      return new Promise((resolve, reject) => {
        const id = nextId++;
        const req: BufferRequest = { id, method, args };
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        sent.set(id, req);
        worker.postMessage(req);
      });
    };
  const client = {
    ingest: call('ingest'),
    clear: call('clear'),
    setView: call('setView'),
    stats: call('stats'),
    rowsAt: call('rowsAt'),
    matchRow: call('matchRow'),
    matchNear: call('matchNear'),
    exportBlob: call('exportBlob'),
    get lastMs() {
      return fallback ? fallback.lastMs : lastMs;
    },
    get offThread() {
      return fallback === null;
    },
    dispose: () => worker.terminate(),
  };
  return client as BufferClient;
}

/** A buffer in its own worker where the page can start one, else in the page. */
export function createBufferClient(): BufferClient {
  if (typeof Worker === 'undefined') return inPage();
  try {
    return inWorker(new LogWorker({ name: 'skiff-logs' }));
  } catch {
    return inPage();
  }
}
