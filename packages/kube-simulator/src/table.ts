/**
 * One resource's objects, kept in etcd key order. etcd sorts keys bytewise and the key is
 * "<namespace>/<name>", so plain string comparison of that key gives the real list order
 * (including the quirk that "shop-a/x" sorts before "shop/x"). Lists, namespace ranges and
 * continue tokens all become binary searches over the sorted key array.
 */

import type { KubeObject } from './types';

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * An object kept as its JSON text until something reads it (a snapshot's objects, where most are
 * only ever listed): an unfiltered list sends the text as it is, the first read parses it.
 */
export class LazyObject<T extends KubeObject = KubeObject> {
  constructor(
    readonly kind: string,
    /** Undefined for cluster-scoped kinds. */
    readonly namespace: string | undefined,
    readonly name: string,
    /** metadata.resourceVersion, a positive integer. */
    readonly resourceVersion: number,
    /** The list item: valid JSON of what `decode` gives, without apiVersion and kind. */
    readonly itemJson: string,
    readonly decode: () => T,
  ) {}
}

export class Table<T extends KubeObject = KubeObject> {
  private keys: string[] = [];
  private readonly byKey = new Map<string, T>();
  /** Objects not parsed yet; a key is in this map or in byKey, never both. */
  private readonly lazy = new Map<string, LazyObject<T>>();

  get size(): number {
    return this.keys.length;
  }

  get(key: string): T | undefined {
    return this.byKey.get(key) ?? this.decode(key);
  }

  private decode(key: string): T | undefined {
    const pending = this.lazy.get(key);
    if (!pending) return undefined;
    const obj = pending.decode();
    this.lazy.delete(key);
    this.byKey.set(key, obj);
    return obj;
  }

  /** Inserts or replaces; returns the previous object. */
  set(key: string, obj: T): T | undefined {
    const prev = this.get(key);
    this.byKey.set(key, obj);
    if (prev === undefined) {
      const at = this.lowerBound(key);
      if (at === this.keys.length) this.keys.push(key);
      else this.keys.splice(at, 0, key);
    }
    return prev;
  }

  delete(key: string): T | undefined {
    const prev = this.get(key);
    if (prev === undefined) return undefined;
    this.byKey.delete(key);
    const at = this.lowerBound(key);
    if (this.keys[at] === key) this.keys.splice(at, 1);
    return prev;
  }

  /** Bulk load for generation: one sort instead of n sorted inserts. */
  load(entries: Iterable<[string, T | LazyObject<T>]>): void {
    for (const [key, obj] of entries) {
      if (!this.byKey.has(key) && !this.lazy.has(key)) this.keys.push(key);
      if (obj instanceof LazyObject) {
        this.byKey.delete(key);
        this.lazy.set(key, obj);
      } else {
        this.lazy.delete(key);
        this.byKey.set(key, obj);
      }
    }
    // Default sort compares UTF-16 code units, which is byte order for the ASCII keys Kubernetes allows.
    this.keys.sort();
  }

  /** First index whose key is >= key. */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as string) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index range [start, end) holding the given namespace, or everything. */
  range(namespace: string | undefined): [number, number] {
    if (!namespace) return [0, this.keys.length];
    // '0' is the character right after '/', and names cannot contain '/'.
    return [this.lowerBound(`${namespace}/`), this.lowerBound(`${namespace}0`)];
  }

  keyAt(index: number): string | undefined {
    return this.keys[index];
  }

  at(index: number): T | undefined {
    const key = this.keys[index];
    return key === undefined ? undefined : this.get(key);
  }

  /** The list item JSON of the object at `index` while it is still unparsed text, else undefined. */
  itemJsonAt(index: number): string | undefined {
    const key = this.keys[index];
    return key === undefined ? undefined : this.lazy.get(key)?.itemJson;
  }

  *values(namespace?: string): IterableIterator<T> {
    const [start, end] = this.range(namespace);
    for (let i = start; i < end; i++) {
      const obj = this.at(i);
      if (obj) yield obj;
    }
  }
}
