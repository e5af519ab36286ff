import { z } from 'zod';
import type {
  ClientDescription,
  SessionEndReason,
  SessionRecord,
} from '../../../src-shared/contract/auth-models';
import type { KeyValueStore } from '../storage/store';
import type { ActivityLog } from './activity';
import { newId } from './secrets';
import { iso, loadState, type StoredSession, sessionSchema } from './state';

const KEY = 'sessions';
/** Old refresh tokens remembered per session to recognise reuse; older ones are merely unknown. */
const MAX_USED_HASHES = 200;
/** lastSeenAt is kept in memory per request and written at most this often. */
const TOUCH_PERSIST_MS = 60_000;
/** Ended sessions stay listable (includeExpired) this long. */
export const ENDED_RETENTION_MS = 90 * 24 * 3_600_000;

export type RefreshMatch = { session: StoredSession; kind: 'current' | 'previous' | 'used' };

/**
 * Login sessions: an in-memory index over the persisted list, so that a logout is seen by the very
 * next request without a disk read. Expiry is noticed lazily (every read) and by a periodic sweep.
 */
export class SessionStore {
  private readonly sessions = new Map<string, StoredSession>();
  private readonly byRefreshHash = new Map<string, string>();
  private lastPersist = 0;
  private dirty = false;

  constructor(
    private readonly store: KeyValueStore,
    private readonly now: () => number,
    private readonly activity: ActivityLog,
  ) {
    for (const s of loadState(store, KEY, z.array(sessionSchema), [])) this.index(s);
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
    this.index(session);
    this.persist();
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
    for (const dropped of r.usedHashes.slice(0, r.usedHashes.length + 1 - used.length))
      this.byRefreshHash.delete(dropped);
    session.refresh = {
      hash: newHash,
      generation: r.generation + 1,
      rotatedAt: at,
      previousHash: r.hash,
      usedHashes: used,
    };
    session.expiresAt = Math.min(at + idleMs, session.absoluteExpiresAt);
    session.lastSeenAt = at;
    this.byRefreshHash.set(newHash, session.sessionId);
    this.persist();
  }

  end(session: StoredSession, reason: SessionEndReason, at = this.now()): void {
    if (session.status !== 'active') return;
    session.status = reason === 'expired' ? 'expired' : 'logged_out';
    session.endedAt = at;
    session.endReason = reason;
    this.persist();
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
    for (const s of [...this.sessions.values()]) if (s.accountId === accountId) this.drop(s);
    this.persist();
  }

  touch(session: StoredSession): void {
    session.lastSeenAt = this.now();
    this.dirty = true;
    if (this.now() - this.lastPersist >= TOUCH_PERSIST_MS) this.persist();
  }

  /** Marks every overdue session expired and forgets long-ended ones. */
  sweep(): void {
    const oldest = this.now() - ENDED_RETENTION_MS;
    let dropped = false;
    for (const s of [...this.sessions.values()]) {
      this.expireIfDue(s);
      if (s.endedAt !== null && s.endedAt < oldest) {
        this.drop(s);
        dropped = true;
      }
    }
    if (dropped) this.persist();
  }

  flush(): void {
    if (this.dirty) this.persist();
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
    for (const h of [s.refresh.hash, ...s.refresh.usedHashes]) this.byRefreshHash.delete(h);
  }

  private persist() {
    this.store.set(KEY, [...this.sessions.values()]);
    this.lastPersist = this.now();
    this.dirty = false;
  }
}
