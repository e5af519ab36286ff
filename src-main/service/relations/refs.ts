/**
 * Refs as answers carry them, and the order and bounds of a list of them. A ref names its kind by
 * resourceType, has a namespace only for a namespaced kind, a uid and status only when the object
 * exists. Lists are ordered by resourceType, namespace, name; refs to one object are one ref whose
 * `via` lists every field that names it.
 */

import type { RelationRef } from '../../../src-shared/contract/relations-operations';
import type { ResourceEntry } from '../cache/entries';
import { factsOf } from './facts';
import type { KindRef } from './model';

/** At most this many refs in each flat list, and in the dependents tree. */
export const MAX_REFS = 1_000;

export function entryRef(kind: KindRef, entry: ResourceEntry): RelationRef {
  const facts = factsOf(entry);
  return {
    resourceType: kind.resourceType,
    ...(kind.namespaced ? { namespace: entry.namespace } : {}),
    name: entry.name,
    ...(facts.uid ? { uid: facts.uid } : {}),
    ...(facts.status !== undefined ? { status: facts.status } : {}),
  };
}

/** A ref to an object that is not there (or of a kind that cannot be read: then not `missing`). */
export function absentRef(
  resourceType: string,
  namespace: string | undefined,
  name: string,
  missing: boolean,
): RelationRef {
  return {
    resourceType,
    ...(namespace !== undefined ? { namespace } : {}),
    name,
    ...(missing ? { missing: true as const } : {}),
  };
}

export function compareRefs(
  a: Pick<RelationRef, 'resourceType' | 'namespace' | 'name'>,
  b: Pick<RelationRef, 'resourceType' | 'namespace' | 'name'>,
): number {
  return (
    compareText(a.resourceType, b.resourceType) ||
    compareText(a.namespace ?? '', b.namespace ?? '') ||
    compareText(a.name, b.name)
  );
}

/** Code-unit order, as the apiserver orders names. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const identity = (r: Pick<RelationRef, 'resourceType' | 'namespace' | 'name'>) =>
  `${r.resourceType}\u0000${r.namespace ?? ''}\u0000${r.name}`;

/** Refs to one object made one: their `via` joined, `optional` only if all are, keys joined. */
export function mergeRefs(refs: readonly RelationRef[]): RelationRef[] {
  const byIdentity = new Map<string, RelationRef>();
  for (const ref of refs) {
    const id = identity(ref);
    const seen = byIdentity.get(id);
    if (!seen) {
      byIdentity.set(id, ref);
      continue;
    }
    const via = union(seen.via, ref.via);
    const missingKeys = union(seen.missingKeys, ref.missingKeys);
    const { via: _v, optional: _o, missingKeys: _k, ...rest } = seen;
    byIdentity.set(id, {
      ...rest,
      ...(via ? { via } : {}),
      ...(seen.optional && ref.optional ? { optional: true as const } : {}),
      ...(missingKeys ? { missingKeys } : {}),
    });
  }
  return [...byIdentity.values()];
}

function union(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] | undefined {
  if (!a && !b) return undefined;
  return [...new Set([...(a ?? []), ...(b ?? [])])];
}

/** The list ordered and cut at MAX_REFS; `leftOff` counts what the cut dropped. */
export function bounded(refs: readonly RelationRef[]): { refs: RelationRef[]; leftOff: number } {
  const sorted = mergeRefs(refs).sort(compareRefs);
  if (sorted.length <= MAX_REFS) return { refs: sorted, leftOff: 0 };
  return { refs: sorted.slice(0, MAX_REFS), leftOff: sorted.length - MAX_REFS };
}
