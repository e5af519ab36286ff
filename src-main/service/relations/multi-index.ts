/**
 * An index from keys to the entries of one cache that carry them (owner uids, the objects they
 * use, the objects they point at), kept in step with the cache's views by applying only what
 * changed: two views' ordered entries are walked side by side and compared by identity (an
 * entry is immutable, a change is a new entry), so an unchanged cache costs nothing and a few
 * changes cost one pass of pointer comparisons, not a rebuild.
 *
 * Rules:
 * - Updates run one at a time and only forward: a view older than the one indexed (a reader
 *   that read its cache before another reader synced a newer one) leaves the index as it is, so a
 *   reader that awaited `sync` sees its view or a newer one.
 * - Reading an entry's keys parses its text the first time (facts.ts). A first fill of a big cache
 *   parses thousands: new entries are read in slices with a turn of the event loop between them,
 *   so no request stalls the process.
 * - `get` answers entries ordered as the cache orders them (namespace, name), built once per key
 *   and change.
 */

import type { CollectionView } from '../cache/collection';
import { compareResources, type ResourceEntry } from '../cache/entries';

export type KeysOf = (entry: ResourceEntry) => readonly string[];

/** Entries read between two turns of the event loop. */
export const SLICE = 256;

const NONE: readonly ResourceEntry[] = Object.freeze([]);

interface Bucket {
  readonly members: Set<ResourceEntry>;
  sorted: readonly ResourceEntry[] | undefined;
}

/** Entries only in `before`, and entries only in `after`, of two (namespace, name)-ordered arrays. */
export function diffSorted(
  before: readonly ResourceEntry[],
  after: readonly ResourceEntry[],
): { removed: ResourceEntry[]; added: ResourceEntry[] } {
  const removed: ResourceEntry[] = [];
  const added: ResourceEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length && j < after.length) {
    const a = before[i]!;
    const b = after[j]!;
    if (a === b) {
      i++;
      j++;
      continue;
    }
    const order = compareResources(a, b);
    if (order <= 0) {
      removed.push(a);
      i++;
    }
    if (order >= 0) {
      added.push(b);
      j++;
    }
  }
  for (; i < before.length; i++) removed.push(before[i]!);
  for (; j < after.length; j++) added.push(after[j]!);
  return { removed, added };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class MultiIndex {
  private indexed: readonly ResourceEntry[] = NONE;
  private version = -1;
  private readonly buckets = new Map<string, Bucket>();
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly keysOf: KeysOf) {}

  /** Brings the index to `view`, unless it holds a newer one. */
  sync(view: CollectionView<ResourceEntry>): Promise<void> {
    const run = this.chain.then(() => this.update(view));
    this.chain = run.catch(() => {});
    return run;
  }

  /** How many keys have entries. */
  get keyCount(): number {
    return this.buckets.size;
  }

  /** The entries under `key`, in the cache's order. */
  get(key: string): readonly ResourceEntry[] {
    const bucket = this.buckets.get(key);
    if (!bucket) return NONE;
    bucket.sorted ??= [...bucket.members].sort(compareResources);
    return bucket.sorted;
  }

  private async update(view: CollectionView<ResourceEntry>): Promise<void> {
    const all = view.all;
    if (view.version <= this.version) return;
    const { removed, added } = diffSorted(this.indexed, all);
    // The keys of new entries first, in slices (the parse is the cost); then the change, at once.
    const keys: (readonly string[])[] = [];
    for (let k = 0; k < added.length; k++) {
      if (k > 0 && k % SLICE === 0) await turn();
      keys.push(this.keysOf(added[k]!));
    }
    for (const entry of removed) for (const key of this.keysOf(entry)) this.unlink(key, entry);
    for (let k = 0; k < added.length; k++) for (const key of keys[k]!) this.link(key, added[k]!);
    this.indexed = all;
    this.version = view.version;
  }

  private link(key: string, entry: ResourceEntry): void {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { members: new Set(), sorted: undefined };
      this.buckets.set(key, bucket);
    }
    bucket.members.add(entry);
    bucket.sorted = undefined;
  }

  private unlink(key: string, entry: ResourceEntry): void {
    const bucket = this.buckets.get(key);
    if (!bucket) return;
    bucket.members.delete(entry);
    bucket.sorted = undefined;
    if (bucket.members.size === 0) this.buckets.delete(key);
  }
}

/** One index per cache and per function of keys, found again by their identities. */
const indexes = new WeakMap<object, Map<KeysOf, MultiIndex>>();

export function indexFor(collection: object, keysOf: KeysOf): MultiIndex {
  let byKeys = indexes.get(collection);
  if (!byKeys) {
    byKeys = new Map();
    indexes.set(collection, byKeys);
  }
  let index = byKeys.get(keysOf);
  if (!index) {
    index = new MultiIndex(keysOf);
    byKeys.set(keysOf, index);
  }
  return index;
}
