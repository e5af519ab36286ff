/**
 * The event history as the service reads it, on a real database: reads write what is pending
 * first, totals are remembered per table version, the timeline counts what the list answers, and
 * a snapshot's history is read from its own store.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClusterConnection } from '../../clusters/cluster';
import { silentLogger } from '../../logger';
import type { EventFilter } from '../filter';
import { ALL, entry, ids, MIN, type OpenStore, openStore, SEC, T0 } from './history.test-support';
import { EventHistory, type EventHistoryOptions } from './index';

let s: OpenStore;
let history: EventHistory | undefined;
const flags = { resourceEventsEnabled: true, systemEventsEnabled: true };
/** A live cluster as a request resolves it: no history of its own. */
const C1 = { clusterId: 'c1' };
beforeEach(async () => {
  s = await openStore();
  flags.resourceEventsEnabled = true;
});
afterEach(async () => {
  await history?.close();
  history = undefined;
  await s.close();
});

const open = (options: EventHistoryOptions = {}) => {
  history = new EventHistory({
    backend: s.backend,
    options: { flushMs: 3_600_000, pruneEveryMs: 3_600_000, ...options },
    flags: () => ({ ...flags }),
    logger: silentLogger(),
    now: () => T0,
  });
  return history;
};

/** A watched cluster whose cache has listed `live`. */
function watched(h: EventHistory, clusterId: string, live = [entry('a', T0), entry('b', T0 + 1)]) {
  const o = h.observer(clusterId, () => live)!;
  for (const e of live) o.upserted(e);
  o.listed(live);
  return o;
}

describe('recording', () => {
  it('with recording off nothing is recorded and the history answers nothing', async () => {
    const h = open({ record: 'off' });
    expect(h.recording).toBe(false);
    expect(h.keepsWatching()).toBe(false);
    expect(h.observer('c1', () => [])).toBeUndefined();
    expect(await h.page(C1, ALL, 10, 0)).toBeUndefined();
    expect(await h.groups(C1, ALL, 10, 0)).toBeUndefined();
    expect(await h.timeline(C1, ALL, T0, 10)).toBeUndefined();
    expect(await h.rowsAfter(C1, undefined, 10)).toBeUndefined();
    expect(await h.lastRecorded(C1)).toBeUndefined();
  });

  it('a read writes what the cache has seen first', async () => {
    const h = open();
    expect([h.recording, h.keepsWatching()]).toEqual([true, true]);
    watched(h, 'c1');
    expect(ids((await h.page(C1, ALL, 10, 0))!.rows)).toEqual(['b', 'a']);
    expect(ids((await h.rowsAfter(C1, undefined, 10))!)).toEqual(['b', 'a']);
    expect(await h.lastRecorded(C1)).toBe(T0);
  });

  it('a category turned back on is recorded again from the cache', async () => {
    const h = open();
    flags.resourceEventsEnabled = false;
    watched(h, 'c1');
    expect((await h.page(C1, ALL, 10, 0))!.total).toBe(0);
    flags.resourceEventsEnabled = true;
    h.monitoringChanged('c1');
    expect((await h.page(C1, ALL, 10, 0))!.total).toBe(2);
  });

  it("'all' starts every cluster's event watch, the other modes none", async () => {
    const acquired: string[] = [];
    const cluster = (id: string, fails = false) =>
      ({
        events: () => ({
          acquire: () => {
            acquired.push(id);
            return fails ? Promise.reject(new Error('down')) : Promise.resolve();
          },
        }),
      }) as unknown as ClusterConnection;
    open().startAll([cluster('viewed')]);
    await history!.close();
    open({ record: 'all' }).startAll([cluster('x', true), cluster('y')]);
    expect(acquired).toEqual(['x', 'y']);
  });
});

describe('pages and totals', () => {
  it('a page past the total is empty, with the total of every matching row', async () => {
    const h = open();
    watched(h, 'c1', [entry('a', T0), entry('w', T0 + 2, { type: 'WARNING' }), entry('b', T0 + 1)]);
    expect(await h.page(C1, ALL, 2, 2)).toEqual({
      rows: [expect.objectContaining({ eventId: 'a' })],
      total: 3,
    });
    expect(await h.page(C1, ALL, 2, 3)).toEqual({ rows: [], total: 3 });
    expect(await h.page(C1, { ...ALL, type: 'WARNING' }, 2, 1)).toEqual({ rows: [], total: 1 });
    expect((await h.groups(C1, ALL, 10, 1))!.total).toBe(2);
    expect(await h.groups(C1, ALL, 10, 2)).toEqual({ groups: [], total: 2 });
  });

  it('totals are counted again once the recorder changed the cluster', async () => {
    const h = open();
    const o = watched(h, 'c1');
    expect((await h.page(C1, ALL, 10, 0))!.total).toBe(2);
    o.upserted(entry('c', T0 + 2));
    expect((await h.page(C1, ALL, 10, 0))!.total).toBe(3);
    o.upserted(entry('d', T0 + 3, { reason: 'Other' }));
    expect((await h.groups(C1, ALL, 10, 0))!.total).toBe(2);
  });

  it('at most 64 totals are remembered, the oldest forgotten first', async () => {
    const h = open();
    watched(h, 'c1');
    const f = (i: number): EventFilter => ({ ...ALL, sinceMs: i });
    expect((await h.page(C1, f(0), 10, 0))!.total).toBe(2);
    // Written behind the recorder's back: a remembered total does not see it.
    await s.put('c1', [entry('unseen', T0 + 5)]);
    for (let i = 1; i < 64; i++) await h.page(C1, f(i), 10, 0);
    expect((await h.page(C1, f(0), 10, 0))!.total).toBe(2);
    await h.page(C1, f(64), 10, 0);
    expect((await h.page(C1, f(0), 10, 0))!.total).toBe(3);
  });
});

describe('the timeline', () => {
  it('runs from since to until, counting by type the events between them and none outside', async () => {
    const h = open();
    watched(h, 'c1', [
      entry('until', T0 + 60 * SEC),
      entry('before', T0 - MIN),
      entry('first', T0 + SEC),
      entry('middle', T0 + 30 * SEC + 1, { type: 'WARNING' }),
      entry('after', T0 + 2 * MIN),
    ]);
    const t = (await h.timeline(C1, { ...ALL, sinceMs: T0, untilMs: T0 + 60 * SEC }, T0 + 5 * MIN, 60))!;
    expect([t.from, t.until, t.bucketMs, t.buckets.length]).toEqual([
      new Date(T0).toISOString(),
      new Date(T0 + 60 * SEC).toISOString(),
      SEC,
      60,
    ]);
    const counted = t.buckets.flatMap((b, i) => (b.normal || b.warning ? [[i, b.normal, b.warning]] : []));
    expect(counted).toEqual([
      [1, 1, 0],
      [30, 0, 1],
      [59, 1, 0],
    ]);
  });

  it('runs from the oldest matching event to now without bounds, and is one empty bucket when none match', async () => {
    const h = open();
    watched(h, 'c1', [entry('b', T0 + 2 * SEC), entry('a', T0)]);
    const t = (await h.timeline(C1, ALL, T0 + 4 * SEC, 60))!;
    expect(t.buckets.map((b) => b.normal)).toEqual([1, 0, 1, 0]);
    const none = (await h.timeline(C1, { ...ALL, reason: 'Nothing' }, T0 + 4 * SEC, 60))!;
    expect(none).toEqual({
      from: new Date(T0 + 4 * SEC).toISOString(),
      until: new Date(T0 + 4 * SEC).toISOString(),
      bucketMs: SEC,
      buckets: [{ start: new Date(T0 + 4 * SEC).toISOString(), normal: 0, warning: 0 }],
    });
  });
});

describe('snapshots', () => {
  it("a snapshot's cluster is read from its own store, and answers includeExpired as recorded clusters do", async () => {
    const frozen = await openStore();
    const h = open({});
    const snap = { clusterId: 'snap', frozen: { history: () => Promise.resolve(frozen.store) } };
    try {
      await frozen.put('snap', [entry('frozen', T0)]);
      expect([h.answers(snap), h.answers(C1), h.recording]).toEqual([true, true, true]);
      watched(h, 'c1');
      expect(ids((await h.page(snap, ALL, 10, 0))!.rows)).toEqual(['frozen']);
      expect(ids((await h.page(C1, ALL, 10, 0))!.rows)).toEqual(['b', 'a']);
    } finally {
      await frozen.close();
    }
  });

  it("with recording off, a snapshot's history still answers and other clusters find none", async () => {
    const frozen = await openStore();
    const h = open({ record: 'off' });
    const snap = { clusterId: 'snap', frozen: { history: () => Promise.resolve(frozen.store) } };
    try {
      await frozen.put('snap', [entry('frozen', T0)]);
      expect([h.recording, h.answers(snap), h.answers(C1)]).toEqual([false, true, false]);
      expect(ids((await h.page(snap, ALL, 10, 0))!.rows)).toEqual(['frozen']);
      expect(await h.page(C1, ALL, 10, 0)).toBeUndefined();
    } finally {
      await frozen.close();
    }
  });
});
