/**
 * What starts a write of the recorder, and what one write does: each change kind schedules one
 * on its own, the 1,000 changes that start one at once, a failing cluster among others, and when a
 * flush is followed by retention. Recording rules are in recorder.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { EventEntry } from '../entries';
import { ALL, becomes, DAY, entry, ids, MIN, recorderPerTest, T0 } from './history.test-support';

const { s, start } = recorderPerTest();
const expiry = async (clusterId = 'c1') =>
  Object.fromEntries((await s.store.page(clusterId, ALL, 100, 0)).map((r) => [r.eventId, r.expiredAt]));
const many = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => entry(`${prefix}${i}`, T0 + i));
/** Long enough for a write that was started to have happened; a write waiting for flushMs has not. */
const settle = () => new Promise((r) => setTimeout(r, 100));

describe('each kind of change is written on its own after flushMs', () => {
  it('a deletion alone', async () => {
    const { recorder } = start({ flushMs: 10 });
    const o = recorder.observer('c1', () => []);
    o.listed([]);
    o.upserted(entry('a', T0));
    // Written by the timer the upsert started: no timer is left running.
    expect(await becomes(async () => (await s.store.total('c1')) === 1)).toBe(true);
    o.removed('a');
    expect(await becomes(async () => (await expiry()).a !== undefined)).toBe(true);
  });

  it('a list alone: what it no longer has is marked expired', async () => {
    await s.put('c1', [entry('kept', T0), entry('gone', T0 + 1)]);
    const { recorder } = start({ flushMs: 10 });
    recorder.observer('c1', () => []).listed([entry('kept', T0)]);
    expect(await becomes(async () => (await expiry()).gone !== undefined)).toBe(true);
    expect((await expiry()).kept).toBeUndefined();
  });

  it('a category turned back on: the cache is written again', async () => {
    const { recorder, flags } = start({ flushMs: 10 });
    const cache = [entry('pod', T0)];
    const o = recorder.observer('c1', () => cache);
    flags.resourceEventsEnabled = false;
    o.upserted(cache[0]!);
    o.listed(cache);
    // Written (nothing, the flag is off) by the timer the changes started: no timer is left running.
    expect(await becomes(async () => recorder.version('c1') === 1)).toBe(true);
    expect(await s.store.total('c1')).toBe(0);
    flags.resourceEventsEnabled = true;
    recorder.resync('c1');
    expect(await becomes(async () => (await s.store.total('c1')) === 1)).toBe(true);
  });
});

describe('the 1,000 changes that start a write at once', () => {
  it('deletions count as changes too', async () => {
    const { recorder } = start();
    const o = recorder.observer('c1', () => []);
    o.listed([]);
    for (const e of many('old', 500)) o.upserted(e);
    await recorder.flush();
    for (let i = 0; i < 500; i++) o.removed(`old${i}`);
    for (const e of many('new', 499)) o.upserted(e);
    await settle();
    expect(await s.store.presentIds('c1')).toHaveLength(500);
    o.upserted(entry('new499', T0 + 499));
    expect(
      await becomes(
        async () => (await s.store.presentIds('c1')).length === 500 && (await s.store.total('c1')) === 1_000,
      ),
    ).toBe(true);
  });

  it('an event seen and deleted before its write is one change, not two', async () => {
    const { recorder } = start();
    const o = recorder.observer('c1', () => []);
    o.listed([]);
    for (const e of many('e', 999)) o.upserted(e);
    o.removed('e0');
    await settle();
    expect(await s.store.total('c1')).toBe(0);
  });

  it('a cluster still on its first list starts no write, however many changes it has', async () => {
    const { recorder } = start();
    const listed = recorder.observer('listed', () => []);
    listed.listed([]);
    listed.upserted(entry('waits-for-flushMs', T0));
    const listing = recorder.observer('listing', () => []);
    for (const e of many('e', 1_000)) listing.upserted(e);
    await settle();
    expect([await s.store.total('listed'), await s.store.total('listing')]).toEqual([0, 0]);
  });
});

describe('one write', () => {
  it('a list keeps live the recorded events it still has, even with no change to write', async () => {
    await s.put('c1', [entry('b', T0 + 1), entry('a', T0), entry('c', T0 + 2)]);
    const { recorder } = start();
    recorder.observer('c1', () => []).listed([entry('c', T0 + 2), entry('a', T0)]);
    await recorder.flush();
    expect(await expiry()).toStrictEqual({ a: undefined, b: T0, c: undefined });
  });

  it("a cluster whose changes the table refuses does not keep the other clusters' from being written", async () => {
    const { recorder } = start();
    const refused = recorder.observer('refused', () => []);
    const fine = recorder.observer('fine', () => []);
    refused.listed([]);
    fine.listed([]);
    refused.upserted(entry('bad', T0, { type: 'INFO' as EventEntry['type'] }));
    fine.upserted(entry('good', T0));
    await recorder.flush();
    expect(ids(await s.store.page('fine', ALL, 10, 0))).toEqual(['good']);
    expect(await s.store.total('refused')).toBe(0);
    // Its changes were tried: readers do not keep an answer computed before.
    expect(recorder.version('refused')).toBe(1);
  });

  it('a flush of fewer than 10,000 rows starts no retention', async () => {
    const { recorder, clock } = start({ retentionMs: DAY });
    clock.now = T0 + 10 * DAY;
    await s.put('c1', [entry('old-gone', T0)]);
    await s.expire('c1', ['old-gone'], T0 + MIN);
    const o = recorder.observer('c1', () => []);
    o.upserted(entry('new', T0 + 10 * DAY));
    o.listed([entry('new', T0 + 10 * DAY)]);
    await recorder.flush();
    await recorder.flush();
    expect(Object.keys(await expiry()).sort()).toEqual(['new', 'old-gone']);
    await recorder.prune();
    expect(Object.keys(await expiry())).toEqual(['new']);
  });
});

describe("SIGTERM's lease release", () => {
  it('keeps the leases on SQLite, so what is pending then is written at close (nobody else would, until the next start)', async () => {
    const { recorder } = start({ flushMs: 3_600_000 });
    const o = recorder.observer('c1', () => []);
    o.listed([]);
    expect(await becomes(() => recorder.recordingClusters().includes('c1'))).toBe(true);
    o.upserted(entry('seen-last', T0));
    await recorder.releaseLeases();
    expect(recorder.recordingClusters()).toEqual(['c1']);
    await recorder.close();
    expect(await s.store.total('c1')).toBe(1);
  });
});
