import { compileLogFilter, type LogFilter, type LogFilterSpec } from './filter';
import type { LogEntry, LogLevel } from './types';

/** A plain-format entry whose message is its raw text. */
export function mk(raw: string, level: LogLevel = 'INFO', ts?: number): LogEntry {
  return { ts, tsText: undefined, level, message: raw, raw, format: 'plain', fields: undefined };
}

/** The compiled filter of a spec the test expects to be valid. */
export function compile(spec: LogFilterSpec): LogFilter {
  const r = compileLogFilter(spec);
  if (!r.ok) throw new Error(r.error);
  return r.filter;
}
