import { describe, expect, it } from 'vitest';
import { CLIENT, DAY, HOUR, MINUTE, openStore, SECOND } from './session-store.test-support';
import { ENDED_RETENTION_MS } from './sessions';
import { T0 } from './stack.test-support';

/**
 * The session list and its retention, called directly on the session store; the HTTP side of the
 * same rules is session-list.it.test.ts.
 */

const ids = (list: { sessionId: string }[]) => list.map((s) => s.sessionId);

describe('the list of an account’s sessions', () => {
  it('is newest login first, whatever order the sessions were created in, and only that account’s', async () => {
    const f = await openStore();
    const middle = await f.store.create('alice', CLIENT, 'h-m', DAY, DAY);
    f.clock.advance(-HOUR);
    const oldest = await f.store.create('alice', CLIENT, 'h-o', DAY, DAY);
    f.clock.advance(3 * HOUR);
    const bobs = await f.store.create('bob', CLIENT, 'h-b', DAY, DAY);
    f.clock.advance(-MINUTE);
    const newest = await f.store.create('alice', CLIENT, 'h-n', DAY, DAY);
    expect(ids(await f.store.listFor('alice', false))).toEqual(ids([newest, middle, oldest]));
    expect(ids(await f.store.listFor('bob', false))).toEqual([bobs.sessionId]);
    expect(await f.store.listFor('carol', true)).toEqual([]);
  });

  it('puts the later of two logins in the same millisecond first, also after a restart', async () => {
    const f = await openStore();
    const first = await f.store.create('alice', CLIENT, 'h-1', DAY, DAY);
    const second = await f.store.create('alice', CLIENT, 'h-2', DAY, DAY);
    const third = await f.store.create('alice', CLIENT, 'h-3', DAY, DAY);
    expect(ids(await f.store.listFor('alice', false))).toEqual(ids([third, second, first]));
    expect(ids(await (await f.reopen()).listFor('alice', false))).toEqual(ids([third, second, first]));
  });

  it('shows ended sessions only when asked to, those that expired unnoticed included', async () => {
    const f = await openStore();
    const overdue = await f.store.create('alice', CLIENT, 'h-overdue', MINUTE, DAY);
    const loggedOut = await f.store.create('alice', CLIENT, 'h-out', HOUR, DAY);
    await f.store.end(loggedOut, 'logout');
    f.clock.advance(SECOND);
    const active = await f.store.create('alice', CLIENT, 'h-active', HOUR, DAY);
    f.clock.advance(2 * MINUTE);
    // Nothing read the overdue session since it expired: the list itself notices.
    expect(ids(await f.store.listFor('alice', false))).toEqual([active.sessionId]);
    const all = await f.store.listFor('alice', true);
    expect(ids(all)).toEqual(ids([active, loggedOut, overdue]));
    expect(all.find((s) => s.sessionId === overdue.sessionId)).toMatchObject({
      status: 'expired',
      endedAt: T0 + MINUTE,
    });
  });
});

describe('retention of ended sessions', () => {
  it('keeps an ended session for 90 days after it ended, to the millisecond, then drops it from memory and table', async () => {
    const f = await openStore();
    expect(ENDED_RETENTION_MS).toBe(90 * DAY);
    const s = await f.store.create('alice', CLIENT, 'h-1', HOUR, 365 * DAY);
    await f.rotate(s, 'h-2', HOUR);
    await f.store.end(s, 'logout');
    // Still active after as long: an active session is never dropped, however old.
    const keeper = await f.store.create('bob', CLIENT, 'h-bob', 365 * DAY, 365 * DAY);

    f.clock.advance(90 * DAY);
    await f.store.sweep();
    expect((await f.store.get(s.sessionId))?.status).toBe('logged_out');
    expect(f.row(s.sessionId)).toBeDefined();

    f.clock.advance(1);
    await f.store.sweep();
    expect(await f.store.get(s.sessionId)).toBeUndefined();
    expect(f.row(s.sessionId)).toBeUndefined();
    expect(f.tokenRows(s.sessionId)).toEqual([]);
    expect(await f.store.findByRefreshHash('h-1')).toBeUndefined();
    expect(await f.store.findByRefreshHash('h-2')).toBeUndefined();
    expect(await (await f.reopen()).get(s.sessionId)).toBeUndefined();
    expect(await f.store.active(keeper.sessionId)).toBe(keeper);
    expect(f.row(keeper.sessionId)).toBeDefined();
  });

  it('counts from when an unnoticed expiry happened, and the list applies it', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h', HOUR, DAY);
    const recent = await f.store.create('alice', CLIENT, 'h-recent', 2 * HOUR, DAY);
    f.clock.advance(HOUR + 90 * DAY + 1);
    expect(ids(await f.store.listFor('alice', true))).toEqual([recent.sessionId]);
    expect(f.row(s.sessionId)).toBeUndefined();
    expect(f.row(recent.sessionId)).toMatchObject({ status: 'expired', ended_at: T0 + 2 * HOUR });
  });
});

describe('a session record', () => {
  it('states the session’s times as ISO instants, its client, and whether it is the caller’s', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h', HOUR, DAY);
    f.clock.advance(MINUTE);
    await f.store.touch(s);
    expect(f.store.toRecord(s, s.sessionId)).toEqual({
      sessionId: s.sessionId,
      status: 'active',
      current: true,
      ...CLIENT,
      firstLoginAt: '2026-03-01T09:00:00.000Z',
      lastSeenAt: '2026-03-01T09:01:00.000Z',
      expiresAt: '2026-03-01T10:00:00.000Z',
      endedAt: null,
      endReason: null,
    });
    expect(f.store.toRecord(s, 'another-session').current).toBe(false);
    expect(f.store.toRecord(s, undefined).current).toBe(false);
    f.clock.advance(MINUTE);
    await f.store.end(s, 'logout');
    expect(f.store.toRecord(s, undefined)).toMatchObject({
      status: 'logged_out',
      endedAt: '2026-03-01T09:02:00.000Z',
      endReason: 'logout',
    });
  });
});
