import type {
  ClientDescription,
  SessionEndReason,
  SessionRecord,
} from '../../../src-shared/contract/auth-models';
import type { StorageBackend } from '../storage/backend';
import type { ActivityLog } from './activity';
import {
  deleteSession,
  insertSession,
  loadSession,
  loadSessions,
  saveLastSeen,
  saveRotation,
  saveSessionEnd,
  sessionIdOfRefreshHash,
  sessionIdsOf,
} from './auth-tables';
import type { ReplicaSync } from './replica-sync';
import { newId } from './secrets';
import { iso, type StoredSession } from './state';

/** Old refresh tokens remembered per session to recognise reuse; older ones are merely unknown. */
const MAX_USED_HASHES = 200;
/** lastSeenAt is kept in memory per request and written at most this often. */
const TOUCH_PERSIST_MS = 60_000;
/** Ended sessions stay listable (includeExpired) this long. */
export const ENDED_RETENTION_MS = 90 * 24 * 3_600_000;

export type RefreshMatch = { session: StoredSession; kind: 'current' | 'previous' | 'used' };

/**
 * Login sessions: an in-memory index over the sessions table, so that a logout is seen by the very
 * next request without a read, and a refresh token is found by its hash without one. The table is
 * the truth: every change is written (one small transaction) before memory takes it, and then
 * announced to the other replicas (replica-sync.ts), which re-read the row. With replicas, what
 * memory lacks (a session another replica just made) is looked up in the table before it is
 * refused. Expiry is noticed lazily (every read) and by a periodic sweep.
 *
 * Session objects are handed out and held by callers: a re-read updates the same object in place.
 */
export class SessionStore {
  private readonly sessions = new Map<string, StoredSession>();
  private readonly byRefreshHash = new Map<string, string>();
  /** Sessions whose lastSeenAt moved since it was last written. */
  private readonly seen = new Set<StoredSession>();
  /** Ends in flight, so that two at once end a session once. */
  private readonly ending = new Map<string, Promise<boolean>>();
  private lastPersist = 0;
  private flushing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly backend: StorageBackend,
    private readonly now: () => number,
    private readonly activity: ActivityLog,
    private readonly sync: ReplicaSync,
  ) {}

  static async load(
    backend: StorageBackend,
    now: () => number,
    activity: ActivityLog,
    sync: ReplicaSync,
  ): Promise<SessionStore> {
    const store = new SessionStore(backend, now, activity, sync);
    for (const s of await loadSessions(backend)) store.index(s);
    return store;
  }

  async create(
    accountId: string,
    client: ClientDescription,
    refreshHash: string,
    idleMs: number,
    maxMs: number,
  ): Promise<StoredSession> {
    const at = this.now();
    const session: StoredSession = {
      sessionId: newId(),
      accountId,
      status: 'active',
      client,
      firstLoginAt: at,
      lastSeenAt: at,
      expiresAt: Math.min(at + idleMs, at + maxMs),
      absoluteExpiresAt: at + maxMs,
      endedAt: null,
      endReason: null,
      refresh: { hash: refreshHash, generation: 1, rotatedAt: at, previousHash: null, usedHashes: [] },
    };
    await this.backend.transaction('create session', (tx) => insertSession(tx, session));
    this.index(session);
    await this.sync.changed('session', session.sessionId);
    return session;
  }

  /** The session, with its expiry applied first. */
  async get(sessionId: string): Promise<StoredSession | undefined> {
    let s = this.sessions.get(sessionId);
    if (!s && this.sync.shared) s = await this.reread(sessionId);
    if (s) await this.expireIfDue(s);
    return s;
  }

  async active(sessionId: string): Promise<StoredSession | undefined> {
    const s = await this.get(sessionId);
    return s?.status === 'active' ? s : undefined;
  }

  /** Newest first. */
  async listFor(accountId: string, includeEnded: boolean): Promise<StoredSession[]> {
    await this.sweep();
    // Reversed first so that the stable sort puts the later of two same-instant logins first.
    return [...this.sessions.values()]
      .reverse()
      .filter((s) => s.accountId === accountId && (includeEnded || s.status === 'active'))
      .sort((a, b) => b.firstLoginAt - a.firstLoginAt);
  }

  async findByRefreshHash(hash: string): Promise<RefreshMatch | undefined> {
    let id = this.byRefreshHash.get(hash);
    if (id === undefined && this.sync.shared) {
      id = await sessionIdOfRefreshHash(this.backend, hash);
      if (id !== undefined) await this.reread(id);
    }
    const session = id === undefined ? undefined : await this.get(id);
    if (!session) return undefined;
    return { session, kind: this.kindOf(session, hash) };
  }

  kindOf(session: StoredSession, hash: string): RefreshMatch['kind'] {
    const r = session.refresh;
    return r.hash === hash ? 'current' : r.previousHash === hash ? 'previous' : 'used';
  }

  /** The session after replacing its refresh token; the idle expiry moves, never past the absolute limit. */
  nextRotation(session: StoredSession, newHash: string, idleMs: number): StoredSession {
    const at = this.now();
    const r = session.refresh;
    return {
      ...session,
      refresh: {
        hash: newHash,
        generation: r.generation + 1,
        rotatedAt: at,
        previousHash: r.hash,
        usedHashes: [...r.usedHashes, r.hash].slice(-MAX_USED_HASHES),
      },
      expiresAt: Math.min(at + idleMs, session.absoluteExpiresAt),
      lastSeenAt: at,
    };
  }

  /**
   * Writes `next` (from nextRotation) if the session's current token is still the one it replaces.
   * False when another replica rotated (or ended) it first: memory is then re-read from the table.
   * `grace` is the sealed pair the replaced token may fetch within the overlap (refresh-grace.ts).
   */
  async rotate(session: StoredSession, next: StoredSession, grace: string | null): Promise<boolean> {
    // The token `next` replaces, not the session's current one now: a re-read while this rotation
    // was being prepared (another replica's) must make this one lose, not rotate on top of it.
    const replaced = next.refresh.previousHash!;
    let won = true;
    const written = await this.backend.transaction('rotate refresh token', async (tx) => {
      won = await saveRotation(tx, next, replaced, grace);
    });
    const r = session.refresh;
    if (written && !won) {
      await this.reread(session.sessionId);
      return false;
    }
    const kept = new Set(next.refresh.usedHashes);
    for (const h of r.usedHashes) if (!kept.has(h)) this.byRefreshHash.delete(h);
    // The same object stays in the index: callers hold it.
    Object.assign(session, next);
    this.seen.delete(session);
    this.byRefreshHash.set(next.refresh.hash, session.sessionId);
    await this.sync.changed('session', session.sessionId);
    return true;
  }

  /** True when this call ended it (false: it had ended already, here or on another replica). */
  end(session: StoredSession, reason: SessionEndReason, at = this.now()): Promise<boolean> {
    if (session.status !== 'active') return Promise.resolve(false);
    const inFlight = this.ending.get(session.sessionId);
    if (inFlight) return inFlight.then(() => false);
    const done = this.endNow(session, reason, at).finally(() => this.ending.delete(session.sessionId));
    this.ending.set(session.sessionId, done);
    return done;
  }

  private async endNow(session: StoredSession, reason: SessionEndReason, at: number): Promise<boolean> {
    const status = reason === 'expired' ? 'expired' : 'logged_out';
    let ended = true;
    const written = await this.backend.transaction('end session', async (tx) => {
      ended = await saveSessionEnd(tx, { ...session, status, endedAt: at, endReason: reason });
    });
    // Not ended by this write: ended elsewhere first (memory takes the row), or the row is gone
    // with its account, and then memory ends it as the account's removal asked.
    if (written && !ended && (await this.reread(session.sessionId))) return false;
    session.status = status;
    session.endedAt = at;
    session.endReason = reason;
    await this.sync.changed('session', session.sessionId);
    return true;
  }

  /** Ends every active session of the account (but one), those other replicas made included. */
  async endAllFor(
    accountId: string,
    reason: SessionEndReason,
    exceptSessionId?: string,
  ): Promise<StoredSession[]> {
    if (this.sync.shared) {
      for (const id of await sessionIdsOf(this.backend, accountId))
        if (!this.sessions.has(id)) await this.reread(id);
    }
    const ended: StoredSession[] = [];
    for (const s of [...this.sessions.values()]) {
      if (s.accountId !== accountId || s.sessionId === exceptSessionId) continue;
      if ((await this.get(s.sessionId))?.status !== 'active') continue;
      if (await this.end(s, reason)) ended.push(s);
    }
    return ended;
  }

  async forget(accountId: string): Promise<void> {
    const gone = [...this.sessions.values()].filter((s) => s.accountId === accountId);
    await this.backend.transaction('forget sessions', async (tx) => {
      for (const s of gone) await deleteSession(tx, s.sessionId);
    });
    for (const s of gone) this.drop(s);
    await this.sync.changed('account_sessions', accountId);
  }

  /** lastSeenAt moves in memory per request; it is written with the next flush, at most once a minute. */
  touch(session: StoredSession): Promise<void> {
    session.lastSeenAt = this.now();
    this.seen.add(session);
    return this.now() - this.lastPersist >= TOUCH_PERSIST_MS ? this.flush() : Promise.resolve();
  }

  /** Marks every overdue session expired and forgets long-ended ones. */
  async sweep(): Promise<void> {
    const oldest = this.now() - ENDED_RETENTION_MS;
    const gone: StoredSession[] = [];
    for (const s of [...this.sessions.values()]) {
      await this.expireIfDue(s);
      if (s.endedAt !== null && s.endedAt < oldest) gone.push(s);
    }
    if (gone.length === 0) return;
    await this.backend.transaction('drop ended sessions', async (tx) => {
      for (const s of gone) await deleteSession(tx, s.sessionId);
    });
    for (const s of gone) this.drop(s);
  }

  /** Writes the lastSeenAt of every session used since the last flush, in one transaction. */
  flush(): Promise<void> {
    this.lastPersist = this.now();
    if (this.seen.size === 0) return this.flushing;
    const seen = [...this.seen];
    this.seen.clear();
    const write = this.flushing.then(() =>
      this.backend
        .transaction('last seen', async (tx) => {
          for (const s of seen) if (this.sessions.has(s.sessionId)) await saveLastSeen(tx, s);
        })
        .then(() => undefined),
    );
    this.flushing = write.catch(() => {});
    return write;
  }

  /** Re-reads one session from the table (another replica changed it). */
  async changed(sessionId: string): Promise<void> {
    await this.reread(sessionId);
  }

  /** Re-reads an account's sessions (another replica forgot them, or made some). */
  async changedFor(accountId: string): Promise<void> {
    const { stamp, value } = await this.sync.read(() => sessionIdsOf(this.backend, accountId));
    const ids = new Set(value);
    for (const s of [...this.sessions.values()])
      if (
        s.accountId === accountId &&
        !ids.has(s.sessionId) &&
        this.sync.accepts('session', s.sessionId, stamp)
      )
        this.drop(s);
    for (const id of ids) await this.reread(id);
  }

  /** Re-reads every session: the bounded fallback for a notification that never came. */
  async reloadAll(): Promise<void> {
    const { stamp, value: fresh } = await this.sync.read(() => loadSessions(this.backend));
    const ids = new Set(fresh.map((s) => s.sessionId));
    for (const s of [...this.sessions.values()])
      if (!ids.has(s.sessionId) && this.sync.accepts('session', s.sessionId, stamp)) this.drop(s);
    // A row re-read or written here since this read was issued is newer than what it found.
    for (const s of fresh) if (this.sync.accepts('session', s.sessionId, stamp)) this.merge(s);
  }

  toRecord(s: StoredSession, currentSessionId: string | undefined): SessionRecord {
    return {
      sessionId: s.sessionId,
      status: s.status,
      current: s.sessionId === currentSessionId,
      ...s.client,
      firstLoginAt: iso(s.firstLoginAt),
      lastSeenAt: iso(s.lastSeenAt),
      expiresAt: iso(s.expiresAt),
      endedAt: s.endedAt === null ? null : iso(s.endedAt),
      endReason: s.endReason,
    };
  }

  private async reread(sessionId: string): Promise<StoredSession | undefined> {
    const { stamp, value: fresh } = await this.sync.read(() => loadSession(this.backend, sessionId));
    const held = this.sessions.get(sessionId);
    if (!this.sync.accepts('session', sessionId, stamp)) return held;
    if (fresh) return this.merge(fresh);
    if (held) this.drop(held);
    return undefined;
  }

  /** The table's row into memory, into the object callers hold when there is one. */
  private merge(fresh: StoredSession): StoredSession {
    const held = this.sessions.get(fresh.sessionId);
    if (!held) {
      this.index(fresh);
      return fresh;
    }
    for (const h of [held.refresh.hash, ...held.refresh.usedHashes]) this.byRefreshHash.delete(h);
    // A use seen here and not yet written is newer than the row.
    Object.assign(held, fresh, { lastSeenAt: Math.max(held.lastSeenAt, fresh.lastSeenAt) });
    this.index(held);
    return held;
  }

  private async expireIfDue(s: StoredSession) {
    if (s.status !== 'active' || this.now() < s.expiresAt) return;
    if (!(await this.end(s, 'expired', s.expiresAt))) return;
    await this.activity.record({
      type: 'session_expired',
      at: s.expiresAt,
      accountId: s.accountId,
      sessionId: s.sessionId,
      client: s.client,
    });
  }

  private index(s: StoredSession) {
    this.sessions.set(s.sessionId, s);
    for (const h of [s.refresh.hash, ...s.refresh.usedHashes]) this.byRefreshHash.set(h, s.sessionId);
  }

  private drop(s: StoredSession) {
    this.sessions.delete(s.sessionId);
    this.seen.delete(s);
    for (const h of [s.refresh.hash, ...s.refresh.usedHashes]) this.byRefreshHash.delete(h);
  }
}
