import type { Problem } from '../contract/problem';

/**
 * The log stream over IPC. The renderer (through the preload) posts `LogStreamOpen` on this
 * channel with one MessagePort transferred; everything else goes over that port. Flow control
 * is by explicit credit: main sends a chunk only while it holds credit, and the renderer grants
 * one credit per chunk it has consumed. A renderer that stops consuming therefore stops main from
 * pulling the stream, which stops the cluster request (TCP backpressure) — nothing queues up.
 */
export const IPC_LOG_STREAM = 'skiff:log-stream';

/** Most chunks the renderer may let main send ahead of what it consumed. */
export const MAX_LOG_CREDIT = 64;

export interface LogStreamOpen {
  /** Path parameters of the getLogs operation, as strings. */
  params: Record<string, string>;
  /** Its query, as strings (the answer is always application/x-ndjson). */
  query: Record<string, string>;
  /** Chunks main may send before the first grant. */
  credit: number;
}

/** main → renderer */
export type LogStreamDown =
  | { type: 'open' }
  | { type: 'chunk'; data: string }
  | { type: 'end' }
  | { type: 'error'; problem: Problem };

/** renderer → main */
export type LogStreamUp = { type: 'credit'; n: number } | { type: 'cancel' };

function isStringRecord(v: unknown): v is Record<string, string> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every((x) => typeof x === 'string')
  );
}

/** Validates what arrives from the other, less trusted, side. */
export function parseOpen(v: unknown): LogStreamOpen | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (!isStringRecord(o.params) || !isStringRecord(o.query)) return null;
  if (
    typeof o.credit !== 'number' ||
    !Number.isInteger(o.credit) ||
    o.credit < 1 ||
    o.credit > MAX_LOG_CREDIT
  )
    return null;
  return { params: o.params, query: o.query, credit: o.credit };
}

export function parseUp(v: unknown): LogStreamUp | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (o.type === 'cancel') return { type: 'cancel' };
  if (
    o.type === 'credit' &&
    typeof o.n === 'number' &&
    Number.isInteger(o.n) &&
    o.n > 0 &&
    o.n <= MAX_LOG_CREDIT
  )
    return { type: 'credit', n: o.n };
  return null;
}

export function parseDown(v: unknown): LogStreamDown | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (o.type === 'open' || o.type === 'end') return { type: o.type };
  if (o.type === 'chunk' && typeof o.data === 'string') return { type: 'chunk', data: o.data };
  if (o.type === 'error' && typeof o.problem === 'object' && o.problem !== null)
    return { type: 'error', problem: o.problem as Problem };
  return null;
}

export interface LogStreamHandle {
  /** Grants main `n` more chunks. */
  credit(n: number): void;
  cancel(): void;
}

/** Exposed to the page as window.skiffLogs: functions only, the port never leaves the preload. */
export interface LogStreamBridge {
  open(request: LogStreamOpen, onMessage: (message: LogStreamDown) => void): LogStreamHandle;
}
