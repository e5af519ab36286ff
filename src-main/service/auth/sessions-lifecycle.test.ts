import { describe, expect, it } from 'vitest';
import { CLIENT, DAY, HOUR, MINUTE, openStore } from './session-store.test-support';
import { T0 } from './stack.test-support';

/**
 * The session store's rules called directly over an in-memory database: how a session starts,
 * expires, ends and is forgotten, in memory and in the table the next start loads.
 * The HTTP side of the same rules: sessions.it.test.ts, session-revocation.it.test.ts.
 */

describe('a new session', () => {
  it('is active, logged in and seen now, and expires at the sooner of its idle and its absolute limit', () => {
    const f = openStore();
    const idleFirst = f.store.create('alice', CLIENT, 'h-idle', HOUR, DAY);
    expect(idleFirst).toEqual({
      sessionId: expect.any(String),
      accountId: 'alice',
      status: 'active',
      client: CLIENT,
      firstLoginAt: T0,
      lastSeenAt: T0,
      expiresAt: T0 + HOUR,
      absoluteExpiresAt: T0 + DAY,
      endedAt: null,
      endReason: null,
      refresh: { hash: 'h-idle', generation: 1, rotatedAt: T0, previousHash: null, usedHashes: [] },
    });
    // An idle limit longer than the absolute one never lets the session outlive the absolute one.
    const maxFirst = f.store.create('alice', CLIENT, 'h-max', 2 * DAY, DAY);
    expect(maxFirst.expiresAt).toBe(T0 + DAY);
    expect(maxFirst.absoluteExpiresAt).toBe(T0 + DAY);
    expect(maxFirst.sessionId).not.toBe(idleFirst.sessionId);
  });

  it('is in the table, whole, for the next start, and its refresh token finds it there', () => {
    const f = openStore();
    const s = f.store.create('alice', CLIENT, 'h-1', HOUR, DAY);
    const next = f.reopen();
    expect(next.get(s.sessionId)).toEqual(s);
    expect(next.findByRefreshHash('h-1')?.session.sessionId).toBe(s.sessionId);
  });
});

describe('expiry', () => {
  it('ends a session at its expiry instant exactly, not a millisecond before', () => {
    const f = openStore();
    const s = f.store.create('alice', CLIENT, 'h', HOUR, DAY);
    f.clock.advance(HOUR - 1);
    expect(f.store.active(s.sessionId)).toBe(s);
    f.clock.advance(1);
    expect(f.store.active(s.sessionId)).toBeUndefined();
    expect(f.store.get(s.sessionId)?.status).toBe('expired');
  });

  it('is dated when the session expired, not when it was noticed, in memory, table and activity log', () => {
    const f = openStore();
    const s = f.store.create('alice', CLIENT, 'h', HOUR, DAY);
    f.clock.advance(5 * HOUR);
    expect(f.store.get(s.sessionId)).toMatchObject({
      status: 'expired',
      endedAt: T0 + HOUR,
      endReason: 'expired',
    });
    expect(f.row(s.sessionId)).toMatchObject({
      status: 'expired',
      ended_at: T0 + HOUR,
      end_reason: 'expired',
    });
    const entry = f.activity.page({ sessionId: s.sessionId }, 10, 0).items;
    expect(entry).toEqual([
      expect.objectContaining({
        type: 'session_expired',
        at: new Date(T0 + HOUR).toISOString(),
        accountId: 'alice',
        sessionId: s.sessionId,
        client: CLIENT,
      }),
    ]);
  });

  it('is recorded once however often the expired session is read, and never for one that ended otherwise', () => {
    const f = openStore();
    const expiring = f.store.create('alice', CLIENT, 'h-1', HOUR, DAY);
    const leaving = f.store.create('alice', CLIENT, 'h-2', HOUR, DAY);
    f.store.end(leaving, 'logout');
    f.clock.advance(2 * HOUR);
    for (let i = 0; i < 3; i++) {
      f.store.get(expiring.sessionId);
      f.store.get(leaving.sessionId);
    }
    f.store.sweep();
    expect(f.activityOf(expiring.sessionId).map((e) => e.type)).toEqual(['session_expired']);
    expect(f.activityOf(leaving.sessionId)).toEqual([]);
    expect(f.store.get(leaving.sessionId)).toMatchObject({ status: 'logged_out', endReason: 'logout' });
  });

  it('an unknown session id is simply not there', () => {
    const f = openStore();
    expect(f.store.get('no-such-session')).toBeUndefined();
    expect(f.store.active('no-such-session')).toBeUndefined();
  });
});

describe('ending a session', () => {
  it('marks it logged out for any reason but expiry, now unless told when, and writes that', () => {
    const f = openStore();
    const s = f.store.create('alice', CLIENT, 'h-1', HOUR, DAY);
    f.clock.advance(MINUTE);
    f.store.end(s, 'password_changed');
    expect(s).toMatchObject({ status: 'logged_out', endedAt: T0 + MINUTE, endReason: 'password_changed' });
    expect(f.store.active(s.sessionId)).toBeUndefined();
    expect(f.reopen().get(s.sessionId)).toMatchObject({
      status: 'logged_out',
      endedAt: T0 + MINUTE,
      endReason: 'password_changed',
    });

    const expired = f.store.create('alice', CLIENT, 'h-2', HOUR, DAY);
    f.store.end(expired, 'expired', T0 + 7);
    expect(f.reopen().get(expired.sessionId)).toMatchObject({
      status: 'expired',
      endedAt: T0 + 7,
      endReason: 'expired',
    });
  });

  it('keeps the first ending: a session already ended is not ended again', () => {
    const f = openStore();
    const s = f.store.create('alice', CLIENT, 'h', HOUR, DAY);
    f.store.end(s, 'logout');
    f.clock.advance(MINUTE);
    f.store.end(s, 'refresh_token_reused');
    expect(s).toMatchObject({ status: 'logged_out', endedAt: T0, endReason: 'logout' });
    expect(f.row(s.sessionId)).toMatchObject({ status: 'logged_out', ended_at: T0, end_reason: 'logout' });
  });

  it("ending all of an account's sessions ends its active ones but the one spared, and returns those", () => {
    const f = openStore();
    const spared = f.store.create('alice', CLIENT, 'h-spared', HOUR, DAY);
    const other = f.store.create('alice', CLIENT, 'h-other', 3 * HOUR, DAY);
    const overdue = f.store.create('alice', CLIENT, 'h-overdue', MINUTE, DAY);
    const gone = f.store.create('alice', CLIENT, 'h-gone', HOUR, DAY);
    f.store.end(gone, 'logout');
    const bobs = f.store.create('bob', CLIENT, 'h-bob', HOUR, DAY);
    f.clock.advance(2 * MINUTE);

    const ended = f.store.endAllFor('alice', 'password_changed', spared.sessionId);
    expect(ended.map((s) => s.sessionId)).toEqual([other.sessionId]);
    expect(f.store.get(other.sessionId)).toMatchObject({
      status: 'logged_out',
      endReason: 'password_changed',
    });
    // Overdue is expired (when it expired), not ended by the password change; the ended one keeps its reason.
    expect(f.store.get(overdue.sessionId)).toMatchObject({ status: 'expired', endedAt: T0 + MINUTE });
    expect(f.store.get(gone.sessionId)).toMatchObject({ endReason: 'logout' });
    expect(f.store.active(spared.sessionId)).toBe(spared);
    expect(f.store.active(bobs.sessionId)).toBe(bobs);

    // Without a session to spare, every active one ends.
    const all = f.store.endAllFor('alice', 'account_removed');
    expect(all.map((s) => s.sessionId)).toEqual([spared.sessionId]);
    expect(f.store.listFor('alice', false)).toEqual([]);
    expect(f.store.active(bobs.sessionId)).toBe(bobs);
  });
});

describe('forgetting an account', () => {
  it('removes its sessions and their refresh tokens from memory and table, and no other account’s', () => {
    const f = openStore();
    const a1 = f.store.create('alice', CLIENT, 'h-a1', HOUR, DAY);
    f.store.rotate(a1, 'h-a1b', HOUR);
    const a2 = f.store.create('alice', CLIENT, 'h-a2', HOUR, DAY);
    f.store.end(a2, 'logout');
    const b = f.store.create('bob', CLIENT, 'h-b', HOUR, DAY);

    f.store.forget('alice');
    for (const s of [a1, a2]) {
      expect(f.store.get(s.sessionId)).toBeUndefined();
      expect(f.row(s.sessionId)).toBeUndefined();
      expect(f.tokenRows(s.sessionId)).toEqual([]);
    }
    for (const h of ['h-a1', 'h-a1b', 'h-a2']) expect(f.store.findByRefreshHash(h)).toBeUndefined();
    expect(f.store.listFor('alice', true)).toEqual([]);
    expect(f.store.active(b.sessionId)).toBe(b);
    expect(f.store.findByRefreshHash('h-b')?.kind).toBe('current');
    const next = f.reopen();
    expect(next.listFor('alice', true)).toEqual([]);
    expect(next.get(b.sessionId)).toEqual(b);
  });
});
