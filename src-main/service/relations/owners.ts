/**
 * An object's owners: its controller ownerReference, that owner's, and so on to the root (Pod →
 * ReplicaSet → Deployment, Pod → Job → CronJob), for any kind, nearest first. An owner is found by
 * kind, namespace (the dependent's, unless the owner's kind is cluster-scoped) and name, and must
 * have the uid the reference names: an object of that name with another uid is a new object, and
 * the owner named is missing. A missing owner ends the chain, marked missing; an owner whose kind
 * cannot be read ends it unmarked (a gap). A chain longer than MAX_CHAIN, or one that comes back to
 * an object already in it, ends there.
 */

import type { RelationRef } from '../../../src-shared/contract/relations-operations';
import type { ResourceEntry } from '../cache/entries';
import { factsOf, type OwnerLink } from './facts';
import { type KindRef, unservedType } from './model';
import { findEntry, type RelationReader } from './reader';
import { absentRef, entryRef } from './refs';

export const MAX_CHAIN = 16;

export async function ownersOf(reader: RelationReader, entry: ResourceEntry): Promise<RelationRef[]> {
  const out: RelationRef[] = [];
  const seen = new Set<string | undefined>();
  let current = entry;
  for (let step = 0; step < MAX_CHAIN; step++) {
    const facts = factsOf(current);
    seen.add(facts.uid);
    const link = facts.owners.find((o) => o.controller);
    if (!link || seen.has(link.uid)) break;
    const next = await ownerEntry(reader, current.namespace, link);
    out.push(next.ref);
    if (!next.entry) break;
    current = next.entry;
  }
  return out;
}

async function ownerEntry(
  reader: RelationReader,
  namespace: string,
  link: OwnerLink,
): Promise<{ ref: RelationRef; entry?: ResourceEntry }> {
  const kind: KindRef | undefined = reader.kindOf(link);
  const cache = await reader.cacheOf(link);
  if (!kind || !cache) {
    const type = kind?.resourceType ?? unservedType(link.group, link.kind);
    // Unknown kind: namespaced when the dependent is (an owner is never in another namespace).
    const ns = kind ? (kind.namespaced ? namespace : undefined) : namespace || undefined;
    return { ref: { ...absentRef(type, ns, link.name, false), uid: link.uid } };
  }
  const found = findEntry(cache, namespace, link.name);
  if (!found || factsOf(found).uid !== link.uid) {
    const ns = kind.namespaced ? namespace : undefined;
    return { ref: { ...absentRef(kind.resourceType, ns, link.name, true), uid: link.uid } };
  }
  return { ref: entryRef(kind, found), entry: found };
}
