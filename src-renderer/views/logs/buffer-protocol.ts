import type { Row, ViewSpec, ViewStats } from './model';

/** What the buffer worker answers; the page calls it through BufferClient. */
export interface BufferApi {
  ingest(text: string): ViewStats;
  clear(): ViewStats;
  setView(spec: ViewSpec): ViewStats;
  stats(): ViewStats;
  rowsAt(start: number, count: number): Row[];
  matchRow(k: number): number;
  matchNear(row: number, dir: 1 | -1): number;
  exportBlob(filtered: boolean, timestamps: boolean): Blob;
}

export type BufferMethod = keyof BufferApi;

export interface BufferRequest {
  id: number;
  method: BufferMethod;
  args: unknown[];
}

export interface BufferResponse {
  id: number;
  result?: unknown;
  error?: string;
  /** Time the worker spent on the call, for the status line and the benchmark. */
  ms: number;
}
