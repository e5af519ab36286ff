/**
 * Keeps the auth stores' memory true to the shared tables when several replicas share one
 * PostgreSQL (issue 25 §2: a logout, logout of all sessions, password change, refresh-token reuse
 * or API key revocation on one replica is refused by every replica within 1 s).
 *
 * Rules:
 * - Every committed write is followed by one NOTIFY on `skiff_auth` naming what changed
 *   (`<origin> <kind> <id>`, no secret); every replica LISTENs and re-reads that row. A replica
 *   skips its own notifications: its memory took the write already.
 * - On (re)connecting the listener, everything is re-read: notifications sent while it was away
 *   are lost. And whatever a lost notification could leave behind is re-read at most
 *   RELOAD_MS later (the bounded fallback).
 * - A failed NOTIFY is logged, never thrown: the write has committed, and the reload catches up.
 * - A read never undoes a newer one: every read takes a stamp when it is issued, and its row
 *   replaces memory only if nothing about that row was applied or written since (`accepts`).
 *   Without this, a 30 s reload issued just before a logout and answered (slowly, under load)
 *   after the logout's re-read put the session back as active until the next reload. Stamps are
 *   sound because a read issued after a commit sees it (READ COMMITTED takes its snapshot when
 *   the statement starts).
 * - On SQLite one process is the whole service and its memory sees every write: nothing is sent
 *   or re-read, so the desktop and a plain `serve` keep today's figures.
 */
import type { Logger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { newId } from './secrets';

export const AUTH_CHANNEL = 'skiff_auth';
/** The bounded lifetime of anything held in memory when a notification was lost. */
export const RELOAD_MS = 30_000;

export type AuthChangeKind = 'session' | 'account' | 'api_key' | 'account_sessions';
const KINDS: readonly AuthChangeKind[] = ['session', 'account', 'api_key', 'account_sessions'];

export interface AuthChangeHandlers {
  /** One row (or, for account_sessions, one account's sessions) changed elsewhere: re-read it. */
  changed(kind: AuthChangeKind, id: string): Promise<void>;
  /** Re-read everything. */
  reloadAll(): Promise<void>;
}

export class ReplicaSync {
  /** Whether other processes share the tables (PostgreSQL). */
  readonly shared: boolean;
  private readonly origin = newId();
  private stopListening: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Issues read stamps, and stamps local writes. */
  private clock = 0;
  /** `kind id` → the stamp of the newest read applied, or write made, about that row. */
  private readonly applied = new Map<string, number>();
  private readonly inFlight = new Set<number>();

  constructor(
    private readonly backend: StorageBackend,
    private readonly logger: Logger,
    private readonly reloadMs = RELOAD_MS,
  ) {
    this.shared = backend.dialect === 'postgres';
  }

  /** Runs a read of the tables, with the stamp it was issued at (see `accepts`). */
  async read<T>(fn: () => Promise<T>): Promise<{ stamp: number; value: T }> {
    const stamp = ++this.clock;
    this.inFlight.add(stamp);
    try {
      return { stamp, value: await fn() };
    } finally {
      this.inFlight.delete(stamp);
    }
  }

  /**
   * Whether a row of `kind` read at `stamp` may replace what memory holds: no read issued later
   * was applied and no write was made here since. Answering true records it as applied. Always
   * true without replicas (nothing is re-read there).
   */
  accepts(kind: AuthChangeKind, id: string, stamp: number): boolean {
    if (!this.shared) return true;
    const key = `${kind} ${id}`;
    if ((this.applied.get(key) ?? 0) > stamp) return false;
    this.applied.set(key, stamp);
    return true;
  }

  /**
   * Drops the stamps that can no longer refuse anything: older than every read in flight (later
   * reads have later stamps). Keeps the map as small as the rows touched since the oldest read.
   */
  private prune(): void {
    let floor = this.clock + 1;
    for (const s of this.inFlight) floor = Math.min(floor, s);
    for (const [key, s] of this.applied) if (s < floor) this.applied.delete(key);
  }

  /**
   * Tells the other replicas; resolves once sent (or failed and logged). Called right after
   * memory took the write, so it also stamps the row: a read issued before the write cannot
   * undo it.
   */
  async changed(kind: AuthChangeKind, id: string): Promise<void> {
    if (!this.shared || this.stopped) return;
    this.applied.set(`${kind} ${id}`, ++this.clock);
    try {
      await this.backend.notify(AUTH_CHANNEL, `${this.origin} ${kind} ${id}`);
    } catch (err) {
      this.logger.warn({ err, kind, id }, 'could not tell the other replicas of an auth change');
    }
  }

  /** Listens for the other replicas' changes; resolves once listening. */
  async start(handlers: AuthChangeHandlers): Promise<void> {
    if (!this.shared) return;
    const failed = (err: unknown) => this.logger.warn({ err }, 'could not re-read auth state');
    this.stopListening = await this.backend.listen(
      AUTH_CHANNEL,
      (payload) => {
        const [origin, kind, ...rest] = payload.split(' ');
        const id = rest.join(' ');
        if (origin === this.origin || !KINDS.includes(kind as AuthChangeKind) || id === '') return;
        handlers.changed(kind as AuthChangeKind, id).catch(failed);
      },
      // Also on the first listen: a change made between the load and this moment is caught too.
      () => void handlers.reloadAll().catch(failed),
    );
    this.timer = setInterval(() => {
      this.prune();
      void handlers.reloadAll().catch(failed);
    }, this.reloadMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const stop = this.stopListening;
    this.stopListening = undefined;
    await stop?.().catch(() => {});
  }
}

/** For stores built without replicas (unit tests, SQLite). */
export const noReplicas = (backend: StorageBackend, logger: Logger) => new ReplicaSync(backend, logger);
