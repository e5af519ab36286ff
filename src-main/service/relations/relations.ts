/**
 * The relations of one object, assembled: the object found in its kind's cache (404 when absent; a
 * namespaced kind named without a namespace is looked up across namespaces, 409 when several hold
 * the name, as endpoint 2 does), then its owners, dependents, uses, usedBy, selects and selectedBy
 * (one module each). The object's own kind must be readable (its problem is the answer's); any
 * other kind that cannot be read is a gap of the answer.
 */

import type { Relations } from '../../../src-shared/contract/relations-operations';
import type { ResourceEntry } from '../cache/entries';
import { ProblemError } from '../errors';
import { dependentsOf } from './dependents';
import type { KindRef, RelationSource } from './model';
import { ownersOf } from './owners';
import { findEntry, RelationReader } from './reader';
import { bounded, compareText, entryRef } from './refs';
import { selectedByOf, selectsOf } from './selects';
import { usedByOf, usesOf } from './uses';

export interface RelationsAnswer {
  relations: Relations;
  staleSince?: string;
}

async function locate(
  reader: RelationReader,
  kind: KindRef,
  namespace: string | undefined,
  name: string,
): Promise<ResourceEntry> {
  // The object's own kind: its problem is the answer.
  const cache = await reader.require(kind);
  const where = namespace ? ` in namespace ${namespace}` : '';
  if (!kind.namespaced || namespace !== undefined) {
    const found = findEntry(cache, namespace ?? '', name);
    if (!found)
      throw new ProblemError('resource_not_found', `${kind.resourceType} "${name}"${where} not found`);
    return found;
  }
  const matches = cache.read.view.all.filter((e) => e.name === name);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new ProblemError('resource_not_found', `${kind.resourceType} "${name}" not found`);
  const namespaces = matches.map((e) => e.namespace);
  throw new ProblemError(
    'conflict',
    `${kind.resourceType} "${name}" exists in several namespaces (${namespaces.join(', ')}); use /relations/namespaces/{namespace}/${kind.resourceType}/${name}`,
    { namespaces },
  );
}

export async function relationsOf(
  source: RelationSource,
  kind: KindRef,
  namespace: string | undefined,
  name: string,
): Promise<RelationsAnswer> {
  const reader = await RelationReader.open(source);
  const entry = await locate(reader, kind, namespace, name);
  const [owners, dependents, uses, usedBy, selects, selectedBy] = await Promise.all([
    ownersOf(reader, entry),
    dependentsOf(reader, kind, entry),
    usesOf(reader, entry),
    usedByOf(reader, kind, entry),
    selectsOf(reader, entry),
    selectedByOf(reader, kind, entry),
  ]);
  const usesList = bounded(uses);
  const leftOff = {
    ...(usesList.leftOff ? { uses: usesList.leftOff } : {}),
    ...(usedBy.leftOff ? { usedBy: usedBy.leftOff } : {}),
    ...(selects.leftOff ? { selects: selects.leftOff } : {}),
    ...(selectedBy.leftOff ? { selectedBy: selectedBy.leftOff } : {}),
  };
  const cut = dependents.truncated || Object.keys(leftOff).length > 0;
  // The object's own kind was read first; a gap recorded for it later cannot be.
  const gaps = [...reader.gaps].map(([resourceType, detail]) => ({ resourceType, detail }));
  gaps.sort((a, b) => compareText(a.resourceType, b.resourceType));
  const relations: Relations = {
    object: entryRef(kind, entry),
    owners,
    dependents: dependents.tree,
    uses: usesList.refs,
    usedBy: usedBy.refs,
    selects: selects.refs,
    selectedBy: selectedBy.refs,
    ...(cut ? { truncated: true as const } : {}),
    ...(Object.keys(leftOff).length ? { leftOff } : {}),
    ...(gaps.length ? { gaps } : {}),
  };
  return { relations, ...(reader.staleSince ? { staleSince: reader.staleSince } : {}) };
}
