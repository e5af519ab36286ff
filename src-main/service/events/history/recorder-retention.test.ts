/**
 * The recorder's retention on a real database: by age (events the watched cluster still has
 * stay) and by the per-cluster cap (expired events only, the oldest first), when it runs, and
 * what it tells the readers.
 */
import { describe, expect, it } from 'vitest';
import type { EventEntry } from '../entries';
import {
  ALL,
  becomes,
  DAY,
  entry,
  ids,
  MIN,
  type RecorderRig,
  recorderPerTest,
  T0,
} from './history.test-support';
import type { EventHistoryOptions } from './options';
import { insertSnapshotRows } from './store';

const rigs = recorderPerTest();
const { s } = rigs;

const NOW = T0 + 30 * DAY;
const start = (options: EventHistoryOptions) => {
  const rig = rigs.start(options);
  rig.clock.now = NOW;
  return rig;
};
const rows = async (clusterId = 'c1') => ids(await s.store.page(clusterId, ALL, 100, 0));

/** Recorded earlier: `live` still present, `gone` expired. */
async function recorded(clusterId: string, live: readonly EventEntry[], gone: readonly EventEntry[]) {
  await s.put(clusterId, [...gone, ...live]);
  await s.expire(
    clusterId,
    gone.map((e) => e.eventId),
    NOW - 10 * DAY,
  );
}

/** A cluster whose event cache runs and has listed `live`. */
async function watched(r: RecorderRig, clusterId: string, live: readonly EventEntry[]) {
  const o = r.recorder.observer(clusterId, () => live);
  for (const e of live) o.upserted(e);
  o.listed(live);
  await r.recorder.flush();
  return o;
}

describe('retention by age', () => {
  it('removes the expired events older than the retention, and keeps every event the watched cluster has', async () => {
    const r = start({ retentionMs: DAY });
    await recorded(
      'c1',
      [entry('old-live', NOW - 2 * DAY)],
      [
        entry('young-gone', NOW - MIN),
        entry('old-gone', NOW - 2 * DAY),
        entry('at-bound-gone', NOW - DAY),
        entry('older-gone', NOW - 3 * DAY),
      ],
    );
    await watched(r, 'c1', [entry('old-live', NOW - 2 * DAY)]);
    await r.recorder.prune();
    expect(await rows()).toEqual(['young-gone', 'at-bound-gone', 'old-live']);
  });

  it('removes the old events of a cluster not watched now, expired or not', async () => {
    const r = start({ retentionMs: DAY });
    const old = entry('old-live', NOW - 2 * DAY);
    await recorded(
      'never-watched',
      [old, entry('young-live', NOW - MIN)],
      [entry('old-gone', NOW - 3 * DAY)],
    );
    await recorded('stopped', [old], []);
    const o = await watched(r, 'stopped', [old]);
    o.stopped();
    await r.recorder.prune();
    expect(await rows('never-watched')).toEqual(['young-live']);
    expect(await rows('stopped')).toEqual([]);
  });
});

describe('the per-cluster cap', () => {
  it('removes the oldest expired events until the cluster is back at the maximum', async () => {
    const r = start({ retentionMs: 100 * DAY, maxPerCluster: 3 });
    const live = [entry('live-old', NOW - 9 * DAY), entry('live-new', NOW)];
    await recorded('c1', live, [
      entry('gone-2', NOW - 2 * DAY),
      entry('gone-4', NOW - 4 * DAY),
      entry('gone-1', NOW - 1 * DAY),
      entry('gone-3', NOW - 3 * DAY),
    ]);
    await recorded('c2', [], [entry('c2-gone-1', NOW - 20 * DAY), entry('c2-gone-2', NOW - 21 * DAY)]);
    await watched(r, 'c1', live);
    await r.recorder.prune();
    expect(await rows()).toEqual(['live-new', 'gone-1', 'live-old']);
    expect(await rows('c2')).toEqual(['c2-gone-1', 'c2-gone-2']);
  });

  it('never removes an event the cluster has, even above the maximum', async () => {
    const r = start({ retentionMs: 100 * DAY, maxPerCluster: 1 });
    const live = [entry('b', NOW - 2 * DAY), entry('a', NOW - DAY)];
    await recorded('c1', live, [entry('gone', NOW)]);
    await watched(r, 'c1', live);
    await r.recorder.prune();
    expect(await rows()).toEqual(['a', 'b']);
  });

  it('removes nothing from a cluster exactly at the maximum', async () => {
    const r = start({ retentionMs: 100 * DAY, maxPerCluster: 3 });
    await recorded('c1', [], [entry('a', NOW - DAY), entry('c', NOW - 3 * DAY), entry('b', NOW - 2 * DAY)]);
    await r.recorder.prune();
    expect(await rows()).toEqual(['a', 'b', 'c']);
  });
});

describe('batches', () => {
  it('retention goes on batch after batch until every prunable row is gone', async () => {
    const r = start({ retentionMs: DAY, maxPerCluster: 100 });
    const gone = (prefix: string, n: number, ageMs: number) =>
      Array.from({ length: n }, (_, i) => ({
        entry: entry(`${prefix}${i}`, NOW - ageMs - i),
        expiredAt: NOW,
      }));
    const db = s.db!;
    db.write('test', () => {
      insertSnapshotRows(db, 'by-age', gone('old', 2_500, 2 * DAY), NOW);
      insertSnapshotRows(db, 'by-cap', gone('young', 2_600, MIN), NOW);
    });
    await r.recorder.prune();
    expect(await s.store.total('by-age')).toBe(0);
    expect(await s.store.total('by-cap')).toBe(100);
    // The newest hundred stay.
    expect((await s.store.page('by-cap', ALL, 1, 99))[0]!.eventId).toBe('young99');
  });
});

describe('when retention runs', () => {
  it('a retention that removed something changes the version of the cluster, one that did not leaves it', async () => {
    const r = start({ retentionMs: DAY });
    await recorded('c1', [], [entry('young', NOW - MIN)]);
    await recorded('c2', [], [entry('old', NOW - 2 * DAY)]);
    await r.recorder.prune();
    expect([r.recorder.version('c1'), r.recorder.version('c2')]).toEqual([0, 1]);
    expect(await rows('c2')).toEqual([]);
  });

  it('runs on its own every pruneEveryMs', async () => {
    start({ retentionMs: DAY, pruneEveryMs: 20 });
    await recorded('c1', [], [entry('old', NOW - 2 * DAY), entry('young', NOW - MIN)]);
    expect(await becomes(async () => (await rows()).length === 1)).toBe(true);
    expect(await rows()).toEqual(['young']);
  });

  it('runs after a flush that wrote 10,000 rows', async () => {
    const r = start({ retentionMs: DAY });
    await recorded('c1', [], [entry('old', NOW - 2 * DAY)]);
    const live = Array.from({ length: 10_000 }, (_, i) => entry(`e${i}`, NOW - i));
    await watched(r, 'c1', live);
    // The retention the flush started runs before this flush.
    await r.recorder.flush();
    expect(await s.store.total('c1')).toBe(10_000);
    expect(await s.store.presentIds('c1')).toHaveLength(10_000);
  });
});
