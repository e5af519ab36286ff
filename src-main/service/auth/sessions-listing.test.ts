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
  it('is newest login first, whatever order the sessions were created in, and only that account’s', () => {
    const f = openStore();
    const middle = f.store.create('alice', CLIENT, 'h-m', DAY, DAY);
    f.clock.advance(-HOUR);
    const oldest = f.store.create('alice', CLIENT, 'h-o', DAY, DAY);
    f.clock.advance(3 * HOUR);
    const bobs = f.store.create('bob', CLIENT, 'h-b', DAY, DAY);
    f.clock.advance(-MINUTE);
    const newest = f.store.create('alice', CLIENT, 'h-n', DAY, DAY);
    expect(ids(f.store.listFor('alice', false))).toEqual(ids([newest, middle, oldest]));
    expect(ids(f.store.listFor('bob', false))).toEqual([bobs.sessionId]);
    expect(f.store.listFor('carol', true)).toEqual([]);
  });

  it('puts the later of two logins in the same millisecond first, also after a restart', () => {
    const f = openStore();
    const first = f.store.create('alice', CLIENT, 'h-1', DAY, DAY);
    const second = f.store.create('alice', CLIENT, 'h-2', DAY, DAY);
    const third = f.store.create('alice', CLIENT, 'h-3', DAY, DAY);
    expect(ids(f.store.listFor('alice', false))).toEqual(ids([third, second, first]));
    expect(ids(f.reopen().listFor('alice', false))).toEqual(ids([third, second, first]));
  });

  it('shows ended sessions only when asked to, those that expired unnoticed included', () => {
    const f = openStore();
    const overdue = f.store.create('alice', CLIENT, 'h-overdue', MINUTE, DAY);
    const loggedOut = f.store.create('alice', CLIENT, 'h-out', HOUR, DAY);
    f.store.end(loggedOut, 'logout');
    f.clock.advance(SECOND);
    const active = f.store.create('alice', CLIENT, 'h-active', HOUR, DAY);
    f.clock.advance(2 * MINUTE);
    // Nothing read the overdue session since it expired: the list itself notices.
    expect(ids(f.store.listFor('alice', false))).toEqual([active.sessionId]);
    const all = f.store.listFor('alice', true);
    expect(ids(all)).toEqual(ids([active, loggedOut, overdue]));
    expect(all.find((s) => s.sessionId === overdue.sessionId)).toMatchObject({
      status: 'expired',
      endedAt: T0 + MINUTE,
    });
  });
});

describe('retention of ended sessions', () => {
  it('keeps an ended session for 90 days after it ended, to the millisecond, then drops it from memory and table', () => {
    const f = openStore();
    expect(ENDED_RETENTION_MS).toBe(90 * DAY);
    const s = f.store.create('alice', CLIENT, 'h-1', HOUR, 365 * DAY);
    f.store.rotate(s, 'h-2', HOUR);
    f.store.end(s, 'logout');
    // Still active after as long: an active session is never dropped, however old.
    const keeper = f.store.create('bob', CLIENT, 'h-bob', 365 * DAY, 365 * DAY);

    f.clock.advance(90 * DAY);
    f.store.sweep();
    expect(f.store.get(s.sessionId)?.status).toBe('logged_out');
    expect(f.row(s.sessionId)).toBeDefined();

    f.clock.advance(1);
    f.store.sweep();
    expect(f.store.get(s.sessionId)).toBeUndefined();
    expect(f.row(s.sessionId)).toBeUndefined();
    expect(f.tokenRows(s.sessionId)).toEqual([]);
    expect(f.store.findByRefreshHash('h-1')).toBeUndefined();
    expect(f.store.findByRefreshHash('h-2')).toBeUndefined();
    expect(f.reopen().get(s.sessionId)).toBeUndefined();
    expect(f.store.active(keeper.sessionId)).toBe(keeper);
    expect(f.row(keeper.sessionId)).toBeDefined();
  });

  it('counts from when an unnoticed expiry happened, and the list applies it', () => {
    const f = openStore();
    const s = f.store.create('alice', CLIENT, 'h', HOUR, DAY);
    const recent = f.store.create('alice', CLIENT, 'h-recent', 2 * HOUR, DAY);
    f.clock.advance(HOUR + 90 * DAY + 1);
    expect(ids(f.store.listFor('alice', true))).toEqual([recent.sessionId]);
    expect(f.row(s.sessionId)).toBeUndefined();
    expect(f.row(recent.sessionId)).toMatchObject({ status: 'expired', ended_at: T0 + 2 * HOUR });
  });
});

describe('a session record', () => {
  it('states the session’s times as ISO instants, its client, and whether it is the caller’s', () => {
    const f = openStore();
    const s = f.store.create('alice', CLIENT, 'h', HOUR, DAY);
    f.clock.advance(MINUTE);
    f.store.touch(s);
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
    f.store.end(s, 'logout');
    expect(f.store.toRecord(s, undefined)).toMatchObject({
      status: 'logged_out',
      endedAt: '2026-03-01T09:02:00.000Z',
      endReason: 'logout',
    });
  });
});
