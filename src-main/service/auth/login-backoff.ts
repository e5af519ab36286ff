import { isIP } from 'node:net';
import { ipv6Groups } from './ip';

/**
 * Failed password checks counted per account and source, with a wait that doubles with each
 * failure. Keyed by both, so failures from one source never slow another: the right password
 * from a source that has not failed is never refused here, whoever else is guessing. In memory on
 * purpose, as the rate limiter is: a restart forgets, which costs an attacker a restart they
 * cannot cause; with PostgreSQL the counts are shared by the replicas instead (login-limits.ts).
 * Held entries stay bounded: one is forgotten once its last failure is `forgetMs`
 * old, and a sweep drops those past SWEEP_AT keys.
 */

export interface BackoffRule {
  /** Failures a source may make before it waits at all. */
  free: number;
  /** The wait after the last free failure; each failure after it doubles the wait. */
  baseMs: number;
  /** The wait never grows past this. */
  maxMs: number;
  /** A source whose last failure is this old starts again with no failures. */
  forgetMs: number;
}

interface Failures {
  count: number;
  last: number;
}

const SWEEP_AT = 10_000;

/**
 * Where failures are counted from: an IPv4 address as it is, an IPv6 one by its /64, since one
 * host is routinely given a whole /64 and could otherwise be a new, clean source per attempt.
 */
export function failureSource(address: string | undefined): string {
  if (address === undefined) return 'in-process';
  if (isIP(address) !== 6) return address;
  const prefix = ipv6Groups(address)
    .slice(0, 4)
    .map((g) => g.toString(16));
  return `${prefix.join(':')}::/64`;
}

export class FailureBackoff {
  private readonly entries = new Map<string, Failures>();

  constructor(private readonly now: () => number) {}

  /**
   * Milliseconds until `key` may try again; 0 now. `free` lowers the rule's free failures (an
   * account many sources are failing on gives each just one), but a key with no failures never waits.
   */
  wait(key: string, rule: BackoffRule, free = rule.free): number {
    const f = this.live(key, rule);
    if (!f) return 0;
    const over = f.count - Math.max(1, free);
    if (over < 0) return 0;
    const delay = Math.min(rule.maxMs, rule.baseMs * 2 ** over);
    return Math.max(0, f.last + delay - this.now());
  }

  failed(key: string, rule: BackoffRule): void {
    const f = this.live(key, rule);
    // The count stops where the wait has long reached its ceiling, so it cannot grow without end.
    this.entries.set(key, { count: Math.min((f?.count ?? 0) + 1, 64), last: this.now() });
    if (this.entries.size > SWEEP_AT) this.sweep(rule);
  }

  reset(key: string): void {
    this.entries.delete(key);
  }

  /** Every key held with its failure count: what the backoff costs in memory (a copy). */
  held(): Map<string, number> {
    return new Map([...this.entries].map(([key, f]) => [key, f.count]));
  }

  private live(key: string, rule: BackoffRule): Failures | undefined {
    const f = this.entries.get(key);
    if (f && this.now() - f.last >= rule.forgetMs) {
      this.entries.delete(key);
      return undefined;
    }
    return f;
  }

  private sweep(rule: BackoffRule): void {
    const now = this.now();
    for (const [key, f] of this.entries) if (now - f.last >= rule.forgetMs) this.entries.delete(key);
  }
}
