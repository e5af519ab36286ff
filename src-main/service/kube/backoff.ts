/**
 * How long to wait before asking a failing cluster (a watch's reconnect, a credential plugin's
 * next run) again: exponential with jitter, never straight after a failure, reset only by proof
 * of health (a connection that stayed up, or a success).
 */

export interface BackoffOptions {
  /** The first delay's upper bound. */
  baseMs: number;
  /** No delay exceeds this. */
  capMs: number;
  /** A watch that stayed up this long proves the cluster healthy again: the next failure starts over. */
  stableAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1_000, capMs: 30_000, stableAfterMs: 30_000 };

/**
 * Exponential backoff with jitter: the n-th delay is uniform in [c/2, c] with c = min(cap, base·2ⁿ),
 * so the watches of many clients do not reconnect in step, a cluster that keeps failing is asked
 * less and less often, and no retry comes straight after a failure (as full jitter's 0 could). It resets only after a connection stayed up for `stableAfterMs`: a cluster that
 * flaps (up a few seconds, down again) keeps backing off instead of being hammered.
 */
export class Backoff {
  private failures = 0;
  private upSince: number | null = null;

  constructor(
    private readonly opts: BackoffOptions,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  /** A connection is up (the watch answered). */
  connected(): void {
    this.upSince = this.now();
  }

  /** The delay before the next attempt, after a failure. */
  next(): number {
    if (this.upSince !== null && this.now() - this.upSince >= this.opts.stableAfterMs) this.failures = 0;
    this.upSince = null;
    const ceiling = Math.min(this.opts.capMs, this.opts.baseMs * 2 ** Math.min(this.failures, 30));
    this.failures++;
    return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
  }

  /** A success that proves the other side healthy again: the next failure starts over. */
  reset(): void {
    this.failures = 0;
  }

  /** Consecutive failures counted so far. */
  get attempts(): number {
    return this.failures;
  }
}
