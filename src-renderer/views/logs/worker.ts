import type { BufferApi, BufferRequest, BufferResponse } from './buffer-protocol';
import { LogBuffer } from './log-buffer';

/**
 * The log buffer's thread. Parsing, filtering and searching a million lines happen here, so the
 * page stays responsive; it only ever receives the rows it is about to draw.
 */
const buffer = new LogBuffer();
const api: BufferApi = {
  ingest: (text) => buffer.ingest(text),
  clear: () => buffer.clear(),
  setView: (spec) => buffer.setView(spec),
  stats: () => buffer.stats(),
  rowsAt: (start, count) => buffer.rowsAt(start, count),
  matchRow: (k) => buffer.matchRow(k),
  matchNear: (row, dir) => buffer.matchNear(row, dir),
  exportBlob: (filtered, timestamps) =>
    new Blob(buffer.exportParts(filtered, timestamps), { type: 'text/plain;charset=utf-8' }),
};

// The DOM lib types `self` as a Window; in a dedicated worker it is the worker's global scope.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<BufferRequest>) => void) | null;
  postMessage(message: BufferResponse): void;
};

scope.onmessage = (event) => {
  const { id, method, args } = event.data;
  const started = performance.now();
  try {
    const fn = api[method] as (...a: unknown[]) => unknown;
    const result = fn(...args);
    scope.postMessage({ id, result, ms: performance.now() - started });
  } catch (err) {
    scope.postMessage({
      id,
      error: err instanceof Error ? err.message : String(err),
      ms: performance.now() - started,
    });
  }
};
