/**
 * The event_history table on a real database: what it keeps of each event, the order of its
 * pages, expiry and the keyset walk, what the writes change, and what pruning removes.
 * The aggregate reads (span, buckets, groups) are in store-aggregates.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryRow } from './filter';
import { ALL, DAY, eachBackend, entry, ids, iso, MIN, storePerTest, T0 } from './history.test-support';
import { insertSnapshotRows } from './store';

eachBackend((kind) => {
  const s = storePerTest(kind);

  describe('pages', () => {
    it('list live and expired rows together, newest lastTimestamp first and by event id on a tie', async () => {
      await s.put('c1', [
        entry('m', T0),
        entry('z', T0 + MIN),
        entry('b', T0 - MIN),
        entry('a', T0 + MIN),
        entry('k', T0),
      ]);
      await s.expire('c1', ['k', 'z'], T0 + 5 * MIN);
      const rows = await s.store.page('c1', ALL, 10, 0);
      expect(ids(rows)).toEqual(['a', 'z', 'k', 'm', 'b']);
      expect(rows.map((r) => r.expiredAt)).toEqual([
        undefined,
        T0 + 5 * MIN,
        T0 + 5 * MIN,
        undefined,
        undefined,
      ]);
    });

    it('hold limit rows from offset, and nothing past the end', async () => {
      await s.put(
        'c1',
        [3, 0, 4, 1, 2].map((i) => entry(`e${i}`, T0 - i * MIN)),
      );
      expect(ids(await s.store.page('c1', ALL, 2, 0))).toEqual(['e0', 'e1']);
      expect(ids(await s.store.page('c1', ALL, 2, 2))).toEqual(['e2', 'e3']);
      expect(ids(await s.store.page('c1', ALL, 2, 4))).toEqual(['e4']);
      expect(await s.store.page('c1', ALL, 2, 5)).toEqual([]);
    });

    it('read back every field of a recorded event, its category from its namespace and its cluster', async () => {
      const pod = entry('pod-1', T0, {
        type: 'WARNING',
        reason: 'BackOff',
        kind: 'StatefulSet',
        kindKey: 'statefulset',
        name: 'db',
        resourceId: 'uid-db',
        firstTimestamp: iso(T0 - DAY),
        count: 7,
        message: 'restarting',
        component: 'controller',
        host: 'node-9',
      });
      const node = entry('node-1', T0 - MIN, { namespace: '', kind: 'Node', name: 'n1' });
      await s.put('c7', [node, pod]);
      const expected = (e: typeof pod, firstMs: number): HistoryRow => ({
        ...e,
        key: e.eventId,
        clusterId: 'c7',
        firstMs,
        expiredAt: undefined,
      });
      expect(await s.store.page('c7', ALL, 10, 0)).toStrictEqual([
        expected(pod, T0 - DAY),
        expected(node, T0 - MIN),
      ]);
      expect((await s.store.page('c7', ALL, 10, 0)).map((r) => r.category)).toEqual(['resource', 'system']);
    });

    it('start an event at its firstTimestamp, or at its lastTimestamp when the two agree or the first is unreadable', async () => {
      await s.put('c1', [
        entry('same', T0),
        entry('earlier', T0 + 1, { firstTimestamp: iso(T0 - 2 * DAY) }),
        entry('unreadable', T0 + 2, { firstTimestamp: 'not a time' }),
      ]);
      const firstMs = Object.fromEntries(
        (await s.store.page('c1', ALL, 10, 0)).map((r) => [r.eventId, r.firstMs]),
      );
      expect(firstMs).toEqual({ same: T0, earlier: T0 - 2 * DAY, unreadable: T0 + 2 });
    });

    it('count the matching rows of one cluster, live and expired', async () => {
      await s.put('c1', [entry('a', T0), entry('w', T0 + 1, { type: 'WARNING' }), entry('b', T0 + 2)]);
      await s.put('c2', [entry('a', T0)]);
      await s.expire('c1', ['b'], T0);
      expect(await s.store.count('c1', ALL)).toBe(3);
      expect(await s.store.count('c1', { ...ALL, type: 'NORMAL' })).toBe(2);
      expect(await s.store.total('c1')).toBe(3);
      expect(await s.store.total('c2')).toBe(1);
      expect(await s.store.total('c3')).toBe(0);
    });
  });

  describe('writes', () => {
    it('an event written again with changes is rewritten, and one marked expired is live again', async () => {
      await s.put('c1', [entry('a', T0), entry('b', T0)]);
      await s.expire('c1', ['b'], T0 + 1);
      await s.put('c1', [entry('a', T0 + MIN, { count: 2, message: 'again' }), entry('b', T0)], T0 + 2 * MIN);
      const rows = await s.store.page('c1', ALL, 10, 0);
      expect(rows.map((r) => [r.eventId, r.lastMs, r.count, r.message, r.expiredAt])).toEqual([
        ['a', T0 + MIN, 2, 'again', undefined],
        ['b', T0, 1, 'message of b', undefined],
      ]);
      expect((await s.store.presentIds('c1')).sort()).toEqual(['a', 'b']);
    });

    it('the last write time moves with every change written, and not with an event written again unchanged', async () => {
      await s.put('c1', [entry('a', T0), entry('b', T0)], T0 + MIN);
      await s.put('c1', [entry('a', T0)], T0 + 2 * MIN);
      expect(await s.store.lastRecorded('c1')).toBe(T0 + MIN);
      await s.put('c1', [entry('a', T0, { count: 5 })], T0 + 3 * MIN);
      expect(await s.store.lastRecorded('c1')).toBe(T0 + 3 * MIN);
      await s.expire('c1', ['b'], T0 + 4 * MIN);
      expect(await s.store.lastRecorded('c1')).toBe(T0 + 4 * MIN);
      await s.expire('c1', ['b'], T0 + 5 * MIN);
      expect(await s.store.lastRecorded('c1')).toBe(T0 + 4 * MIN);
      await s.put('c1', [entry('b', T0)], T0 + 6 * MIN);
      expect(await s.store.lastRecorded('c1')).toBe(T0 + 6 * MIN);
    });

    it('the last write time is per cluster, and none for a cluster never recorded', async () => {
      await s.put('c1', [entry('a', T0)], T0 + MIN);
      await s.put('c2', [entry('b', T0)], T0 + 9 * MIN);
      await s.put('c1', [entry('c', T0)], T0 + 4 * MIN);
      expect(await s.store.lastRecorded('c1')).toBe(T0 + 4 * MIN);
      expect(await s.store.lastRecorded('c3')).toBeUndefined();
      expect((await s.store.clusters()).sort()).toEqual(['c1', 'c2']);
    });

    // A snapshot's own in-memory history only: always SQLite.
    it.skipIf(kind !== 'sqlite')(
      'a plain insert keeps the expiry given and skips an event the table holds',
      async () => {
        await s.put('c1', [entry('held', T0)]);
        const db = s.db!;
        db.write('test', () =>
          insertSnapshotRows(
            db,
            'c1',
            [
              { entry: entry('gone', T0 - MIN), expiredAt: T0 + 5 },
              { entry: entry('held', T0 + DAY, { message: 'not this' }), expiredAt: T0 },
              { entry: entry('live', T0 + MIN), expiredAt: null },
            ],
            T0,
          ),
        );
        const rows = await s.store.page('c1', ALL, 10, 0);
        expect(rows.map((r) => [r.eventId, r.lastMs, r.message, r.expiredAt])).toEqual([
          ['live', T0 + MIN, 'message of live', undefined],
          ['held', T0, 'message of held', undefined],
          ['gone', T0 - MIN, 'message of gone', T0 + 5],
        ]);
      },
    );

    it('marking expired touches only the named events of that cluster, and keeps the first expiry', async () => {
      await s.put('c1', [entry('a', T0), entry('b', T0 + 1), entry('c', T0 + 2)]);
      await s.put('c2', [entry('a', T0)]);
      await s.expire('c1', ['a'], T0 + 10);
      await s.expire('c1', ['a', 'b', 'missing'], T0 + 20);
      const expiry = Object.fromEntries(
        (await s.store.page('c1', ALL, 10, 0)).map((r) => [r.eventId, r.expiredAt]),
      );
      expect(expiry).toStrictEqual({ a: T0 + 10, b: T0 + 20, c: undefined });
      expect(await s.store.presentIds('c1')).toEqual(['c']);
      expect(await s.store.presentIds('c2')).toEqual(['a']);
    });
  });

  describe('the keyset walk', () => {
    it('walks every row of the cluster, live and expired, in the list order, batch after batch', async () => {
      const order = ['a', 'z', 'c', 'd', 'y', 'f', 'g'];
      // Ties on lastMs across batch edges: a,z at T0+2; c,d,y at T0+1; f,g at T0.
      const at = [2, 2, 1, 1, 1, 0, 0];
      const scrambled = [4, 0, 6, 2, 5, 1, 3];
      await s.put(
        'c1',
        scrambled.map((i) => entry(order[i]!, T0 + at[i]!)),
      );
      await s.put('c2', [entry('zz', T0 + 1)]);
      await s.expire('c1', ['d', 'g'], T0 + 5);
      const walked: HistoryRow[] = [];
      let batch = await s.store.rowsAfter('c1', undefined, 2);
      expect(ids(batch)).toEqual(['a', 'z']);
      // Bounded: a walk that does not advance must fail, not hang.
      while (batch.length > 0 && walked.length < 20) {
        walked.push(...batch);
        batch = await s.store.rowsAfter('c1', walked.at(-1), 2);
      }
      expect(ids(walked)).toEqual(order);
      expect(walked.filter((r) => r.expiredAt !== undefined).map((r) => r.eventId)).toEqual(['d', 'g']);
      expect(ids(await s.store.rowsAfter('c1', { lastMs: T0 + 1, eventId: 'c' }, 10))).toEqual([
        'd',
        'y',
        'f',
        'g',
      ]);
    });
  });

  describe('pruning', () => {
    it('removes the oldest first, and of rows tied on lastTimestamp the one listed last', async () => {
      await s.put('c1', [entry('q', T0), entry('p', T0 + 1), entry('r', T0)]);
      await s.put('c2', [entry('old', T0 - DAY)]);
      const prune = () => s.prune('c1', { expiredOnly: false, batch: 1 });
      expect(await prune()).toBe(1);
      expect(ids(await s.store.page('c1', ALL, 10, 0))).toEqual(['p', 'q']);
      expect(await prune()).toBe(1);
      expect(ids(await s.store.page('c1', ALL, 10, 0))).toEqual(['p']);
      expect(await s.store.total('c2')).toBe(1);
    });

    it('removes at most a batch, and says how many it removed', async () => {
      await s.put(
        'c1',
        [2, 4, 0, 3, 1].map((i) => entry(`e${i}`, T0 - i * MIN)),
      );
      expect(await s.prune('c1', { expiredOnly: false, batch: 3 })).toBe(3);
      expect(ids(await s.store.page('c1', ALL, 10, 0))).toEqual(['e0', 'e1']);
      expect(await s.prune('c1', { expiredOnly: false, batch: 3 })).toBe(2);
      expect(await s.prune('c1', { expiredOnly: false, batch: 3 })).toBe(0);
    });

    it('by age removes only rows strictly older than the bound', async () => {
      await s.put('c1', [
        entry('at-bound', T0),
        entry('older', T0 - 1),
        entry('newer', T0 + 1),
        entry('oldest', T0 - DAY),
      ]);
      expect(await s.prune('c1', { beforeMs: T0, expiredOnly: false, batch: 10 })).toBe(2);
      expect(ids(await s.store.page('c1', ALL, 10, 0))).toEqual(['newer', 'at-bound']);
    });

    it('expired only keeps every event the cluster still has', async () => {
      await s.put('c1', [
        entry('live-old', T0 - DAY),
        entry('gone-new', T0),
        entry('gone-old', T0 - 2 * DAY),
      ]);
      await s.expire('c1', ['gone-new', 'gone-old'], T0);
      expect(await s.prune('c1', { expiredOnly: true, batch: 1 })).toBe(1);
      expect(ids(await s.store.page('c1', ALL, 10, 0))).toEqual(['gone-new', 'live-old']);
      expect(await s.prune('c1', { expiredOnly: true, beforeMs: T0, batch: 10 })).toBe(0);
      expect(await s.prune('c1', { expiredOnly: true, batch: 10 })).toBe(1);
      expect(ids(await s.store.page('c1', ALL, 10, 0))).toEqual(['live-old']);
    });
  });
});
