import { describe, expect, it } from 'vitest';
import { CLIENT, DAY, HOUR, MINUTE, openStore } from './session-store.test-support';
import { T0 } from './stack.test-support';

/**
 * A session's refresh-token family, called directly on the session store: rotation, what an old
 * token is recognised as, and how much of the family is remembered. The HTTP side of the same
 * rules: refresh.it.test.ts, session-family.it.test.ts.
 */

const REMEMBERED = 200;

describe('rotating the refresh token', () => {
  it('makes the new token current, the old one previous, counts the generation and moves the idle expiry', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h-1', HOUR, DAY);
    f.clock.advance(10 * MINUTE);
    await f.rotate(s, 'h-2', HOUR);
    // The object callers hold is the one that changed.
    expect(s).toMatchObject({
      refresh: {
        hash: 'h-2',
        generation: 2,
        rotatedAt: T0 + 10 * MINUTE,
        previousHash: 'h-1',
        usedHashes: ['h-1'],
      },
      expiresAt: T0 + 10 * MINUTE + HOUR,
      lastSeenAt: T0 + 10 * MINUTE,
      firstLoginAt: T0,
    });
    expect(await f.store.get(s.sessionId)).toBe(s);
    expect(await f.store.findByRefreshHash('h-2')).toEqual({ session: s, kind: 'current' });
    expect(await f.store.findByRefreshHash('h-1')).toEqual({ session: s, kind: 'previous' });

    f.clock.advance(MINUTE);
    await f.rotate(s, 'h-3', HOUR);
    expect(s.refresh).toMatchObject({
      hash: 'h-3',
      generation: 3,
      previousHash: 'h-2',
      usedHashes: ['h-1', 'h-2'],
    });
    expect((await f.store.findByRefreshHash('h-3'))?.kind).toBe('current');
    expect((await f.store.findByRefreshHash('h-2'))?.kind).toBe('previous');
    expect((await f.store.findByRefreshHash('h-1'))?.kind).toBe('used');
    expect(await f.store.findByRefreshHash('h-never')).toBeUndefined();
  });

  it('never moves the expiry past the absolute limit', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h-1', HOUR, 2 * HOUR);
    f.clock.advance(50 * MINUTE);
    await f.rotate(s, 'h-2', HOUR);
    expect(s.expiresAt).toBe(T0 + 50 * MINUTE + HOUR);
    f.clock.advance(50 * MINUTE);
    await f.rotate(s, 'h-3', HOUR);
    expect(s.expiresAt).toBe(T0 + 2 * HOUR);
    expect(f.row(s.sessionId)?.expires_at).toBe(T0 + 2 * HOUR);
  });

  it('is in the table: the next start knows the current, the previous and every earlier token', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h-1', HOUR, DAY);
    for (const [i, h] of ['h-2', 'h-3', 'h-4'].entries()) {
      f.clock.advance((i + 1) * MINUTE);
      await f.rotate(s, h, HOUR);
    }
    expect(f.row(s.sessionId)).toMatchObject({
      refresh_hash: 'h-4',
      refresh_generation: 4,
      refresh_previous_hash: 'h-3',
      expires_at: s.expiresAt,
      last_seen_at: s.lastSeenAt,
    });
    const next = await f.reopen();
    expect(await next.get(s.sessionId)).toEqual(s);
    const kinds = [];
    for (const h of ['h-4', 'h-3', 'h-2', 'h-1']) kinds.push((await next.findByRefreshHash(h))?.kind);
    expect(kinds).toEqual(['current', 'previous', 'used', 'used']);
  });

  it(`remembers the ${REMEMBERED} most recent earlier tokens: an older one is unknown, in memory and after a restart`, async () => {
    const f = await openStore();
    const token = (n: number) => `h-${n}`;
    const s = await f.store.create('alice', CLIENT, token(0), HOUR, DAY);
    const rotations = REMEMBERED + 2;
    for (let n = 1; n <= rotations; n++) await f.rotate(s, token(n), HOUR);
    // Earlier tokens: 0 … rotations-1; the most recent REMEMBERED of them are 2 … rotations-1.
    expect(s.refresh.usedHashes).toEqual(Array.from({ length: REMEMBERED }, (_, i) => token(i + 2)));
    expect(f.tokenRows(s.sessionId)).toEqual(Array.from({ length: REMEMBERED + 1 }, (_, i) => token(i + 2)));
    for (const store of [f.store, await f.reopen()]) {
      expect(await store.findByRefreshHash(token(0))).toBeUndefined();
      expect(await store.findByRefreshHash(token(1))).toBeUndefined();
      expect((await store.findByRefreshHash(token(2)))?.kind).toBe('used');
      expect((await store.findByRefreshHash(token(REMEMBERED)))?.kind).toBe('used');
      expect((await store.findByRefreshHash(token(rotations - 1)))?.kind).toBe('previous');
      expect((await store.findByRefreshHash(token(rotations)))?.kind).toBe('current');
    }
  });

  it('a token of a session that has ended still finds it, ended, so its reuse can be told apart', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h-1', HOUR, DAY);
    await f.rotate(s, 'h-2', HOUR);
    f.clock.advance(2 * HOUR);
    const found = await f.store.findByRefreshHash('h-2');
    expect(found?.kind).toBe('current');
    expect(found?.session.status).toBe('expired');
  });
});

describe('when a session was last seen', () => {
  it('moves with every request in memory, and is written at once when nothing was written for a minute', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h', DAY, DAY);
    f.clock.advance(MINUTE);
    // The first touch of a fresh store: nothing written yet, so it is written now.
    await f.store.touch(s);
    expect(s.lastSeenAt).toBe(T0 + MINUTE);
    expect(f.row(s.sessionId)?.last_seen_at).toBe(T0 + MINUTE);

    f.clock.advance(MINUTE - 1);
    await f.store.touch(s);
    expect(s.lastSeenAt).toBe(T0 + 2 * MINUTE - 1);
    expect(f.row(s.sessionId)?.last_seen_at).toBe(T0 + MINUTE);

    f.clock.advance(1);
    await f.store.touch(s);
    expect(f.row(s.sessionId)?.last_seen_at).toBe(T0 + 2 * MINUTE);
  });

  it('is written for every session touched since the last write, in one flush', async () => {
    const f = await openStore();
    const a = await f.store.create('alice', CLIENT, 'h-a', DAY, DAY);
    const b = await f.store.create('bob', CLIENT, 'h-b', DAY, DAY);
    const untouched = await f.store.create('bob', CLIENT, 'h-c', DAY, DAY);
    await f.store.flush();
    f.clock.advance(5_000);
    await f.store.touch(a);
    f.clock.advance(5_000);
    await f.store.touch(b);
    expect(f.row(a.sessionId)?.last_seen_at).toBe(T0);
    expect(f.row(b.sessionId)?.last_seen_at).toBe(T0);
    await f.store.flush();
    expect(f.row(a.sessionId)?.last_seen_at).toBe(T0 + 5_000);
    expect(f.row(b.sessionId)?.last_seen_at).toBe(T0 + 10_000);
    expect(f.row(untouched.sessionId)?.last_seen_at).toBe(T0);
    expect((await (await f.reopen()).get(b.sessionId))?.lastSeenAt).toBe(T0 + 10_000);
  });

  it('a flush restarts the minute: a touch within a minute of it is not written', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h', DAY, DAY);
    f.clock.advance(10 * MINUTE);
    await f.store.flush();
    f.clock.advance(30_000);
    await f.store.touch(s);
    expect(f.row(s.sessionId)?.last_seen_at).toBe(T0);
    f.clock.advance(30_000);
    await f.store.touch(s);
    expect(f.row(s.sessionId)?.last_seen_at).toBe(T0 + 11 * MINUTE);
  });
});

describe('a rotation another replica beat', () => {
  it('loses even when its session was re-read while it was being prepared, and nothing of it is written', async () => {
    const f = await openStore();
    const s = await f.store.create('alice', CLIENT, 'h-1', HOUR, DAY);
    // A second store over the same table: another replica's memory of the same session.
    const other = await f.reopen();
    const held = (await other.get(s.sessionId))!;
    const late = other.nextRotation(held, 'h-late', HOUR);
    expect(await f.rotate(s, 'h-first', HOUR)).toBe(true);
    // The first rotation's notification arrives before the late one is written.
    await other.changed(s.sessionId);
    expect(held.refresh.hash).toBe('h-first');
    expect(await other.rotate(held, late, null)).toBe(false);
    expect(f.row(s.sessionId)).toMatchObject({ refresh_hash: 'h-first', refresh_generation: 2 });
    expect(held.refresh).toMatchObject({ hash: 'h-first', generation: 2, previousHash: 'h-1' });
    expect(await other.findByRefreshHash('h-late')).toBeUndefined();
  });
});
