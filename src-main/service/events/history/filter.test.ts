/**
 * The history's filters: which rows of the table a filter selects (whereOf, read through a real
 * store), the memo key of a filter, and the X-Expired-Rows ranges.
 */
import { describe, expect, it } from 'vitest';
import type { EventFilter } from '../filter';
import { filterKey, formatRanges } from './filter';
import { ALL, eachBackend, entry, ids, MIN, storePerTest, T0 } from './history.test-support';

eachBackend((kind) => {
  const s = storePerTest(kind);

  /** Every matching row's event id, sorted (the order is the store's test). */
  const matching = async (f: EventFilter, clusterId = 'c1') =>
    ids(await s.store.page(clusterId, f, 100, 0)).sort();

  describe('which rows a filter selects', () => {
    it('an empty filter with both categories selects every row of the cluster and none of another', async () => {
      await s.put('c1', [
        entry('b', T0 + 2),
        entry('sys', T0 + 1, { namespace: '', kind: 'Node' }),
        entry('a', T0),
      ]);
      await s.put('c2', [entry('other', T0)]);
      expect(await matching(ALL)).toEqual(['a', 'b', 'sys']);
      expect(await s.store.count('c1', ALL)).toBe(3);
    });

    it('resource events only selects the events about namespaced objects', async () => {
      await s.put('c1', [entry('sys', T0, { namespace: '', kind: 'Node' }), entry('res', T0 + 1)]);
      expect(await matching({ resourceEvents: true, systemEvents: false })).toEqual(['res']);
    });

    it('system events only selects the events about cluster-scoped objects', async () => {
      await s.put('c1', [entry('res', T0), entry('sys', T0 + 1, { namespace: '', kind: 'Node' })]);
      expect(await matching({ resourceEvents: false, systemEvents: true })).toEqual(['sys']);
    });

    it('neither category selects nothing', async () => {
      await s.put('c1', [entry('res', T0), entry('sys', T0 + 1, { namespace: '', kind: 'Node' })]);
      expect(await matching({ resourceEvents: false, systemEvents: false })).toEqual([]);
      expect(await s.store.count('c1', { resourceEvents: false, systemEvents: false })).toBe(0);
    });

    it('since and until bound lastTimestamp, both inclusive', async () => {
      await s.put('c1', [
        entry('after-until', T0 + 10 * MIN + 1),
        entry('at-since', T0),
        entry('before-since', T0 - 1),
        entry('at-until', T0 + 10 * MIN),
        entry('between', T0 + 5 * MIN),
      ]);
      expect(await matching({ ...ALL, sinceMs: T0 })).toEqual([
        'after-until',
        'at-since',
        'at-until',
        'between',
      ]);
      expect(await matching({ ...ALL, untilMs: T0 + 10 * MIN })).toEqual([
        'at-since',
        'at-until',
        'before-since',
        'between',
      ]);
      expect(await matching({ ...ALL, sinceMs: T0, untilMs: T0 + 10 * MIN })).toEqual([
        'at-since',
        'at-until',
        'between',
      ]);
      expect(await matching({ ...ALL, sinceMs: T0 + 5 * MIN, untilMs: T0 + 5 * MIN })).toEqual(['between']);
    });

    it('type, reason, namespace and name each select the rows with that exact value', async () => {
      await s.put('c1', [
        entry('warning', T0, { type: 'WARNING' }),
        entry('killing', T0 + 1, { reason: 'Killing' }),
        entry('ops', T0 + 2, { namespace: 'ops' }),
        entry('db', T0 + 3, { name: 'db' }),
        entry('plain', T0 + 4),
      ]);
      expect(await matching({ ...ALL, type: 'WARNING' })).toEqual(['warning']);
      expect(await matching({ ...ALL, type: 'NORMAL' })).toEqual(['db', 'killing', 'ops', 'plain']);
      expect(await matching({ ...ALL, reason: 'Killing' })).toEqual(['killing']);
      expect(await matching({ ...ALL, namespace: 'ops' })).toEqual(['ops']);
      expect(await matching({ ...ALL, name: 'db' })).toEqual(['db']);
      expect(await matching({ ...ALL, name: 'we' })).toEqual([]);
    });

    it('kind selects by the lower-cased kind', async () => {
      await s.put('c1', [
        entry('deploy', T0, { kind: 'Deployment' }),
        entry('pod', T0 + 1),
        entry('node', T0 + 2, { namespace: '', kind: 'Node' }),
      ]);
      expect(await matching({ ...ALL, kind: 'deployment' })).toEqual(['deploy']);
      expect(await matching({ ...ALL, kind: 'Deployment' })).toEqual([]);
    });

    it('every filter given must hold at once', async () => {
      await s.put('c1', [
        entry('match', T0 + 2, { type: 'WARNING', reason: 'BackOff', name: 'db' }),
        entry('other-reason', T0 + 1, { type: 'WARNING', name: 'db' }),
        entry('other-type', T0 + 3, { reason: 'BackOff', name: 'db' }),
        entry('too-old', T0 - 1, { type: 'WARNING', reason: 'BackOff', name: 'db' }),
        entry('other-ns', T0 + 4, { type: 'WARNING', reason: 'BackOff', name: 'db', namespace: 'ops' }),
      ]);
      const f = {
        ...ALL,
        type: 'WARNING',
        reason: 'BackOff',
        name: 'db',
        namespace: 'shop',
        kind: 'pod',
        sinceMs: T0,
      } as const;
      expect(await matching(f)).toEqual(['match']);
      expect(await matching({ ...f, resourceEvents: false })).toEqual([]);
    });
  });

  describe('memo keys of filters', () => {
    const base: EventFilter = { resourceEvents: true, systemEvents: true };

    it('equal filters have equal keys, whatever order their fields were set in', async () => {
      const a: EventFilter = {
        type: 'WARNING',
        reason: 'x',
        sinceMs: 5,
        resourceEvents: true,
        systemEvents: false,
      };
      const b: EventFilter = {
        systemEvents: false,
        resourceEvents: true,
        sinceMs: 5,
        reason: 'x',
        type: 'WARNING',
      };
      expect(filterKey(a)).toBe(filterKey(b));
      expect(filterKey({ ...base, name: undefined })).toBe(filterKey(base));
    });

    it('filters that differ in any one field have different keys', async () => {
      const variants: EventFilter[] = [
        base,
        { ...base, type: 'WARNING' },
        { ...base, type: 'NORMAL' },
        { ...base, reason: 'x' },
        { ...base, reason: 'y' },
        { ...base, namespace: 'x' },
        { ...base, kind: 'x' },
        { ...base, name: 'x' },
        { ...base, sinceMs: 5 },
        { ...base, sinceMs: 6 },
        { ...base, untilMs: 5 },
        { ...base, untilMs: 0 },
        { ...base, resourceEvents: false },
        { ...base, systemEvents: false },
        { resourceEvents: false, systemEvents: false },
      ];
      expect(new Set(variants.map(filterKey)).size).toBe(variants.length);
    });
  });

  describe('expired rows as ranges of positions', () => {
    it('no positions make an empty text', async () => {
      expect(formatRanges([])).toBe('');
    });

    it('a position alone is written as itself', async () => {
      expect(formatRanges([0])).toBe('0');
      expect(formatRanges([7])).toBe('7');
      expect(formatRanges([0, 2, 4])).toBe('0,2,4');
    });

    it('consecutive positions are written as first-last', async () => {
      expect(formatRanges([3, 4])).toBe('3-4');
      expect(formatRanges([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])).toBe('0-9');
    });

    it('runs and single positions are joined by commas in order', async () => {
      expect(formatRanges([0, 1, 2, 5])).toBe('0-2,5');
      expect(formatRanges([1, 3, 4, 5, 9, 10])).toBe('1,3-5,9-10');
    });
  });
});
