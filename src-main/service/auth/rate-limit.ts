import { ProblemError } from '../errors';

export interface RateRule {
  limit: number;
  windowMs: number;
}

export interface RateLimits {
  /** Every login attempt from one client address. */
  loginPerAddress: RateRule;
  /** Failed logins for one username, existing or not (so the limit reveals nothing). */
  loginFailuresPerAccount: RateRule;
  /** Every refresh from one client address. */
  refreshPerAddress: RateRule;
  /** Refreshes of all sessions of one account. */
  refreshPerAccount: RateRule;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  loginPerAddress: { limit: 20, windowMs: 10 * 60_000 },
  loginFailuresPerAccount: { limit: 10, windowMs: 15 * 60_000 },
  refreshPerAddress: { limit: 60, windowMs: 60_000 },
  refreshPerAccount: { limit: 30, windowMs: 60_000 },
};

const SWEEP_AT = 10_000;

/**
 * A sliding-window log per key: exact, and small because a key never holds more than `limit` stamps.
 * In memory on purpose: a restart forgets limits, which costs an attacker a restart they cannot cause.
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
    if (waitMs <= 0) return;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw new ProblemError(
      'rate_limited',
      `too many ${what}; try again in ${seconds} s`,
      { retryAfterSeconds: seconds },
      { 'Retry-After': String(seconds) },
    );
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
