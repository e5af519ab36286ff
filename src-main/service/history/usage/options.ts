/**
 * How often usage is sampled and how long samples are kept (`--usage-interval`, issue 27 §2).
 *
 * Rules: `off` samples nothing (reads still answer what was recorded before); an interval is at
 * least 1 s and at most 1 h, so the raw samples of one 5-minute bucket always fit one
 * downsampling batch; the defaults are the issue's: every 30 s, 7 days kept, samples older than
 * 24 h merged into 5-minute points.
 */
import { parseDuration } from '../../events/history/options';

export interface UsageOptions {
  /** Sampling interval in ms; 0 samples nothing (`off`). Default 30 s. */
  intervalMs?: number;
  /** Samples older than this are deleted. Default 7 days. */
  retentionMs?: number;
  /** Samples older than this are merged into `downsampleStepMs` points. Default 24 h. */
  downsampleAfterMs?: number;
  /** The width of a downsampled point. Default 5 minutes. */
  downsampleStepMs?: number;
  /** How often downsampling and retention run. Default 1 minute. */
  maintainEveryMs?: number;
}

export interface ResolvedUsageOptions {
  intervalMs: number;
  retentionMs: number;
  downsampleAfterMs: number;
  downsampleStepMs: number;
  maintainEveryMs: number;
}

export const DEFAULT_USAGE_INTERVAL_MS = 30_000;
export const MAX_USAGE_INTERVAL_MS = 3_600_000;

export function resolveUsageOptions(o: UsageOptions = {}): ResolvedUsageOptions {
  return {
    intervalMs: o.intervalMs ?? DEFAULT_USAGE_INTERVAL_MS,
    retentionMs: o.retentionMs ?? 7 * 86_400_000,
    downsampleAfterMs: o.downsampleAfterMs ?? 86_400_000,
    downsampleStepMs: o.downsampleStepMs ?? 300_000,
    maintainEveryMs: o.maintainEveryMs ?? 60_000,
  };
}

/**
 * `--usage-interval` / $SKIFF_USAGE_INTERVAL: `off` is 0, a duration from 1s to 1h is its ms;
 * anything else is undefined (the caller refuses it).
 */
export function parseUsageInterval(text: string): number | undefined {
  if (text.trim() === 'off') return 0;
  // parseDuration's smallest unit is the second: what it answers is at least 1 s.
  const ms = parseDuration(text) ?? Number.NaN;
  return ms <= MAX_USAGE_INTERVAL_MS ? ms : undefined;
}
