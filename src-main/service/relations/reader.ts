/**
 * One answer's view of the caches: kinds by group and Kind from discovery, each kind's cache read
 * once per answer, and what could not be read recorded as a gap instead of failing the answer (a
 * cluster that forbids listing Secrets still answers a pod's owners). The answer is as stale as
 * the stalest cache it read.
 *
 * Lookups by name bisect the cache's (namespace, name) order; lookups by what an object names go
 * through the cache's kept indexes (multi-index.ts).
 */

import { compareResources, type ResourceEntry } from '../cache/entries';
import { factsOf } from './facts';
import { gkKey, type KindRead, type KindRef, type RelationSource } from './model';
import { indexFor, type KeysOf, type MultiIndex } from './multi-index';
import type { GroupKind } from './pod-refs';
import { problemDetail } from './problem-text';

export interface Cache {
  readonly kind: KindRef;
  readonly read: KindRead;
}

export class RelationReader {
  private readonly reads = new Map<KindRef, Promise<Cache | undefined>>();
  private readonly synced = new Map<MultiIndex, Promise<MultiIndex>>();
  private readonly failures = new Map<KindRef, unknown>();
  readonly gaps = new Map<string, string>();
  staleSince: string | undefined;

  private constructor(
    private readonly source: RelationSource,
    private readonly kindTable: ReadonlyMap<string, KindRef>,
    readonly kinds: readonly KindRef[],
  ) {}

  static async open(source: RelationSource): Promise<RelationReader> {
    const kinds = await source.kinds();
    const table = new Map<string, KindRef>();
    // Discovery names each group and resource once; a Kind served by two resources of one group
    // (never among the built-in kinds) goes by the first. Reversed, so the first is set last.
    for (const k of [...kinds].reverse()) table.set(gkKey(k.group, k.kind), k);
    return new RelationReader(source, table, kinds);
  }

  /** The served kind of a group and Kind; undefined when the cluster does not serve it. */
  kindOf(gk: GroupKind): KindRef | undefined {
    return this.kindTable.get(gkKey(gk.group, gk.kind));
  }

  /** The kind's cache, listed; else the problem it could not be read with. */
  async require(kind: KindRef): Promise<Cache> {
    const cache = await this.cache(kind);
    if (cache) return cache;
    throw this.failures.get(kind);
  }

  /** The kind's cache, listed; undefined (and a gap) when it cannot be read. */
  cache(kind: KindRef): Promise<Cache | undefined> {
    let pending = this.reads.get(kind);
    if (!pending) {
      pending = this.source.read(kind).then(
        (read) => {
          const stale = read.staleSince;
          if (stale !== undefined && !(this.staleSince !== undefined && this.staleSince <= stale))
            this.staleSince = stale;
          return { kind, read };
        },
        (err: unknown) => {
          this.failures.set(kind, err);
          this.gaps.set(kind.resourceType, problemDetail(err));
          return undefined;
        },
      );
      this.reads.set(kind, pending);
    }
    return pending;
  }

  /**
   * The cache of a group and Kind the cluster serves; undefined when it is not served (no gap: a
   * relation that might hold through it does not) or cannot be read (a gap).
   */
  async servedCache(gk: GroupKind): Promise<Cache | undefined> {
    const kind = this.kindOf(gk);
    return kind && this.cache(kind);
  }

  /**
   * The objects of a served, readable group and Kind whose keys (`keysOf`, through the cache's
   * kept index) include `key`, in the cache's order; undefined as servedCache.
   */
  async indexed(
    gk: GroupKind,
    keysOf: KeysOf,
    key: string,
  ): Promise<{ kind: KindRef; entries: readonly ResourceEntry[] } | undefined> {
    const cache = await this.servedCache(gk);
    if (!cache) return undefined;
    const index = await this.index(cache, keysOf);
    return { kind: cache.kind, entries: index.get(key) };
  }

  /** The cache of a group and Kind; undefined when not served (a gap too) or not readable. */
  async cacheOf(gk: GroupKind): Promise<Cache | undefined> {
    const kind = this.kindOf(gk);
    if (!kind) {
      const type = gk.group ? `${gk.kind.toLowerCase()}.${gk.group}` : gk.kind.toLowerCase();
      this.gaps.set(type, `the cluster does not serve ${gk.kind}${gk.group ? ` (${gk.group})` : ''}`);
      return undefined;
    }
    return this.cache(kind);
  }

  /** An index of a cache, brought up to date once per answer. */
  index(cache: Cache, keysOf: KeysOf): Promise<MultiIndex> {
    const index = indexFor(cache.read.collection, keysOf);
    let synced = this.synced.get(index);
    if (!synced) {
      synced = index.sync(cache.read.view).then(() => index);
      this.synced.set(index, synced);
    }
    return synced;
  }
}

/** The entry of a (namespace, name) in a cache's ordered entries, by bisection. */
export function findEntry(cache: Cache, namespace: string, name: string): ResourceEntry | undefined {
  const all = cache.read.view.all;
  const ns = cache.kind.namespaced ? namespace : '';
  const probe = { namespace: ns, name } as ResourceEntry;
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareResources(all[mid]!, probe) < 0) lo = mid + 1;
    else hi = mid;
  }
  const found = all[lo];
  return found && found.namespace === ns && found.name === name ? found : undefined;
}

/** The facts' uid, for lookups that must tell a recreated object from the one named. */
export const uidOf = (entry: ResourceEntry): string | undefined => factsOf(entry).uid;
