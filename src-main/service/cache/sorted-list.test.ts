/**
 * SortedList (sorted-list.ts): views never mutated afterwards, and equal to a full sort after any
 * changes.
 */
import { describe, expect, it } from 'vitest';
import { lcg } from './seeded-random.test-support';
import { SortedList } from './sorted-list';

interface Item {
  id: number;
  rank: number;
}
const byRank = (a: Item, b: Item) => a.rank - b.rank || a.id - b.id;

function reference(items: Iterable<Item>): Item[] {
  return [...items].sort(byRank);
}

describe('SortedList', () => {
  it.each([1, 7, 40, 300])('equals a full sort after batches of %i random changes', (batch) => {
    const random = lcg(batch);
    const list = new SortedList(byRank);
    const live = new Map<number, Item>();
    let nextId = 0;
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < batch; i++) {
        const ids = [...live.keys()];
        const roll = random();
        if (roll < 0.5 || ids.length === 0) {
          const item = { id: nextId++, rank: Math.floor(random() * 50) };
          live.set(item.id, item);
          list.add(item);
        } else if (roll < 0.75) {
          const id = ids[Math.floor(random() * ids.length)]!;
          list.delete(live.get(id)!);
          live.delete(id);
        } else {
          // An update: the old item leaves, a new one with another rank takes its place.
          const id = ids[Math.floor(random() * ids.length)]!;
          const updated = { id, rank: Math.floor(random() * 50) };
          list.delete(live.get(id)!);
          list.add(updated);
          live.set(id, updated);
        }
      }
      expect(list.size).toBe(live.size);
      expect(list.view()).toEqual(reference(live.values()));
    }
  });

  it('never changes an array it has handed out', () => {
    const list = new SortedList(byRank);
    const a = { id: 1, rank: 5 };
    const b = { id: 2, rank: 1 };
    list.add(a);
    list.add(b);
    const before = list.view();
    const copy = [...before];
    list.delete(a);
    list.add({ id: 3, rank: 0 });
    const after = list.view();
    expect(before).toEqual(copy);
    expect(after.map((i) => i.id)).toEqual([3, 2]);
    expect(after).not.toBe(before);
  });

  it('returns the same array while nothing changed', () => {
    const list = new SortedList(byRank);
    list.add({ id: 1, rank: 1 });
    expect(list.view()).toBe(list.view());
    expect(list.dirty).toBe(false);
  });

  it('an add then a delete of the same item before a read leaves no trace', () => {
    const list = new SortedList(byRank);
    const kept = { id: 1, rank: 1 };
    list.add(kept);
    list.view();
    const transient = { id: 2, rank: 0 };
    list.add(transient);
    list.delete(transient);
    expect(list.size).toBe(1);
    expect(list.view()).toEqual([kept]);
  });

  it('a delete then an add of the same listed item before a read leaves the array as it was', () => {
    const list = new SortedList(byRank);
    const a = { id: 1, rank: 2 };
    const b = { id: 2, rank: 1 };
    list.add(a);
    list.add(b);
    const before = list.view();
    list.delete(a);
    list.add(a);
    expect(list.dirty).toBe(false);
    expect(list.size).toBe(2);
    expect(list.view()).toBe(before);
    expect(before).toEqual([b, a]);
  });

  it('with a comparator that ties, a delete removes that very item and not an equal neighbour', () => {
    const byRankOnly = (x: Item, y: Item) => x.rank - y.rank;
    const list = new SortedList(byRankOnly);
    const low = { id: 9, rank: 0 };
    const first = { id: 1, rank: 5 };
    const second = { id: 2, rank: 5 };
    const third = { id: 3, rank: 5 };
    for (const item of [third, low, second, first]) {
      list.add(item);
      list.view();
    }
    const tied = list.view().filter((i) => i.rank === 5);
    const [, middle] = tied;
    list.delete(middle!);
    expect(list.view()).toEqual([low, ...tied.filter((i) => i !== middle)]);
    expect(list.view()).not.toContain(middle);
  });
});
