import type { Logger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import type { BackoffRule, FailureBackoff } from './login-backoff';
import { type RateLimiter, type RateRule, rateLimited } from './rate-limit';

/**
 * The login limits' counts, kept where every replica counts the same attempts: in the database on
 * PostgreSQL (tables auth_login_hits and auth_login_failures, migration 4), so a guesser spreading
 * attempts over the replicas behind a load balancer meets one limit, not one per replica. On
 * SQLite one process is the whole service, and the counts stay in memory (rate-limit.ts,
 * login-backoff.ts), as before issue 25.
 *
 * Rules:
 * - The same rules and the same answers as the in-memory classes: a sliding window of stamps per
 *   key (the limit-th newest stamp says when one more is allowed), and per-source failure counts
 *   whose wait doubles, forgotten `forgetMs` after the last failure.
 * - A failure is counted by one atomic upsert, so failures on two replicas at once both count.
 *   Check-then-count is two statements: attempts that race on different replicas may pass a limit
 *   by as many as are in flight at that moment, never more.
 * - Rows stay bounded: a key keeps at most its rule's `limit` stamps, none older than its window,
 *   and each replica sweeps expired rows at most once per SWEEP_EVERY_MS.
 * - Refresh limits stay per replica (in memory): they guard a replica's own work, and a refresh
 *   already needs a valid refresh token.
 */

type Maybe<T> = T | Promise<T>;

/** A sliding-window limit (rate-limit.ts's RateLimiter, or its shared counterpart). */
export interface WindowLimiter {
  wait(key: string, rule: RateRule): Maybe<number>;
  hit(key: string, rule: RateRule): Maybe<void>;
  enforce(key: string, rule: RateRule, what: string): Maybe<void>;
  forgive(key: string): Maybe<void>;
}

/** Failures per source with a doubling wait (login-backoff.ts's FailureBackoff, or its shared counterpart). */
export interface BackoffCounter {
  wait(key: string, rule: BackoffRule, free?: number): Maybe<number>;
  failed(key: string, rule: BackoffRule): Maybe<void>;
  reset(key: string): Maybe<void>;
}

export interface LoginLimits {
  limiter: WindowLimiter;
  backoff: BackoffCounter;
}

/** How often a replica removes the rows no rule can count any more. */
export const SWEEP_EVERY_MS = 60_000;
/** A failure count stops here, where the wait has long reached its ceiling (as in memory). */
const MAX_FAILURES = 64;

/** Shared on PostgreSQL; on SQLite, the in-memory ones given. */
export function loginLimits(
  backend: StorageBackend,
  now: () => number,
  inMemory: { limiter: RateLimiter; backoff: FailureBackoff },
  logger: Logger,
): LoginLimits {
  if (backend.dialect === 'sqlite') return inMemory;
  return {
    limiter: new SharedRateLimiter(backend, now, logger),
    backoff: new SharedFailureBackoff(backend, now, logger),
  };
}

/** Runs `sweep` when SWEEP_EVERY_MS has passed since the last one; a failure is logged, not thrown. */
class Sweeper {
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly now: () => number,
    private readonly logger: Logger,
    private readonly sweep: (now: number) => Promise<unknown>,
  ) {}

  async due(): Promise<void> {
    const now = this.now();
    if (now - this.last < SWEEP_EVERY_MS) return;
    this.last = now;
    await this.sweep(now).catch((err: unknown) =>
      this.logger.warn({ err }, 'could not sweep the login limits'),
    );
  }
}

export class SharedRateLimiter implements WindowLimiter {
  private readonly sweeper: Sweeper;

  constructor(
    private readonly backend: StorageBackend,
    private readonly now: () => number,
    logger: Logger,
  ) {
    this.sweeper = new Sweeper(now, logger, (at) =>
      backend.run('DELETE FROM auth_login_hits WHERE expires_at <= $at', { at }),
    );
  }

  async wait(key: string, rule: RateRule): Promise<number> {
    const now = this.now();
    const stamps = await this.backend.all<{ at: number }>(
      'SELECT at FROM auth_login_hits WHERE key = $key AND at > $since ORDER BY at DESC, id DESC LIMIT $limit',
      { key, since: now - rule.windowMs, limit: rule.limit },
    );
    if (stamps.length < rule.limit) return 0;
    return stamps[rule.limit - 1]!.at + rule.windowMs - now;
  }

  async hit(key: string, rule: RateRule): Promise<void> {
    const now = this.now();
    await this.backend.transaction('auth_login_hits hit', async (tx) => {
      await tx.run('INSERT INTO auth_login_hits (key, at, expires_at) VALUES ($key, $now, $expires)', {
        key,
        now,
        expires: now + rule.windowMs,
      });
      // What the window no longer counts, and what is past the newest `limit`, counts for nothing.
      await tx.run(
        `DELETE FROM auth_login_hits WHERE key = $key AND (at <= $since OR id NOT IN (
           SELECT id FROM auth_login_hits WHERE key = $key ORDER BY at DESC, id DESC LIMIT $limit))`,
        { key, since: now - rule.windowMs, limit: rule.limit },
      );
    });
    await this.sweeper.due();
  }

  async enforce(key: string, rule: RateRule, what: string): Promise<void> {
    const waitMs = await this.wait(key, rule);
    if (waitMs > 0) throw rateLimited(waitMs, what);
  }

  /** Takes back the newest stamp of a key: an attempt that turned out not to count. */
  async forgive(key: string): Promise<void> {
    await this.backend.run(
      'DELETE FROM auth_login_hits WHERE id = (SELECT max(id) FROM auth_login_hits WHERE key = $key)',
      { key },
    );
  }
}

export class SharedFailureBackoff implements BackoffCounter {
  private readonly sweeper: Sweeper;
  private forgetMs = Number.POSITIVE_INFINITY;

  constructor(
    private readonly backend: StorageBackend,
    private readonly now: () => number,
    logger: Logger,
  ) {
    this.sweeper = new Sweeper(now, logger, (at) =>
      backend.run('DELETE FROM auth_login_failures WHERE last_at <= $before', { before: at - this.forgetMs }),
    );
  }

  async wait(key: string, rule: BackoffRule, free = rule.free): Promise<number> {
    const now = this.now();
    const f = await this.backend.get<{ count: number; last_at: number }>(
      'SELECT count, last_at FROM auth_login_failures WHERE key = $key',
      { key },
    );
    if (!f || now - f.last_at >= rule.forgetMs) return 0;
    const over = f.count - Math.max(1, free);
    if (over < 0) return 0;
    const delay = Math.min(rule.maxMs, rule.baseMs * 2 ** over);
    return Math.max(0, f.last_at + delay - now);
  }

  async failed(key: string, rule: BackoffRule): Promise<void> {
    const now = this.now();
    // One statement: failures on several replicas at once each count.
    await this.backend.run(
      `INSERT INTO auth_login_failures (key, count, last_at) VALUES ($key, 1, $now)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE
           WHEN $now - auth_login_failures.last_at >= $forget THEN 1
           WHEN auth_login_failures.count >= $max THEN $max
           ELSE auth_login_failures.count + 1
         END,
         last_at = $now`,
      { key, now, forget: rule.forgetMs, max: MAX_FAILURES },
    );
    this.forgetMs = rule.forgetMs;
    await this.sweeper.due();
  }

  async reset(key: string): Promise<void> {
    await this.backend.run('DELETE FROM auth_login_failures WHERE key = $key', { key });
  }
}
