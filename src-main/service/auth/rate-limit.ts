import { ProblemError } from '../errors';
import type { BackoffRule } from './login-backoff';

/**
 * Sliding-window limits, and the login limits' rules (the per-source backoff is login-backoff's).
 * No limit here may let one client lock another out of its account: what an address does counts
 * against that address, and an account's own ceiling only slows the sources that failed on it.
 */

export interface RateRule {
  limit: number;
  windowMs: number;
}

export interface RateLimits {
  /** Login attempts from one client address, all accounts together; a successful one is not counted. */
  loginPerAddress: RateRule;
  /**
   * Failed logins for one username (existing or not, so the limit reveals nothing) from one
   * source: a few free, then a wait that doubles with each failure.
   */
  loginFailuresPerSource: BackoffRule;
  /**
   * Failed logins for one username from every source together. Past it the account is under
   * attack from many places, and each source that has failed on it waits from its first failure;
   * a source that has not failed is never slowed.
   */
  loginFailuresPerAccount: RateRule;
  /** Every refresh from one client address. */
  refreshPerAddress: RateRule;
  /** Refreshes of all sessions of one account. */
  refreshPerAccount: RateRule;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  loginPerAddress: { limit: 20, windowMs: 10 * 60_000 },
  loginFailuresPerSource: { free: 5, baseMs: 30_000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000 },
  loginFailuresPerAccount: { limit: 10, windowMs: 15 * 60_000 },
  refreshPerAddress: { limit: 60, windowMs: 60_000 },
  refreshPerAccount: { limit: 30, windowMs: 60_000 },
};

const SWEEP_AT = 10_000;

/** The 429 a limit refuses with: the wait in whole seconds, rounded up, in Retry-After and the body. */
export function rateLimited(waitMs: number, what: string): ProblemError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ProblemError(
    'rate_limited',
    `too many ${what}; try again in ${seconds} s`,
    { retryAfterSeconds: seconds },
    { 'Retry-After': String(seconds) },
  );
}

/**
 * A sliding-window log per key: exact, and small because a key never holds more than `limit` stamps.
 * In memory on purpose: a restart forgets limits, which costs an attacker a restart they cannot cause.
 * With PostgreSQL the login limits are counted in the database instead (login-limits.ts), since
 * replicas behind one load balancer would each count only their share of a guesser's attempts.
 */
export class RateLimiter {
  private readonly hits = new Map<string, { windowMs: number; stamps: number[] }>();

  constructor(private readonly now: () => number) {}

  /** Milliseconds until one more hit is allowed; 0 when it is allowed now. */
  wait(key: string, rule: RateRule): number {
    const stamps = this.live(key, rule);
    if (stamps.length < rule.limit) return 0;
    return stamps[stamps.length - rule.limit]! + rule.windowMs - this.now();
  }

  hit(key: string, rule: RateRule): void {
    const stamps = this.live(key, rule);
    stamps.push(this.now());
    if (stamps.length > rule.limit) stamps.splice(0, stamps.length - rule.limit);
    this.hits.set(key, { windowMs: rule.windowMs, stamps });
    if (this.hits.size > SWEEP_AT) this.sweep();
  }

  /** Refuses with 429 and Retry-After when the key is over its rule. */
  enforce(key: string, rule: RateRule, what: string): void {
    const waitMs = this.wait(key, rule);
    if (waitMs > 0) throw rateLimited(waitMs, what);
  }

  /** Takes back the newest hit of a key: an attempt that turned out not to count (a successful login). */
  forgive(key: string): void {
    const stamps = this.hits.get(key)?.stamps;
    stamps?.pop();
    if (stamps?.length === 0) this.hits.delete(key);
  }

  /** Every key held with its counted stamps: what the limiter costs in memory (a copy). */
  held(): Map<string, readonly number[]> {
    return new Map([...this.hits].map(([key, { stamps }]) => [key, [...stamps]]));
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private live(key: string, rule: RateRule): number[] {
    const since = this.now() - rule.windowMs;
    return (this.hits.get(key)?.stamps ?? []).filter((t) => t > since);
  }

  private sweep() {
    const now = this.now();
    for (const [key, { windowMs, stamps }] of this.hits) {
      if (stamps.every((t) => t <= now - windowMs)) this.hits.delete(key);
    }
  }
}
