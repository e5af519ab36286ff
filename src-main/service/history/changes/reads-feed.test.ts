/**
 * The cluster-wide feed of changes on a real database (both backends): its filters (namespace,
 * kind, since and until, a snapshot's takenAt, `--authorize rbac`'s kinds and namespaces), its order
 * and items, totals remembered per version, and deep pages read by keyset: every page equals the
 * list's slice however it is reached, and a deep one skips only the rows between it and the
 * nearest known point (seen in the `$offset` the read binds; the database answers as always).
 */
import { describe, expect, it } from 'vitest';
import { eachBackend } from '../../events/history/history.test-support';
import type { Params, StorageBackend } from '../../storage/backend';
import type { RecordedSource } from '../source';
import { type FixtureRow, insertRows, MIN, readsPerTest, T0 } from './reads.test-support';
import { ChangeFeedReads, type FeedFilter, feedKey, matchesFeed } from './reads-feed';
import type { StoredChange } from './reads-rows';

const NAMESPACES = ['shop', 'kube-system', 'web'];
const TYPES = [
  ['deployment', 'Deployment'],
  ['configmap', 'ConfigMap'],
  ['node', 'Node'],
] as const;

/** 0..n-1 in a scrambled but fixed order. */
const scrambled = (n: number) => Array.from({ length: n }, (_, i) => (i * 7919) % n);

/** Row i: two share each minute (ties settled by id), kinds and namespaces in turn, every 7th a baseline. */
function row(i: number): FixtureRow {
  const [resourceType, kind] = TYPES[i % 3]!;
  return {
    timeMs: T0 + Math.floor(i / 2) * MIN,
    resourceType,
    kind,
    namespace: resourceType === 'node' ? '' : NAMESPACES[i % 2]!,
    name: `o${i}`,
    uid: `u${i}`,
    change: i % 7 === 0 ? 'seen' : 'updated',
    resourceVersion: String(i),
    summary: `s${i}`,
  };
}

/** The feed's source over `backend`, and the rows its page reads skipped. */
function watched(backend: StorageBackend): { source: RecordedSource; skips: number[] } {
  const skips: number[] = [];
  const spy = Object.create(backend) as StorageBackend;
  spy.all = <T>(sql: string, params?: Params) => {
    if (params && typeof params.offset === 'number') skips.push(params.offset);
    return backend.all<T>(sql, params);
  };
  return { source: { db: spy, clusterId: 'c1', frozen: false }, skips };
}

eachBackend((kind) => {
  const rig = readsPerTest(kind);
  const N = 90;
  /** The rows in scrambled order, plus another cluster's; answers the listed rows' versions newest first. */
  async function seed(keep: (r: FixtureRow) => boolean = () => true): Promise<string[]> {
    const rows = scrambled(N).map(row);
    const ids = await insertRows(rig.backend, [...rows, { ...row(5), cluster: 'c2' }]);
    return rows
      .map((r, i) => ({ r, id: ids[i]! }))
      .filter(({ r }) => r.change !== 'seen' && keep(r))
      .sort((a, b) => b.r.timeMs - a.r.timeMs || b.id - a.id)
      .map(({ r }) => r.resourceVersion);
  }
  const versions = (items: ReadonlyArray<{ resourceVersion: string }>) => items.map((i) => i.resourceVersion);
  const all = async (f: FeedFilter, source = rig.source()) =>
    versions((await new ChangeFeedReads().page(source, f, 1000, 0, undefined)).items);

  describe('the changes feed', () => {
    it('lists the cluster’s changes newest first, by id within an instant, without baselines', async () => {
      await seed();
      const got = await all({});
      expect(got).toHaveLength(N - Math.ceil(N / 7));
      // Two rows share each minute: the later-inserted first. Rebuild the expected order from the ids.
      const reads = new ChangeFeedReads();
      const { items, total } = await reads.page(rig.source(), {}, 1000, 0, undefined);
      expect(total).toBe(got.length);
      const keys = items.map((i) => [Date.parse(i.time), Number(i.id)] as const);
      for (let i = 1; i < keys.length; i++) {
        const [t0, id0] = keys[i - 1]!;
        const [t1, id1] = keys[i]!;
        expect(t0 > t1 || (t0 === t1 && id0 > id1)).toBe(true);
      }
    });

    it('answers each item with its id, ref and change', async () => {
      const [id] = await insertRows(rig.backend, [
        {
          timeMs: T0,
          resourceType: 'deployment',
          kind: 'Deployment',
          namespace: 'shop',
          name: 'checkout',
          uid: 'uid-9',
          change: 'updated',
          resourceVersion: '42',
          patch: [{ op: 'replace', path: '/spec/replicas', value: 5 }],
          summary: 'replicas 3 → 5',
        },
        {
          timeMs: T0 + MIN,
          resourceType: 'node',
          kind: 'Node',
          namespace: '',
          name: 'n1',
          change: 'deleted',
          resourceVersion: '7',
        },
      ]);
      const { items } = await new ChangeFeedReads().page(rig.source(), {}, 10, 0, undefined);
      expect(items[1]).toEqual({
        id: String(id),
        ref: {
          kind: 'Deployment',
          resourceType: 'deployment',
          namespace: 'shop',
          name: 'checkout',
          uid: 'uid-9',
        },
        time: '2026-01-31T02:00:00.000Z',
        change: 'updated',
        resourceVersion: '42',
        patch: [{ op: 'replace', path: '/spec/replicas', value: 5 }],
        summary: 'replicas 3 → 5',
      });
      expect(items[0]?.ref).toEqual({ kind: 'Node', resourceType: 'node', name: 'n1', uid: 'uid-1' });
    });

    it('keeps to namespace, kind, since and until, together', async () => {
      const shop = await seed((r) => r.namespace === 'shop');
      expect(await all({ namespace: 'shop' })).toEqual(shop);
      const config = (await all({ resourceType: 'configmap' })).length;
      expect(config).toBe(
        scrambled(N)
          .map(row)
          .filter((r) => r.resourceType === 'configmap' && r.change !== 'seen').length,
      );
      const both = await all({ namespace: 'shop', resourceType: 'configmap' });
      expect(
        both.every((v) => row(Number(v)).namespace === 'shop' && row(Number(v)).resourceType === 'configmap'),
      ).toBe(true);
      const within = await all({ sinceMs: T0 + 10 * MIN, untilMs: T0 + 20 * MIN });
      expect(
        within.map((v) => row(Number(v)).timeMs).every((t) => t >= T0 + 10 * MIN && t <= T0 + 20 * MIN),
      ).toBe(true);
      expect(within).toHaveLength(
        scrambled(N)
          .map(row)
          .filter((r) => r.change !== 'seen' && r.timeMs >= T0 + 10 * MIN && r.timeMs <= T0 + 20 * MIN)
          .length,
      );
      expect(await all({}, rig.source('c2'))).toEqual(['5']);
    });

    it('answers nothing after a snapshot’s takenAt', async () => {
      await seed();
      const got = await all({ untilMs: T0 + 100 * MIN }, rig.source('c1', T0 + 3 * MIN));
      expect(got.map((v) => row(Number(v)).timeMs).every((t) => t <= T0 + 3 * MIN)).toBe(true);
      expect(got.length).toBeGreaterThan(0);
    });

    it('keeps to the kinds and namespaces a caller may list (rbac)', async () => {
      await seed();
      const allowed = new Map<string, readonly string[] | 'all'>([
        ['deployment', ['shop']],
        ['node', 'all'],
        ['configmap', []],
      ]);
      const got = await all({ allowed });
      const kinds = new Set(got.map((v) => row(Number(v)).resourceType));
      expect([...kinds].sort()).toEqual(['deployment', 'node']);
      const two = await all({ allowed: new Map([['deployment', ['kube-system', 'shop']]]) });
      expect(new Set(two.map((v) => row(Number(v)).namespace))).toEqual(new Set(['kube-system', 'shop']));
      for (const v of got) {
        const r = row(Number(v));
        expect(r.resourceType === 'node' || (r.resourceType === 'deployment' && r.namespace === 'shop')).toBe(
          true,
        );
      }
      expect(await all({ allowed: new Map() })).toEqual([]);
      expect(await all({ allowed: new Map([['configmap', []]]) })).toEqual([]);
    });

    it('pages are the list’s slices on a walk, a jump, the same page again and backwards', async () => {
      const expected = await seed();
      const reads = new ChangeFeedReads();
      const page = async (f: FeedFilter, limit: number, offset: number) =>
        versions((await reads.page(rig.source(), f, limit, offset, 'v1')).items);
      for (let offset = 0; offset < expected.length; offset += 9)
        expect(await page({}, 9, offset)).toEqual(expected.slice(offset, offset + 9));
      for (const offset of [70, 2, 40, 41, 39, 76, 0, 38])
        for (const limit of [1, 4, 11])
          expect(await page({}, limit, offset)).toEqual(expected.slice(offset, offset + limit));
      const shop = await all({ namespace: 'shop' });
      for (const offset of [30, 0, 20, 25, 10])
        expect(await page({ namespace: 'shop' }, 5, offset)).toEqual(shop.slice(offset, offset + 5));
    });

    it('read a deep page from the nearest known point, not through the offset', async () => {
      const expected = await seed();
      const { source, skips } = watched(rig.backend);
      const reads = new ChangeFeedReads();
      const last = expected.length - 5;
      expect(versions((await reads.page(source, {}, 5, last, undefined)).items)).toEqual(
        expected.slice(last),
      );
      expect(versions((await reads.page(source, {}, 5, 30, 'v1')).items)).toEqual(expected.slice(30, 35));
      expect(versions((await reads.page(source, {}, 5, 35, 'v1')).items)).toEqual(expected.slice(35, 40));
      expect(versions((await reads.page(source, {}, 5, 35, 'v1')).items)).toEqual(expected.slice(35, 40));
      expect(skips).toEqual([0, 30, 1, 0]);
    });

    it('remembers a total for its version only, and nothing without one', async () => {
      await seed();
      const reads = new ChangeFeedReads();
      const first = (await reads.page(rig.source(), {}, 5, 0, 'v1')).total;
      await insertRows(rig.backend, [{ ...row(1), timeMs: T0 + 500 * MIN, resourceVersion: 'new' }]);
      expect((await reads.page(rig.source(), {}, 5, 0, 'v1')).total).toBe(first);
      expect((await reads.page(rig.source(), {}, 5, 0, 'v2')).total).toBe(first + 1);
      expect((await reads.page(rig.source(), {}, 5, 0, undefined)).total).toBe(first + 1);
      await insertRows(rig.backend, [{ ...row(1), timeMs: T0 + 501 * MIN, resourceVersion: 'newer' }]);
      expect((await reads.page(rig.source(), {}, 5, 0, undefined)).total).toBe(first + 2);
      expect((await reads.page(rig.source(), { namespace: 'web' }, 5, 0, 'v2')).total).toBe(
        (await reads.page(rig.source(), { namespace: 'web' }, 5, 0, undefined)).total,
      );
    });

    it('remembers at most 64 totals, forgetting the oldest', async () => {
      await seed();
      const reads = new ChangeFeedReads();
      const first = (await reads.page(rig.source(), {}, 5, 0, 'v1')).total;
      await insertRows(rig.backend, [{ ...row(1), timeMs: T0 + 500 * MIN, resourceVersion: 'new' }]);
      // Still remembered: the same version answers the same total.
      expect((await reads.page(rig.source(), {}, 5, 0, 'v1')).total).toBe(first);
      // Another filter's total is remembered beside it, not instead of it.
      await reads.page(rig.source(), { namespace: 'web' }, 5, 0, 'v1');
      expect((await reads.page(rig.source(), {}, 5, 0, 'v1')).total).toBe(first);
      for (let i = 0; i < 63; i++) await reads.page(rig.source(), { sinceMs: i }, 5, 0, 'v1');
      expect((await reads.page(rig.source(), {}, 5, 0, 'v1')).total).toBe(first + 1);
    });

    it('answers an empty page past the end', async () => {
      await seed();
      const reads = new ChangeFeedReads();
      const { items, total } = await reads.page(rig.source(), {}, 5, 1000, 'v1');
      expect(items).toEqual([]);
      expect(total).toBe(N - Math.ceil(N / 7));
    });
  });
});

describe('matchesFeed', () => {
  const source: RecordedSource = { db: undefined as never, clusterId: 'c1', frozen: false };
  const r = (over: Partial<StoredChange> = {}): StoredChange => ({
    id: 1,
    time_ms: T0,
    resource_type: 'deployment',
    kind: 'Deployment',
    namespace: 'shop',
    name: 'checkout',
    uid: 'u',
    change: 'updated',
    resource_version: '1',
    patch: '[]',
    summary: '',
    object: null,
    ...over,
  });
  it('tests one row as the SQL condition does', () => {
    expect(matchesFeed(source, r(), {})).toBe(true);
    expect(matchesFeed(source, r({ change: 'seen' }), {})).toBe(false);
    expect(matchesFeed(source, r(), { namespace: 'shop' })).toBe(true);
    expect(matchesFeed(source, r(), { namespace: 'web' })).toBe(false);
    expect(matchesFeed(source, r(), { resourceType: 'deployment' })).toBe(true);
    expect(matchesFeed(source, r(), { resourceType: 'configmap' })).toBe(false);
    expect(matchesFeed(source, r(), { sinceMs: T0 })).toBe(true);
    expect(matchesFeed(source, r(), { sinceMs: T0 + 1 })).toBe(false);
    expect(matchesFeed(source, r(), { untilMs: T0 })).toBe(true);
    expect(matchesFeed(source, r(), { untilMs: T0 - 1 })).toBe(false);
    expect(matchesFeed({ ...source, asOfMs: T0 - 1 }, r(), {})).toBe(false);
    expect(matchesFeed({ ...source, asOfMs: T0 }, r(), {})).toBe(true);
    expect(matchesFeed(source, r(), { allowed: new Map([['deployment', 'all']]) })).toBe(true);
    expect(matchesFeed(source, r(), { allowed: new Map([['deployment', ['shop']]]) })).toBe(true);
    expect(matchesFeed(source, r(), { allowed: new Map([['deployment', ['web']]]) })).toBe(false);
    expect(matchesFeed(source, r(), { allowed: new Map([['node', 'all']]) })).toBe(false);
  });
});

describe('feedKey', () => {
  it('differs for every filter that answers other rows, and not for the order of allowed', () => {
    const keys = [
      {},
      { namespace: 'a' },
      { resourceType: 'a' },
      { sinceMs: 1 },
      { untilMs: 1 },
      { allowed: new Map() },
      { allowed: new Map([['a', 'all' as const]]) },
      { allowed: new Map([['a', ['x']]]) },
      { allowed: new Map([['a', ['y']]]) },
    ].map((f) => feedKey(f));
    expect(new Set(keys).size).toBe(keys.length);
    expect(
      feedKey({
        allowed: new Map<string, string[] | 'all'>([
          ['a', ['x', 'y']],
          ['b', 'all'],
        ]),
      }),
    ).toBe(
      feedKey({
        allowed: new Map<string, string[] | 'all'>([
          ['b', 'all'],
          ['a', ['y', 'x']],
        ]),
      }),
    );
  });
});
