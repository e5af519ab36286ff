import type { BufferApi, BufferMethod, BufferRequest, BufferResponse } from './buffer-protocol';
import { LogBuffer } from './log-buffer';

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

function inWorker(worker: Worker): BufferClient {
  let nextId = 1;
  let lastMs = 0;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  worker.onmessage = (event: MessageEvent<BufferResponse>) => {
    const { id, result, error, ms } = event.data;
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    lastMs = ms;
    if (error !== undefined) p.reject(new Error(error));
    else p.resolve(result);
  };
  worker.onerror = (event) => {
    for (const p of pending.values()) p.reject(new Error(event.message || 'the log worker failed'));
    pending.clear();
  };
  const call =
    (method: BufferMethod) =>
    (...args: unknown[]): Promise<never> =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        worker.postMessage({ id, method, args } satisfies BufferRequest);
      });
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
      return lastMs;
    },
    offThread: true,
    dispose: () => worker.terminate(),
  };
  return client as BufferClient;
}

/** A buffer in its own worker where the page can start one, else in the page. */
export function createBufferClient(): BufferClient {
  if (typeof Worker === 'undefined') return inPage();
  try {
    return inWorker(
      new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'skiff-logs' }),
    );
  } catch {
    return inPage();
  }
}
