/**
 * The aggregate reads of the event_history table on a real database: the span and the time
 * buckets of the timeline, and the groups of the grouped list.
 */
import { describe, expect, it } from 'vitest';
import { liveGroups, toEventGroup } from './aggregate';
import { ALL, DAY, eachBackend, entry, iso, MIN, storePerTest, T0, webGroup } from './history.test-support';

eachBackend((kind) => {
  const s = storePerTest(kind);

  describe('span and buckets', () => {
    it('the span is the oldest and newest lastTimestamp of the matching rows', async () => {
      await s.put('c1', [
        entry('mid', T0),
        entry('newest-warning', T0 + 9 * MIN, { type: 'WARNING' }),
        entry('oldest', T0 - 3 * MIN),
        entry('newest', T0 + 4 * MIN),
      ]);
      await s.put('c2', [entry('elsewhere', T0 + DAY)]);
      expect(await s.store.span('c1', ALL)).toEqual({ oldest: T0 - 3 * MIN, newest: T0 + 9 * MIN });
      expect(await s.store.span('c1', { ...ALL, type: 'NORMAL' })).toEqual({
        oldest: T0 - 3 * MIN,
        newest: T0 + 4 * MIN,
      });
      expect(await s.store.span('c1', { ...ALL, reason: 'Killing' })).toBeUndefined();
      expect(await s.store.span('c3', ALL)).toBeUndefined();
    });

    it('buckets count the matching rows per bucket from `from` and per type, a bucket holding its start', async () => {
      await s.put('c1', [
        entry('b1-warning', T0 + MIN, { type: 'WARNING' }),
        entry('b0-end', T0 + MIN - 1),
        entry('b3', T0 + 3 * MIN + 1),
        entry('b0-start', T0),
        entry('b1-normal', T0 + MIN),
        entry('b1-warning-2', T0 + 2 * MIN - 1, { type: 'WARNING' }),
        entry('system', T0, { namespace: '', kind: 'Node' }),
      ]);
      const buckets = async (f = ALL) =>
        (await s.store.buckets('c1', f, T0, MIN))
          .map((b) => [b.bucket, b.type, b.n])
          .sort((a, b) => String(a).localeCompare(String(b)));
      expect(await buckets()).toEqual([
        [0, 'NORMAL', 3],
        [1, 'NORMAL', 1],
        [1, 'WARNING', 2],
        [3, 'NORMAL', 1],
      ]);
      expect(await buckets({ resourceEvents: true, systemEvents: false, sinceMs: T0 + MIN })).toEqual([
        [1, 'NORMAL', 1],
        [1, 'WARNING', 2],
        [3, 'NORMAL', 1],
      ]);
    });
  });

  /**
   * Five groups, inserted scrambled: one newest (a Node's), then four tied on their latest event,
   * ordered by kind, namespace, name, uid, reason and type.
   */
  async function putGroups() {
    const web = { firstTimestamp: iso(T0 - DAY) };
    await s.put('c1', [
      entry('web-c', T0 + 3 * MIN, { firstTimestamp: iso(T0 - 2 * DAY), message: 'third' }),
      entry('warn-d', T0 + 5 * MIN, { type: 'WARNING', count: 4 }),
      entry('node-e', T0 + 10 * MIN, { namespace: '', kind: 'Node', name: 'n1', resourceId: 'uid-n1' }),
      entry('web-b', T0 + 5 * MIN, { ...web, count: 3, message: 'latest' }),
      entry('db-f', T0 + 5 * MIN, { name: 'db', resourceId: 'uid-db' }),
      entry('deploy-g', T0 + 5 * MIN, { kind: 'Deployment' }),
      entry('web-a', T0 + MIN, { ...web, count: 2, message: 'first' }),
    ]);
  }

  describe('groups', () => {
    it('a group is the events of one object, reason and type: counts summed, its earliest start, its latest message', async () => {
      await putGroups();
      await s.put('c2', [entry('web-z', T0 + DAY)]);
      expect(await s.store.groupCount('c1', ALL)).toBe(5);
      const web = (await s.store.groupPage('c1', ALL, 10, 0)).find(
        (g) => g.name === 'web' && g.kind === 'Pod' && g.type === 'NORMAL',
      );
      expect(web).toEqual(
        webGroup({ count: 6, events: 3, firstMs: T0 - 2 * DAY, lastMs: T0 + 5 * MIN, message: 'latest' }),
      );
    });

    it('groups come newest first, then by kind, namespace, name, uid, reason and type, a page at a time', async () => {
      await putGroups();
      const key = (g: { kind: string; name: string; type: string }) => `${g.kind}/${g.name}/${g.type}`;
      const order = [
        'Node/n1/NORMAL',
        'Deployment/web/NORMAL',
        'Pod/db/NORMAL',
        'Pod/web/NORMAL',
        'Pod/web/WARNING',
      ];
      expect((await s.store.groupPage('c1', ALL, 10, 0)).map(key)).toEqual(order);
      expect((await s.store.groupPage('c1', ALL, 2, 2)).map(key)).toEqual(order.slice(2, 4));
      expect((await s.store.groupPage('c1', ALL, 2, 4)).map(key)).toEqual(order.slice(4));
    });

    it('a filter keeps a group to its matching events, for its counts, start, end and message', async () => {
      await putGroups();
      const f = { ...ALL, name: 'web', type: 'NORMAL', kind: 'pod', untilMs: T0 + 3 * MIN } as const;
      expect(await s.store.groupCount('c1', f)).toBe(1);
      expect(await s.store.groupPage('c1', f, 10, 0)).toEqual([
        expect.objectContaining({
          count: 3,
          events: 2,
          firstMs: T0 - 2 * DAY,
          lastMs: T0 + 3 * MIN,
          lastTimestamp: iso(T0 + 3 * MIN),
          message: 'third',
        }),
      ]);
      // The earliest start of the group (web-c's) is outside this one.
      const later = { ...f, untilMs: undefined, sinceMs: T0 + 4 * MIN };
      expect(await s.store.groupPage('c1', later, 10, 0)).toEqual([
        expect.objectContaining({ count: 3, events: 1, firstMs: T0 - DAY, firstTimestamp: iso(T0 - DAY) }),
      ]);
      expect(await s.store.groupCount('c1', { ...ALL, resourceEvents: false })).toBe(1);
    });

    it('the groups of the recorded rows are the groups the live list makes of the same rows', async () => {
      await putGroups();
      const rows = await s.store.page('c1', ALL, 100, 0);
      expect((await s.store.groupPage('c1', ALL, 100, 0)).map(toEventGroup)).toEqual(
        liveGroups(rows).map(toEventGroup),
      );
    });
  });
});
