/**
 * What `--kept-logs`, `--kept-log-lines` and `--kept-logs-max-bytes` mean (issue 27 §3), and which
 * terminated runs a mode keeps.
 *
 * Rules: `failed` (the default) keeps a run that ended with a non-zero exit code or with a
 * failure reason (OOMKilled, Error, ContainerCannotRun, DeadlineExceeded...), never one that
 * completed (exit 0) nor one whose end Skiff did not see (a deleted pod's running container,
 * reason `Deleted`); `all` keeps every run; `off` keeps none and watches nothing. The bounds are
 * validated here, once, so the recorder and the store trust them.
 */

export type KeptLogsMode = 'failed' | 'all' | 'off';

export const KEPT_LOGS_MODES: readonly KeptLogsMode[] = ['failed', 'all', 'off'];

export interface KeptLogsOptions {
  mode: KeptLogsMode;
  /** The last lines kept of each run (the kubelet is asked for this many). */
  lines: number;
  /** Bytes of kept lines a cluster may hold; the oldest runs are dropped first past it. */
  maxBytes: number;
}

export const DEFAULT_KEPT_LOGS: KeptLogsOptions = { mode: 'failed', lines: 500, maxBytes: 1024 ** 3 };

/** The largest --kept-log-lines: the live endpoint's own tail bound would read whole files. */
export const MAX_KEPT_LOG_LINES = 100_000;
/** The smallest --kept-logs-max-bytes: one run of the default size fits. */
export const MIN_KEPT_LOGS_BYTES = 1024 * 1024;

/** The reason given to a run whose end Skiff did not see: its pod was deleted while it ran. */
export const DELETED_REASON = 'Deleted';

/** Reasons the kubelet gives to a run that ended well. */
const SUCCESS_REASONS = new Set(['Completed']);

/** True when a run that ended with `exitCode` and `reason` is a failure (`failed` keeps it). */
export function isFailedRun(exitCode: number | null, reason: string): boolean {
  if (exitCode !== null) return exitCode !== 0;
  return reason !== DELETED_REASON && !SUCCESS_REASONS.has(reason) && reason !== '';
}

/** True when `mode` keeps a run that ended so. */
export function keeps(mode: KeptLogsMode, exitCode: number | null, reason: string): boolean {
  if (mode === 'off') return false;
  return mode === 'all' || isFailedRun(exitCode, reason);
}

/** The options with `partial` over the defaults, checked; a RangeError names what is wrong. */
export function resolveKeptLogsOptions(partial: Partial<KeptLogsOptions> = {}): KeptLogsOptions {
  const o = { ...DEFAULT_KEPT_LOGS, ...partial };
  if (!KEPT_LOGS_MODES.includes(o.mode)) throw new RangeError('kept logs mode must be failed, all or off');
  if (!Number.isInteger(o.lines) || o.lines < 1 || o.lines > MAX_KEPT_LOG_LINES)
    throw new RangeError(`kept log lines must be a whole number from 1 to ${MAX_KEPT_LOG_LINES}`);
  if (!Number.isSafeInteger(o.maxBytes) || o.maxBytes < MIN_KEPT_LOGS_BYTES)
    throw new RangeError(`kept logs max bytes must be at least ${MIN_KEPT_LOGS_BYTES} (1MiB)`);
  return o;
}
