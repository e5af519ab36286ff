/**
 * Deep pages of the event history (includeExpired=true) without an OFFSET walk (issue 27 §1
 * "Paging"): every page equals the plain slice of the list, however it was reached (a walk, a jump,
 * the same page again, with a filter, with ties in lastTimestamp), and a deep page skips only the
 * rows between it and the nearest known point. The rows skipped are read from the `$offset` the
 * store binds: the database answers as it always does, the test only watches what it was asked.
 */
import { describe, expect, it } from 'vitest';
import type { Params, StorageBackend } from '../../storage/backend';
import type { HistoryFilter } from './filter';
import { ALL, eachBackend, entry, ids, MIN, storePerTest, T0 } from './history.test-support';
import { HistoryStore } from './store';

/** The store over `backend`, and the rows each of its page reads skipped. */
function watched(backend: StorageBackend) {
  const skips: number[] = [];
  const spy = Object.create(backend) as StorageBackend;
  spy.all = <T>(sql: string, params?: Params) => {
    if (params && typeof params.offset === 'number') skips.push(params.offset);
    return backend.all<T>(sql, params);
  };
  return { store: new HistoryStore(spy), skips };
}

/** 0..n-1 in a scrambled but fixed order, so rows are not inserted in the list's order. */
const scrambled = (n: number) => Array.from({ length: n }, (_, i) => (i * 7919) % n);

eachBackend((kind) => {
  const s = storePerTest(kind);
  const N = 120;
  // Three rows share each lastTimestamp: ties are settled by event id, which the keyset must keep.
  const seed = () =>
    s.put(
      'c1',
      scrambled(N).map((i) =>
        entry(`e${String(i).padStart(3, '0')}`, T0 - Math.floor(i / 3) * MIN, {
          namespace: i % 4 === 0 ? 'kube-system' : 'shop',
        }),
      ),
    );
  const expected = async (f: HistoryFilter) => ids(await s.store.page('c1', f, 1000, 0));

  describe('event history pages read by keyset', () => {
    it('are the list’s slices on a walk, a jump, a page asked again and backwards', async () => {
      await seed();
      const all = await expected(ALL);
      expect(all).toHaveLength(N);
      const { store } = watched(s.backend);
      const known = { total: N, walk: 'v1' };
      for (let offset = 0; offset < N; offset += 7)
        expect(ids(await store.page('c1', ALL, 7, offset, known))).toEqual(all.slice(offset, offset + 7));
      for (const offset of [100, 3, 58, 59, 57, 119, 0, 61, 60])
        for (const limit of [1, 5, 13])
          expect(ids(await store.page('c1', ALL, limit, offset, known))).toEqual(
            all.slice(offset, offset + limit),
          );
      for (let offset = N - 5; offset >= 0; offset -= 5)
        expect(ids(await store.page('c1', ALL, 5, offset, known))).toEqual(all.slice(offset, offset + 5));
    });

    it('keep a filter’s own positions', async () => {
      await seed();
      const f: HistoryFilter = { ...ALL, namespace: 'shop' };
      const shop = await expected(f);
      expect(shop).toHaveLength(90);
      const { store } = watched(s.backend);
      const known = { total: shop.length, walk: 'v1|shop' };
      for (const offset of [0, 10, 20, 80, 85, 45, 44, 46])
        expect(ids(await store.page('c1', f, 10, offset, known))).toEqual(shop.slice(offset, offset + 10));
    });

    it('read the last page from the tail, skipping nothing', async () => {
      await seed();
      const all = await expected(ALL);
      const { store, skips } = watched(s.backend);
      expect(ids(await store.page('c1', ALL, 10, 110, { total: N }))).toEqual(all.slice(110));
      expect(ids(await store.page('c1', ALL, 10, 100, { total: N }))).toEqual(all.slice(100, 110));
      expect(skips).toEqual([0, 10]);
    });

    it('read the next page of a walk and a page asked again from where the walk stood', async () => {
      await seed();
      const all = await expected(ALL);
      const { store, skips } = watched(s.backend);
      const known = { total: N, walk: 'v1' };
      expect(ids(await store.page('c1', ALL, 10, 40, known))).toEqual(all.slice(40, 50));
      expect(ids(await store.page('c1', ALL, 10, 50, known))).toEqual(all.slice(50, 60));
      expect(ids(await store.page('c1', ALL, 10, 50, known))).toEqual(all.slice(50, 60));
      expect(ids(await store.page('c1', ALL, 10, 30, known))).toEqual(all.slice(30, 40));
      expect(skips).toEqual([40, 1, 0, 1]);
    });

    it('use no remembered row for a read without a walk, or of another walk', async () => {
      await seed();
      const all = await expected(ALL);
      const { store, skips } = watched(s.backend);
      await store.page('c1', ALL, 10, 40, { total: N, walk: 'v1' });
      expect(ids(await store.page('c1', ALL, 10, 40, { total: N, walk: 'v2' }))).toEqual(all.slice(40, 50));
      expect(ids(await store.page('c1', ALL, 10, 40, { total: N }))).toEqual(all.slice(40, 50));
      expect(ids(await store.page('c1', ALL, 10, 40))).toEqual(all.slice(40, 50));
      expect(skips).toEqual([40, 40, 40, 40]);
    });
  });
});
