/**
 * Access decisions, remembered: one SubjectAccessReview answers every identical question for a
 * while (`--authorize rbac`). Rules:
 * - A decision is kept `ttlMs` (30 s) from when it arrived, on the service's clock, so a binding
 *   changed in the cluster takes effect within that bound.
 * - Concurrent identical questions share one review; a review that fails is not remembered (the
 *   next question asks again) and fails every caller that waited on it.
 * - At most `maxEntries` decisions are kept; the least recently used goes first, so memory stays
 *   bounded whatever the number of users, namespaces and kinds.
 */

export interface DecisionCacheOptions {
  ttlMs: number;
  maxEntries: number;
  now: () => number;
}

export const DECISION_TTL_MS = 30_000;
export const DECISION_MAX_ENTRIES = 50_000;

export class DecisionCache {
  /** Settled decisions in least-recently-used-first order (a Map keeps insertion order). */
  private readonly kept = new Map<string, { allowed: boolean; expires: number }>();
  private readonly pending = new Map<string, Promise<boolean>>();

  constructor(private readonly opts: DecisionCacheOptions) {}

  /** Decisions kept now, expired ones included until they are asked for or pushed out. */
  get size(): number {
    return this.kept.size;
  }

  decide(key: string, review: () => Promise<boolean>): Promise<boolean> {
    const hit = this.kept.get(key);
    if (hit) {
      this.kept.delete(key);
      if (hit.expires > this.opts.now()) {
        this.kept.set(key, hit);
        return Promise.resolve(hit.allowed);
      }
    }
    const running = this.pending.get(key);
    if (running) return running;
    const asked = review().then(
      (allowed) => {
        this.pending.delete(key);
        this.keep(key, allowed);
        return allowed;
      },
      (err: unknown) => {
        this.pending.delete(key);
        throw err;
      },
    );
    this.pending.set(key, asked);
    return asked;
  }

  private keep(key: string, allowed: boolean): void {
    this.kept.set(key, { allowed, expires: this.opts.now() + this.opts.ttlMs });
    while (this.kept.size > this.opts.maxEntries) {
      this.kept.delete(this.kept.keys().next().value as string);
    }
  }
}
