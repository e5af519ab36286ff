import { describe, expect, it } from 'vitest';
import { CLIENT, DAY, HOUR, MINUTE, openStore } from './session-store.test-support';
import { T0 } from './stack.test-support';

/**
 * The session store's rules called directly over an in-memory database: how a session starts,
 * expires, ends and is forgotten, in memory and in the table the next start loads.
 * The HTTP side of the same rules: sessions.it.test.ts, session-revocation.it.test.ts.
 */

describe('a new session', () => {
  it('is active, logged in and seen now, and expires at the sooner of its idle and its absolute limit', async () => {
    const f = await openStore();
    const idleFirst = await f.store.create('alice', CLIENT, 'h-idle', HOUR, DAY);
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
    const maxFirst = await f.store.create('alice', CLIENT, 'h-max', 2 * DAY, DAY);
    expect(maxFirst.expiresAt).toBe(T0 + DAY);
    expect(maxFirst.absoluteExpiresAt).toBe(T0 + DAY);
    expect(maxFirst.sessionId).not.toBe(idleFirst.sessionId);
  });

  it('is in the table, whole, for the next start, and its refresh token finds it there', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h-1', HOUR, DAY);
    const next = await f.reopen();
    expect(await next.get(s.sessionId)).toEqual(s);
    expect((await next.findByRefreshHash('h-1'))?.session.sessionId).toBe(s.sessionId);
  });
});

describe('expiry', () => {
  it('ends a session at its expiry instant exactly, not a millisecond before', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h', HOUR, DAY);
    f.clock.advance(HOUR - 1);
    expect(await f.store.active(s.sessionId)).toBe(s);
    f.clock.advance(1);
    expect(await f.store.active(s.sessionId)).toBeUndefined();
    expect((await f.store.get(s.sessionId))?.status).toBe('expired');
  });

  it('is dated when the session expired, not when it was noticed, in memory, table and activity log', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h', HOUR, DAY);
    f.clock.advance(5 * HOUR);
    expect(await f.store.get(s.sessionId)).toMatchObject({
      status: 'expired',
      endedAt: T0 + HOUR,
      endReason: 'expired',
    });
    expect(f.row(s.sessionId)).toMatchObject({
      status: 'expired',
      ended_at: T0 + HOUR,
      end_reason: 'expired',
    });
    const entry = (await f.activity.page({ sessionId: s.sessionId }, 10, 0)).items;
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

  it('is recorded once however often the expired session is read, and never for one that ended otherwise', async () => {
    const f = await openStore();
    const expiring = await f.store.create('alice', CLIENT, 'h-1', HOUR, DAY);
    const leaving = await f.store.create('alice', CLIENT, 'h-2', HOUR, DAY);
    await f.store.end(leaving, 'logout');
    f.clock.advance(2 * HOUR);
    for (let i = 0; i < 3; i++) {
      await f.store.get(expiring.sessionId);
      await f.store.get(leaving.sessionId);
    }
    await f.store.sweep();
    expect((await f.activityOf(expiring.sessionId)).map((e) => e.type)).toEqual(['session_expired']);
    expect(await f.activityOf(leaving.sessionId)).toEqual([]);
    expect(await f.store.get(leaving.sessionId)).toMatchObject({ status: 'logged_out', endReason: 'logout' });
  });

  it('an unknown session id is simply not there', async () => {
    const f = await openStore();
    expect(await f.store.get('no-such-session')).toBeUndefined();
    expect(await f.store.active('no-such-session')).toBeUndefined();
  });
});

describe('ending a session', () => {
  it('marks it logged out for any reason but expiry, now unless told when, and writes that', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h-1', HOUR, DAY);
    f.clock.advance(MINUTE);
    await f.store.end(s, 'password_changed');
    expect(s).toMatchObject({ status: 'logged_out', endedAt: T0 + MINUTE, endReason: 'password_changed' });
    expect(await f.store.active(s.sessionId)).toBeUndefined();
    expect(await (await f.reopen()).get(s.sessionId)).toMatchObject({
      status: 'logged_out',
      endedAt: T0 + MINUTE,
      endReason: 'password_changed',
    });

    const expired = await f.store.create('alice', CLIENT, 'h-2', HOUR, DAY);
    await f.store.end(expired, 'expired', T0 + 7);
    expect(await (await f.reopen()).get(expired.sessionId)).toMatchObject({
      status: 'expired',
      endedAt: T0 + 7,
      endReason: 'expired',
    });
  });

  it('keeps the first ending: a session already ended is not ended again', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h', HOUR, DAY);
    await f.store.end(s, 'logout');
    f.clock.advance(MINUTE);
    await f.store.end(s, 'refresh_token_reused');
    expect(s).toMatchObject({ status: 'logged_out', endedAt: T0, endReason: 'logout' });
    expect(f.row(s.sessionId)).toMatchObject({ status: 'logged_out', ended_at: T0, end_reason: 'logout' });
  });

  it("ending all of an account's sessions ends its active ones but the one spared, and returns those", async () => {
    const f = await openStore();
    const spared = await f.store.create('alice', CLIENT, 'h-spared', HOUR, DAY);
    const other = await f.store.create('alice', CLIENT, 'h-other', 3 * HOUR, DAY);
    const overdue = await f.store.create('alice', CLIENT, 'h-overdue', MINUTE, DAY);
    const gone = await f.store.create('alice', CLIENT, 'h-gone', HOUR, DAY);
    await f.store.end(gone, 'logout');
    const bobs = await f.store.create('bob', CLIENT, 'h-bob', HOUR, DAY);
    f.clock.advance(2 * MINUTE);

    const ended = await f.store.endAllFor('alice', 'password_changed', spared.sessionId);
    expect(ended.map((s) => s.sessionId)).toEqual([other.sessionId]);
    expect(await f.store.get(other.sessionId)).toMatchObject({
      status: 'logged_out',
      endReason: 'password_changed',
    });
    // Overdue is expired (when it expired), not ended by the password change; the ended one keeps its reason.
    expect(await f.store.get(overdue.sessionId)).toMatchObject({ status: 'expired', endedAt: T0 + MINUTE });
    expect(await f.store.get(gone.sessionId)).toMatchObject({ endReason: 'logout' });
    expect(await f.store.active(spared.sessionId)).toBe(spared);
    expect(await f.store.active(bobs.sessionId)).toBe(bobs);

    // Without a session to spare, every active one ends.
    const all = await f.store.endAllFor('alice', 'account_removed');
    expect(all.map((s) => s.sessionId)).toEqual([spared.sessionId]);
    expect(await f.store.listFor('alice', false)).toEqual([]);
    expect(await f.store.active(bobs.sessionId)).toBe(bobs);
  });
});

describe('forgetting an account', () => {
  it('removes its sessions and their refresh tokens from memory and table, and no other account’s', async () => {
    const f = await openStore();
    const a1 = await f.store.create('alice', CLIENT, 'h-a1', HOUR, DAY);
    await f.rotate(a1, 'h-a1b', HOUR);
    const a2 = await f.store.create('alice', CLIENT, 'h-a2', HOUR, DAY);
    await f.store.end(a2, 'logout');
    const b = await f.store.create('bob', CLIENT, 'h-b', HOUR, DAY);

    await f.store.forget('alice');
    for (const s of [a1, a2]) {
      expect(await f.store.get(s.sessionId)).toBeUndefined();
      expect(f.row(s.sessionId)).toBeUndefined();
      expect(f.tokenRows(s.sessionId)).toEqual([]);
    }
    for (const h of ['h-a1', 'h-a1b', 'h-a2']) expect(await f.store.findByRefreshHash(h)).toBeUndefined();
    expect(await f.store.listFor('alice', true)).toEqual([]);
    expect(await f.store.active(b.sessionId)).toBe(b);
    expect((await f.store.findByRefreshHash('h-b'))?.kind).toBe('current');
    const next = await f.reopen();
    expect(await next.listFor('alice', true)).toEqual([]);
    expect(await next.get(b.sessionId)).toEqual(b);
  });
});
