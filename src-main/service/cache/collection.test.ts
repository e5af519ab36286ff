/**
 * Collection (collection.ts): immutable views, the same view until a change, and index lists kept
 * in step.
 */
import { describe, expect, it } from 'vitest';
import { Collection } from './collection';

interface Row {
  key: string;
  rank: number;
  colour: string;
  tags: string[];
}
const byRank = (a: Row, b: Row) => a.rank - b.rank || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const row = (key: string, rank: number, colour: string, tags: string[] = []): Row => ({
  key,
  rank,
  colour,
  tags,
});

function make() {
  return new Collection<Row>(byRank, { colour: (r) => r.colour, tag: (r) => r.tags });
}

describe('Collection', () => {
  it('orders every entry and every index list by the collection order, whatever the insertion order', () => {
    const c = make();
    for (const r of [
      row('d', 4, 'red', ['x']),
      row('a', 1, 'blue'),
      row('c', 3, 'red', ['x', 'y']),
      row('b', 2, 'red'),
    ])
      c.upsert(r);
    const s = c.view();
    expect(s.all.map((r) => r.key)).toEqual(['a', 'b', 'c', 'd']);
    expect(s.by('colour', 'red').map((r) => r.key)).toEqual(['b', 'c', 'd']);
    expect(s.by('tag', 'x').map((r) => r.key)).toEqual(['c', 'd']);
    expect(s.by('tag', 'y').map((r) => r.key)).toEqual(['c']);
    expect(s.by('colour', 'green')).toEqual([]);
  });

  it('moves an updated entry between index lists and keeps it once', () => {
    const c = make();
    c.upsert(row('a', 1, 'red'));
    c.upsert(row('b', 2, 'red'));
    c.upsert(row('a', 3, 'blue'));
    const s = c.view();
    expect(c.size).toBe(2);
    expect(s.all.map((r) => [r.key, r.rank])).toEqual([
      ['b', 2],
      ['a', 3],
    ]);
    expect(s.by('colour', 'red').map((r) => r.key)).toEqual(['b']);
    expect(s.by('colour', 'blue').map((r) => r.key)).toEqual(['a']);
  });

  it('keeps an older view exactly as it was while the collection changes', () => {
    const c = make();
    c.upsert(row('a', 1, 'red'));
    c.upsert(row('b', 2, 'blue'));
    const old = c.view();
    c.delete('a');
    c.upsert(row('c', 0, 'red'));
    c.upsert(row('b', 9, 'red'));
    const now = c.view();
    expect(old.all.map((r) => r.key)).toEqual(['a', 'b']);
    expect(old.by('colour', 'red').map((r) => r.key)).toEqual(['a']);
    expect(old.by('colour', 'blue').map((r) => r.key)).toEqual(['b']);
    expect(now.all.map((r) => r.key)).toEqual(['c', 'b']);
    expect(now.by('colour', 'blue')).toEqual([]);
    expect(now.version).toBeGreaterThan(old.version);
  });

  it('hands out the same view until something changes', () => {
    const c = make();
    c.upsert(row('a', 1, 'red'));
    const s = c.view();
    expect(c.view()).toBe(s);
    c.delete('missing');
    expect(c.view()).toBe(s);
    c.delete('a');
    expect(c.view()).not.toBe(s);
    expect(c.view().all).toEqual([]);
  });
});

describe('Collection index maintenance', () => {
  it('a deleted entry leaves the whole list and every index list it was in, and cannot be got', () => {
    const c = make();
    c.upsert(row('b', 2, 'red', ['x', 'y']));
    c.upsert(row('a', 1, 'red', ['x']));
    c.view();
    c.delete('b');
    const s = c.view();
    expect(s.all.map((r) => r.key)).toEqual(['a']);
    expect(s.by('colour', 'red').map((r) => r.key)).toEqual(['a']);
    expect(s.by('tag', 'x').map((r) => r.key)).toEqual(['a']);
    expect(s.by('tag', 'y')).toEqual([]);
    expect(c.get('b')).toBeUndefined();
    expect([...c.keys()]).toEqual(['a']);
    expect(c.size).toBe(1);
  });

  it('an entry whose values change leaves the lists of the values it lost and joins those it gained', () => {
    const c = make();
    c.upsert(row('m', 5, 'red', ['x', 'y']));
    c.upsert(row('k', 7, 'red', ['y']));
    c.view();
    c.upsert(row('m', 5, 'blue', ['y', 'z']));
    const s = c.view();
    expect(s.by('colour', 'red').map((r) => r.key)).toEqual(['k']);
    expect(s.by('colour', 'blue').map((r) => r.key)).toEqual(['m']);
    expect(s.by('tag', 'x')).toEqual([]);
    expect(s.by('tag', 'y').map((r) => r.key)).toEqual(['m', 'k']);
    expect(s.by('tag', 'z').map((r) => r.key)).toEqual(['m']);
    expect(c.get('m')?.colour).toBe('blue');
  });

  it('an entry for which an index gives no value is in no list of that index, but in the whole list', () => {
    const c = new Collection<Row>(byRank, { colour: (r) => (r.colour === '' ? undefined : r.colour) });
    c.upsert(row('b', 2, ''));
    c.upsert(row('a', 1, 'red'));
    const s = c.view();
    expect(s.all.map((r) => r.key)).toEqual(['a', 'b']);
    expect(s.by('colour', '')).toEqual([]);
    expect(s.by('colour', 'red').map((r) => r.key)).toEqual(['a']);
    expect(s.by('no-such-index', 'red')).toEqual([]);
  });

  it('counts one version per change, and a new view shows each', () => {
    const c = make();
    const v0 = c.view().version;
    c.upsert(row('a', 1, 'red'));
    expect(c.view().version).toBe(v0 + 1);
    c.upsert(row('a', 2, 'red'));
    c.delete('a');
    expect(c.view().version).toBe(v0 + 3);
    expect(c.view().all).toEqual([]);
  });
});
