/**
 * The entries of one watched collection, each kept once, with maintained ordered indexes, read as
 * immutable views. Rules: a view never changes once handed out; the same view is handed out until
 * the collection changes; building one applies only the changes since the last.
 */
import { SortedList } from './sorted-list';

/** Every stored entry has a key unique in its collection (namespace/name). */
export interface Keyed {
  readonly key: string;
}

/** Which index lists an entry belongs to: none, one value, or several (labels). */
export type IndexKeys<E> = (entry: E) => string | readonly string[] | undefined;

/**
 * One consistent, immutable state of a collection (a view): the ordered entries and, per index, the
 * ordered entries under each value. Arrays here are never mutated, so a view stays valid while the
 * collection changes; unchanged index lists are shared between views. Not a `.skiff` snapshot: those
 * are files (snapshots/).
 */
export interface CollectionView<E> {
  readonly version: number;
  readonly all: readonly E[];
  /** The ordered entries whose index `name` has `value`; empty when none. */
  by(name: string, value: string): readonly E[];
}

const NONE: readonly never[] = Object.freeze([]);

/**
 * The entries of one watched collection, each kept once, with maintained ordered indexes. A read
 * takes a view; building one applies only the changes since the last one, to only the lists
 * they touched, so a page read costs the same at any offset and a filter reads its own list.
 */
export class Collection<E extends Keyed> {
  private readonly entries = new Map<string, E>();
  private readonly all: SortedList<E>;
  private readonly indexes = new Map<string, { keys: IndexKeys<E>; lists: Map<string, SortedList<E>> }>();
  private version = 0;
  private cached: CollectionView<E> | null = null;

  constructor(
    private readonly compare: (a: E, b: E) => number,
    indexes: Readonly<Record<string, IndexKeys<E>>> = {},
  ) {
    this.all = new SortedList(compare);
    for (const [name, keys] of Object.entries(indexes)) this.indexes.set(name, { keys, lists: new Map() });
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): E | undefined {
    return this.entries.get(key);
  }

  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  upsert(entry: E): void {
    const previous = this.entries.get(entry.key);
    if (previous) this.unlink(previous);
    this.entries.set(entry.key, entry);
    this.link(entry);
    this.changed();
  }

  delete(key: string): void {
    const previous = this.entries.get(key);
    if (!previous) return;
    this.entries.delete(key);
    this.unlink(previous);
    this.changed();
  }

  /** The current state; the same object until the collection changes again. */
  view(): CollectionView<E> {
    if (this.cached) return this.cached;
    const all = this.all.view();
    const byIndex = new Map<string, Map<string, readonly E[]>>();
    for (const [name, index] of this.indexes) {
      const views = new Map<string, readonly E[]>();
      for (const [value, list] of index.lists) {
        if (list.size === 0) {
          index.lists.delete(value);
          continue;
        }
        views.set(value, list.view());
      }
      byIndex.set(name, views);
    }
    const view: CollectionView<E> = {
      version: this.version,
      all,
      by: (name, value) => byIndex.get(name)?.get(value) ?? NONE,
    };
    this.cached = view;
    return view;
  }

  private changed(): void {
    this.version++;
    this.cached = null;
  }

  private link(entry: E): void {
    this.all.add(entry);
    for (const index of this.indexes.values()) {
      for (const value of valuesOf(index.keys(entry))) {
        let list = index.lists.get(value);
        if (!list) {
          list = new SortedList(this.compare);
          index.lists.set(value, list);
        }
        list.add(entry);
      }
    }
  }

  private unlink(entry: E): void {
    this.all.delete(entry);
    for (const index of this.indexes.values()) {
      for (const value of valuesOf(index.keys(entry))) index.lists.get(value)?.delete(entry);
    }
  }
}

function valuesOf(keys: string | readonly string[] | undefined): readonly string[] {
  if (keys === undefined) return NONE;
  return typeof keys === 'string' ? [keys] : keys;
}
