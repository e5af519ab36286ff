/**
 * The per-credential bound on open event watches.
 *
 * Rules: one login session or one API key is one credential; past the bound a watch is refused
 * with 429 and Retry-After; a slot is given back exactly once, however often release is called.
 */
import type { Principal } from '../../context';
import { ProblemError } from '../../errors';

/** Seconds a client refused for too many watches is told to wait (Retry-After). */
const RETRY_AFTER_S = 5;

/** Whose watches count together: one login session, or one API key (else the account). */
export function credentialKey(p: Principal): string {
  if (p.sessionId !== undefined) return `session:${p.sessionId}`;
  if (p.apiKeyId !== undefined) return `key:${p.apiKeyId}`;
  return `account:${p.accountId}`;
}

/**
 * Counts the open watches of each credential. `take` refuses one past the bound with 429
 * rate_limited; the function it returns gives the slot back, once however often it is called.
 */
export class WatchSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  take(principal: Principal): () => void {
    const key = credentialKey(principal);
    const n = this.open.get(key) ?? 0;
    if (n >= this.max) {
      throw new ProblemError(
        'rate_limited',
        `this credential already has ${n} event watches open, the most allowed; close one first`,
        { limit: this.max },
        { 'Retry-After': String(RETRY_AFTER_S) },
      );
    }
    this.open.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left <= 0) this.open.delete(key);
      else this.open.set(key, left);
    };
  }

  /** Open watches of all credentials (tests check that ended streams gave theirs back). */
  get total(): number {
    let sum = 0;
    for (const n of this.open.values()) sum += n;
    return sum;
  }
}
