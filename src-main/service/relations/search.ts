/**
 * The palette's jump to an object: every cached object whose name starts with the query, case
 * insensitive, across the kinds given. Rules:
 * - With a namespace, only that namespace's objects (a bisected slice of each namespaced kind's
 *   cache); cluster-scoped kinds are left out.
 * - Order: a name equal to the query first, then by name (in lower case, then as written),
 *   resourceType and namespace, so the object typed in full comes first and one name's objects
 *   of several kinds stay together.
 * - Only the hits of the page asked for are built (their uid and status read from their text).
 */

import type { SearchHit } from '../../../src-shared/contract/relations-operations';
import type { CollectionView } from '../cache/collection';
import type { ResourceEntry } from '../cache/entries';
import { resourceRows } from '../cache/list-queries';
import { factsOf } from './facts';
import type { KindRef } from './model';
import { compareText } from './refs';

export interface SearchCache {
  readonly kind: KindRef;
  readonly view: CollectionView<ResourceEntry>;
}

export interface Match {
  readonly kind: KindRef;
  readonly entry: ResourceEntry;
  /** The name in lower case: what matched, and what orders. */
  readonly lower: string;
}

/** By name: a name equal to the query is the shortest that starts with it, so it comes first. */
function compareMatches(a: Match, b: Match): number {
  return (
    compareText(a.lower, b.lower) ||
    compareText(a.entry.name, b.entry.name) ||
    compareText(a.kind.resourceType, b.kind.resourceType) ||
    compareText(a.entry.namespace, b.entry.namespace)
  );
}

/** Every match of `query`, ordered. */
export function searchCaches(
  caches: readonly SearchCache[],
  query: string,
  namespace: string | undefined,
): Match[] {
  const q = query.toLowerCase();
  const out: Match[] = [];
  // A namespace's slice of a cluster-scoped kind is empty: its objects' namespace is ''.
  for (const { kind, view } of caches) {
    for (const entry of resourceRows(view, namespace, undefined)) {
      const name = entry.name.toLowerCase();
      if (name.startsWith(q)) out.push({ kind, entry, lower: name });
    }
  }
  return out.sort(compareMatches);
}

export function searchHit(match: Match): SearchHit {
  const facts = factsOf(match.entry);
  return {
    resourceType: match.kind.resourceType,
    ...(match.kind.namespaced ? { namespace: match.entry.namespace } : {}),
    name: match.entry.name,
    ...(facts.uid ? { uid: facts.uid } : {}),
    ...(facts.status !== undefined ? { status: facts.status } : {}),
  };
}
