/**
 * When the event history records and how long it keeps what it recorded.
 *
 * - `viewed` (default): a cluster's events are recorded from the first read of its events (the
 *   list, the timeline or the groups) until the service stops; its event watch is then kept
 *   running instead of stopping after 10 idle minutes.
 * - `all`: every cluster's event watch starts with the service, and all of them are recorded.
 * - `off`: nothing is recorded; event watches start and stop on use as before, and
 *   `includeExpired=true` answers the live events only.
 */
export type RecordMode = 'viewed' | 'all' | 'off';

export interface EventHistoryOptions {
  record?: RecordMode;
  /** Recorded events older than this (by lastTimestamp) are pruned. Default 7 days. */
  retentionMs?: number;
  /** At most this many recorded events per cluster; the oldest go first. Default 1,000,000. */
  maxPerCluster?: number;
  /** How long changes wait to be written together. Default 500 ms. */
  flushMs?: number;
  /** How often retention runs. Default 1 minute. */
  pruneEveryMs?: number;
  /**
   * How often a replica asks again for the recorder lease of a cluster another replica records
   * (a shared PostgreSQL database). Default 5 s: a killed recorder is replaced well within 30 s.
   */
  leaseRetryMs?: number;
}

export const DEFAULT_EVENT_RETENTION_MS = 7 * 86_400_000;
export const DEFAULT_EVENT_HISTORY_MAX = 1_000_000;

export interface ResolvedHistoryOptions {
  record: RecordMode;
  retentionMs: number;
  maxPerCluster: number;
  flushMs: number;
  pruneEveryMs: number;
  leaseRetryMs: number;
}

export function resolveHistoryOptions(o: EventHistoryOptions = {}): ResolvedHistoryOptions {
  return {
    record: o.record ?? 'viewed',
    retentionMs: o.retentionMs ?? DEFAULT_EVENT_RETENTION_MS,
    maxPerCluster: o.maxPerCluster ?? DEFAULT_EVENT_HISTORY_MAX,
    flushMs: o.flushMs ?? 500,
    pruneEveryMs: o.pruneEveryMs ?? 60_000,
    leaseRetryMs: o.leaseRetryMs ?? 5_000,
  };
}

const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30s`, `15m`, `12h`, `7d` in ms; undefined for anything else (or zero). */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}
