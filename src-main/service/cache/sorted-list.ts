/**
 * An ordered list maintained under changes, read as immutable arrays. Changes are collected and
 * applied on the next read: a few by binary-search splices into a copy, many by one merge pass.
 * Every array `view()` returns is never mutated afterwards, so a reader (or a pinned list view) may
 * keep it while the list moves on. Items are immutable; an update is delete(old) + add(new).
 */
export class SortedList<T> {
  private current: readonly T[] = [];
  private readonly added = new Set<T>();
  private readonly removed = new Set<T>();

  constructor(private readonly compare: (a: T, b: T) => number) {}

  add(item: T): void {
    if (this.removed.has(item)) this.removed.delete(item);
    else this.added.add(item);
  }

  delete(item: T): void {
    if (this.added.has(item)) this.added.delete(item);
    else this.removed.add(item);
  }

  get size(): number {
    return this.current.length + this.added.size - this.removed.size;
  }

  /** True when the next view() will build a new array. */
  get dirty(): boolean {
    return this.added.size > 0 || this.removed.size > 0;
  }

  view(): readonly T[] {
    if (!this.dirty) return this.current;
    const changes = this.added.size + this.removed.size;
    this.current = changes <= SPLICE_LIMIT ? this.spliced() : this.merged();
    this.added.clear();
    this.removed.clear();
    return this.current;
  }

  /** Insertion point of `item`: the first index whose element does not sort before it. */
  private lowerBound(items: readonly T[], item: T): number {
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(items[mid]!, item) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private spliced(): T[] {
    const next = this.current.slice();
    for (const item of this.removed) {
      const at = this.lowerBound(next, item);
      // Items are distinct objects under a total order, so the one at the bound is the one to drop;
      // scanning equal neighbours covers a comparator that ties (it never should).
      for (let i = at; i < next.length && this.compare(next[i]!, item) === 0; i++) {
        if (next[i] === item) {
          next.splice(i, 1);
          break;
        }
      }
    }
    for (const item of this.added) next.splice(this.lowerBound(next, item), 0, item);
    return next;
  }

  private merged(): T[] {
    const incoming = [...this.added].sort(this.compare);
    const out: T[] = new Array(this.size);
    let n = 0;
    let j = 0;
    for (const item of this.current) {
      if (this.removed.has(item)) continue;
      while (j < incoming.length && this.compare(incoming[j]!, item) < 0) out[n++] = incoming[j++]!;
      out[n++] = item;
    }
    while (j < incoming.length) out[n++] = incoming[j++]!;
    out.length = n;
    return out;
  }
}

/** Up to this many changes, copying and splicing beats a full merge pass. */
const SPLICE_LIMIT = 16;
