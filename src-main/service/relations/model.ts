/**
 * What relations read, and from where: kinds as discovery names them, and each kind's watch cache
 * as a stream of immutable views (cache/collection.ts). The service's source is the cluster
 * connection (cluster-source.ts); tests give Collections of their own. Nothing here reads a
 * cluster per request: a source answers from caches it keeps.
 */

import type { CollectionView } from '../cache/collection';
import type { ResourceEntry } from '../cache/entries';

/** What relations need of a kind; the service's KindInfo is one. */
export interface KindRef {
  readonly resourceType: string;
  readonly kind: string;
  /** "" for the core group. */
  readonly group: string;
  readonly namespaced: boolean;
}

/** A kind's listed cache, read once for an answer. */
export interface KindRead {
  /** The same object for every read of one cache: indexes kept for it are updated, not rebuilt. */
  readonly collection: object;
  /** The cache's view when read; later views of one cache have higher versions. */
  readonly view: CollectionView<ResourceEntry>;
  /** RFC 3339: since when the cache is stale, while its watch is broken. */
  readonly staleSince?: string;
}

export interface RelationSource {
  /** Every kind the cluster serves. */
  kinds(): Promise<readonly KindRef[]>;
  /** The kind's cache once it has listed; rejects with the cluster's problem when it cannot. */
  read(kind: KindRef): Promise<KindRead>;
}

export const gkKey = (group: string, kind: string): string => `${group}/${kind}`;

/** The name a kind the cluster does not serve goes by in a ref: `widget.example.com`, `pod`. */
export const unservedType = (group: string, kind: string): string =>
  group ? `${kind.toLowerCase()}.${group}` : kind.toLowerCase();
