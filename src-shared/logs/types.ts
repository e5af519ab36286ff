/** Severity after normalisation; UNKNOWN means the line carried no recognisable level. */
export type LogLevel = 'ERROR' | 'WARN' | 'INFO' | 'DEBUG' | 'TRACE' | 'UNKNOWN';

/** All levels, most severe first (handy for UI toggles). */
export const LOG_LEVELS: readonly LogLevel[] = ['ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE', 'UNKNOWN'];

/** How the container's text was recognised. */
export type LogFormat = 'json' | 'logfmt' | 'prefix' | 'plain';

/**
 * One parsed log line. Every entry is created with the same property set, in the same order
 * (absent optionals are `undefined`), so that V8 keeps a single hidden class across a million
 * entries and property reads in the filter/merge loops stay monomorphic.
 */
export interface LogEntry {
  /** Epoch milliseconds (integer): the kubelet timestamp if present, else the line's own time. */
  ts?: number;
  /** The kubelet RFC3339Nano prefix exactly as received (nanoseconds intact), for sinceTime dedupe. */
  tsText?: string;
  level: LogLevel;
  /** Human message: `msg`/`message` for structured lines, text after the level for prefixed ones. */
  message: string;
  /** What the container wrote: the line without the kubelet timestamp and without trailing CR/LF. */
  raw: string;
  format: LogFormat;
  /** Top-level fields of json/logfmt lines; non-string JSON values are JSON-encoded. */
  fields?: Record<string, string>;
}
