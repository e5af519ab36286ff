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

  constructor(
    private readonly backend: StorageBackend,
    private readonly logger: Logger,
    private readonly reloadMs = RELOAD_MS,
  ) {
    this.shared = backend.dialect === 'postgres';
  }

  /** Tells the other replicas; resolves once sent (or failed and logged). */
  async changed(kind: AuthChangeKind, id: string): Promise<void> {
    if (!this.shared || this.stopped) return;
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
    this.timer = setInterval(() => void handlers.reloadAll().catch(failed), this.reloadMs);
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
