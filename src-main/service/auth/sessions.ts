import type {
  ClientDescription,
  SessionEndReason,
  SessionRecord,
} from '../../../src-shared/contract/auth-models';
import type { AppDatabase } from '../storage/database';
import type { ActivityLog } from './activity';
import {
  deleteSession,
  insertSession,
  loadSessions,
  saveLastSeen,
  saveRotation,
  saveSessionEnd,
} from './auth-tables';
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
 * the truth: every change is written (one small transaction) before memory takes it. Expiry is
 * noticed lazily (every read) and by a periodic sweep.
 */
export class SessionStore {
  private readonly sessions = new Map<string, StoredSession>();
  private readonly byRefreshHash = new Map<string, string>();
  /** Sessions whose lastSeenAt moved since it was last written. */
  private readonly seen = new Set<StoredSession>();
  private lastPersist = 0;

  constructor(
    private readonly db: AppDatabase,
    private readonly now: () => number,
    private readonly activity: ActivityLog,
  ) {
    for (const s of loadSessions(db)) this.index(s);
  }

  create(accountId: string, client: ClientDescription, refreshHash: string, idleMs: number, maxMs: number) {
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
    this.db.write('create session', () => insertSession(this.db, session));
    this.index(session);
    return session;
  }

  /** The session, with its expiry applied first. */
  get(sessionId: string): StoredSession | undefined {
    const s = this.sessions.get(sessionId);
    if (s) this.expireIfDue(s);
    return s;
  }

  active(sessionId: string): StoredSession | undefined {
    const s = this.get(sessionId);
    return s?.status === 'active' ? s : undefined;
  }

  /** Newest first. */
  listFor(accountId: string, includeEnded: boolean): StoredSession[] {
    this.sweep();
    // Reversed first so that the stable sort puts the later of two same-instant logins first.
    return [...this.sessions.values()]
      .reverse()
      .filter((s) => s.accountId === accountId && (includeEnded || s.status === 'active'))
      .sort((a, b) => b.firstLoginAt - a.firstLoginAt);
  }

  findByRefreshHash(hash: string): RefreshMatch | undefined {
    const id = this.byRefreshHash.get(hash);
    const session = id === undefined ? undefined : this.get(id);
    if (!session) return undefined;
    const r = session.refresh;
    const kind = r.hash === hash ? 'current' : r.previousHash === hash ? 'previous' : 'used';
    return { session, kind };
  }

  /** Replaces the refresh token; the session's idle expiry moves with it, never past its absolute limit. */
  rotate(session: StoredSession, newHash: string, idleMs: number): void {
    const at = this.now();
    const r = session.refresh;
    const used = [...r.usedHashes, r.hash].slice(-MAX_USED_HASHES);
    const next: StoredSession = {
      ...session,
      refresh: {
        hash: newHash,
        generation: r.generation + 1,
        rotatedAt: at,
        previousHash: r.hash,
        usedHashes: used,
      },
      expiresAt: Math.min(at + idleMs, session.absoluteExpiresAt),
      lastSeenAt: at,
    };
    this.db.write('rotate refresh token', () => saveRotation(this.db, next));
    for (const dropped of r.usedHashes.slice(0, r.usedHashes.length + 1 - used.length))
      this.byRefreshHash.delete(dropped);
    // The same object stays in the index: callers hold it.
    Object.assign(session, next);
    this.seen.delete(session);
    this.byRefreshHash.set(newHash, session.sessionId);
  }

  end(session: StoredSession, reason: SessionEndReason, at = this.now()): void {
    if (session.status !== 'active') return;
    const status = reason === 'expired' ? 'expired' : 'logged_out';
    this.db.write('end session', () =>
      saveSessionEnd(this.db, { ...session, status, endedAt: at, endReason: reason }),
    );
    session.status = status;
    session.endedAt = at;
    session.endReason = reason;
  }

  endAllFor(accountId: string, reason: SessionEndReason, exceptSessionId?: string): StoredSession[] {
    const ended = [...this.sessions.values()].filter(
      (s) =>
        s.accountId === accountId &&
        s.sessionId !== exceptSessionId &&
        this.get(s.sessionId)?.status === 'active',
    );
    for (const s of ended) this.end(s, reason);
    return ended;
  }

  forget(accountId: string): void {
    const gone = [...this.sessions.values()].filter((s) => s.accountId === accountId);
    this.db.write('forget sessions', () => {
      for (const s of gone) deleteSession(this.db, s.sessionId);
    });
    for (const s of gone) this.drop(s);
  }

  /** lastSeenAt moves in memory per request; it is written with the next flush, at most once a minute. */
  touch(session: StoredSession): void {
    session.lastSeenAt = this.now();
    this.seen.add(session);
    if (this.now() - this.lastPersist >= TOUCH_PERSIST_MS) this.flush();
  }

  /** Marks every overdue session expired and forgets long-ended ones. */
  sweep(): void {
    const oldest = this.now() - ENDED_RETENTION_MS;
    const gone: StoredSession[] = [];
    for (const s of [...this.sessions.values()]) {
      this.expireIfDue(s);
      if (s.endedAt !== null && s.endedAt < oldest) gone.push(s);
    }
    if (gone.length === 0) return;
    this.db.write('drop ended sessions', () => {
      for (const s of gone) deleteSession(this.db, s.sessionId);
    });
    for (const s of gone) this.drop(s);
  }

  /** Writes the lastSeenAt of every session used since the last flush, in one transaction. */
  flush(): void {
    this.lastPersist = this.now();
    if (this.seen.size === 0) return;
    const seen = [...this.seen];
    this.seen.clear();
    this.db.write('last seen', () => {
      for (const s of seen) if (this.sessions.has(s.sessionId)) saveLastSeen(this.db, s);
    });
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

  private expireIfDue(s: StoredSession) {
    if (s.status !== 'active' || this.now() < s.expiresAt) return;
    this.end(s, 'expired', s.expiresAt);
    this.activity.record({
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
