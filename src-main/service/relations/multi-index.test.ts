/**
 * The kept index: the diff of two ordered views by identity, updates applied in order and only
 * forward, ordered buckets, a first fill that yields to the event loop, and one index per cache
 * and name.
 */
import { describe, expect, it } from 'vitest';
import { Collection } from '../cache/collection';
import { compareResources, type ResourceEntry } from '../cache/entries';
import { diffSorted, indexFor, MultiIndex, SLICE } from './multi-index';

const entry = (namespace: string, name: string, tags: string[] = []): ResourceEntry & { tags: string[] } => ({
  key: `${namespace}/${name}`,
  namespace,
  name,
  labels: undefined,
  json: '{}',
  tags,
});
const tagsOf = (e: ResourceEntry) => (e as ResourceEntry & { tags: string[] }).tags;
const names = (list: readonly ResourceEntry[]) => list.map((e) => e.key);

describe('diffSorted', () => {
  it('finds removed and added entries, a changed one in both, by identity', () => {
    const a = entry('a', '1');
    const b = entry('a', '2');
    const c = entry('b', '1');
    const b2 = entry('a', '2');
    const d = entry('c', '0');
    expect(diffSorted([a, b, c], [a, b, c])).toEqual({ removed: [], added: [] });
    const { removed, added } = diffSorted([a, b, c], [b2, c, d]);
    expect(removed).toEqual([a, b]);
    expect(removed[1]).toBe(b);
    expect(added).toEqual([b2, d]);
    expect(added[0]).toBe(b2);
    expect(diffSorted([], [a, b])).toEqual({ removed: [], added: [a, b] });
    expect(diffSorted([a, b], [])).toEqual({ removed: [a, b], added: [] });
    expect(diffSorted([a, c], [a, b, c])).toEqual({ removed: [], added: [b] });
    expect(diffSorted([a, b, c], [a, c])).toEqual({ removed: [b], added: [] });
  });
});

describe('MultiIndex', () => {
  it('keeps each key’s entries, in the cache’s order, through upserts and deletes', async () => {
    const col = new Collection<ResourceEntry>(compareResources);
    const index = new MultiIndex(tagsOf);
    col.upsert(entry('b', 'x', ['red']));
    col.upsert(entry('a', 'y', ['red', 'blue']));
    col.upsert(entry('a', 'x', ['blue']));
    await index.sync(col.view());
    expect(names(index.get('red'))).toEqual(['a/y', 'b/x']);
    expect(names(index.get('blue'))).toEqual(['a/x', 'a/y']);
    expect(index.get('green')).toEqual([]);
    const before = index.get('red');
    expect(index.get('red')).toBe(before);
    col.upsert(entry('a', 'y', ['green']));
    col.delete('b/x');
    col.upsert(entry('0', 'z', ['red']));
    await index.sync(col.view());
    expect(names(index.get('red'))).toEqual(['0/z']);
    expect(names(index.get('green'))).toEqual(['a/y']);
    expect(names(index.get('blue'))).toEqual(['a/x']);
    expect(index.keyCount).toBe(3);
    col.delete('0/z');
    await index.sync(col.view());
    expect(index.get('red')).toEqual([]);
    // A key no entry carries any more is dropped, not kept empty.
    expect(index.keyCount).toBe(2);
    // Entries added later still come in the cache's order, wherever they sort.
    col.upsert(entry('z', 'z', ['blue']));
    col.upsert(entry('0', '0', ['blue']));
    await index.sync(col.view());
    expect(names(index.get('blue'))).toEqual(['0/0', 'a/x', 'z/z']);
  });

  it('never moves back to an older view', async () => {
    const col = new Collection<ResourceEntry>(compareResources);
    const index = new MultiIndex(tagsOf);
    col.upsert(entry('a', '1', ['t']));
    const old = col.view();
    col.upsert(entry('a', '2', ['t']));
    const now = col.view();
    await index.sync(now);
    await index.sync(old);
    expect(names(index.get('t'))).toEqual(['a/1', 'a/2']);
    // Two syncs asked together apply in order; the older one leaves the newer state.
    col.upsert(entry('a', '3', ['t']));
    const newest = col.view();
    await Promise.all([index.sync(newest), index.sync(now)]);
    expect(names(index.get('t'))).toEqual(['a/1', 'a/2', 'a/3']);
  });

  it('reads a big first fill in slices, letting the event loop run between them', async () => {
    const col = new Collection<ResourceEntry>(compareResources);
    const read: number[] = [];
    let turns = 0;
    const index = new MultiIndex((e) => {
      read.push(turns);
      return tagsOf(e);
    });
    for (let i = 0; i < SLICE * 3 + 1; i++) col.upsert(entry('n', String(i).padStart(5, '0'), ['all']));
    let done = false;
    const tick = () => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    await index.sync(col.view());
    done = true;
    expect(index.get('all')).toHaveLength(SLICE * 3 + 1);
    // Each slice is read within one turn; the next slice after another turn.
    for (const start of [0, SLICE, SLICE * 2]) {
      expect(read[start + SLICE - 1]).toBe(read[start]);
      expect(read[start + SLICE]).toBeGreaterThan(read[start]!);
    }
  });

  it('a failing update fails its sync, and the next one still runs', async () => {
    const col = new Collection<ResourceEntry>(compareResources);
    let fail = true;
    const index = new MultiIndex((e) => {
      if (fail) throw new Error('boom');
      return tagsOf(e);
    });
    col.upsert(entry('a', '1', ['t']));
    await expect(index.sync(col.view())).rejects.toThrow('boom');
    fail = false;
    await index.sync(col.view());
    expect(names(index.get('t'))).toEqual(['a/1']);
  });
});

describe('indexFor', () => {
  it('gives one index per cache and function of keys', () => {
    const a = {};
    const b = {};
    const other = (e: ResourceEntry) => [e.name];
    const x = indexFor(a, tagsOf);
    expect(indexFor(a, tagsOf)).toBe(x);
    expect(indexFor(a, other)).not.toBe(x);
    expect(indexFor(a, other)).toBe(indexFor(a, other));
    expect(indexFor(b, tagsOf)).not.toBe(x);
  });
});
