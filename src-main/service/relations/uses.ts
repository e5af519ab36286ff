/**
 * `uses` and `usedBy`. An object's uses are the objects its facts name (facts.ts, pod-refs.ts),
 * each looked up in its kind's cache: found, it carries its uid and status, and the keys a pod
 * requires (not optionally) that it lacks (`missingKeys`); not found in a cache that has listed, it is `missing`; of a
 * kind that cannot be read, it is neither (a gap). A claim a pod or template uses brings its
 * volume and StorageClass, as the claim's own uses.
 *
 * `usedBy` is the inverse, read from a kept index of each kind whose objects can use this one
 * (USERS): pods, claims, volumes, Ingresses and ServiceAccounts as their uses say, and workloads
 * whose pod template does, but only those no controller owns (a Deployment, not its ReplicaSets,
 * whose templates are the Deployment's copies).
 */

import type { RelationRef } from '../../../src-shared/contract/relations-operations';
import type { ResourceEntry } from '../cache/entries';
import { factsOf } from './facts';
import { gkKey, INGRESS, type KindRef, POD, unservedType, WORKLOADS } from './model';
import {
  CLAIM,
  CONFIG_MAP,
  type GroupKind,
  INGRESS_CLASS,
  NODE,
  PRIORITY_CLASS,
  SECRET,
  SERVICE_ACCOUNT,
  STORAGE_CLASS,
  type UseLink,
  VOLUME,
} from './pod-refs';
import { findEntry, type RelationReader } from './reader';
import { absentRef, compareText, entryRef, MAX_REFS } from './refs';

async function resolve(reader: RelationReader, link: UseLink, via: string): Promise<RelationRef> {
  const kind = reader.kindOf(link.target);
  const cache = await reader.cacheOf(link.target);
  const extra = { via: [via], ...(link.optional ? { optional: true as const } : {}) };
  if (!kind || !cache) {
    const type = kind?.resourceType ?? unservedType(link.target.group, link.target.kind);
    return { ...absentRef(type, link.namespace, link.name, false), ...extra };
  }
  const found = findEntry(cache, link.namespace ?? '', link.name);
  if (!found) return { ...absentRef(kind.resourceType, link.namespace, link.name, true), ...extra };
  const have = factsOf(found).keys;
  // A key an optional reference reads may be absent: the pod starts without it.
  const lacking = have && link.keys && !link.optional ? link.keys.filter((k) => !have.includes(k)) : [];
  return { ...entryRef(kind, found), ...extra, ...(lacking.length ? { missingKeys: lacking } : {}) };
}

const isClaim = (link: UseLink) => link.target.group === '' && link.target.kind === 'PersistentVolumeClaim';

export async function usesOf(reader: RelationReader, entry: ResourceEntry): Promise<RelationRef[]> {
  const facts = factsOf(entry);
  const refs: RelationRef[] = [];
  const claims = new Map<string, ResourceEntry>();
  for (const link of facts.uses) {
    refs.push(await resolve(reader, link, link.via));
    if (!isClaim(link) || facts.kind === 'PersistentVolume') continue;
    const cache = await reader.cacheOf(CLAIM);
    const claim = cache && findEntry(cache, link.namespace ?? '', link.name);
    if (claim) claims.set(claim.key, claim);
  }
  for (const claim of claims.values()) {
    for (const link of factsOf(claim).uses)
      refs.push(await resolve(reader, link, `persistentvolumeclaim/${claim.name}: ${link.via}`));
  }
  return refs;
}

const PODS_AND_WORKLOADS = [POD, ...WORKLOADS];

/** Which kinds can use an object of a kind (`group/Kind`). */
export const USERS: Readonly<Record<string, readonly GroupKind[]>> = {
  [gkKey(CONFIG_MAP.group, CONFIG_MAP.kind)]: PODS_AND_WORKLOADS,
  [gkKey(SECRET.group, SECRET.kind)]: [...PODS_AND_WORKLOADS, INGRESS, SERVICE_ACCOUNT],
  [gkKey(CLAIM.group, CLAIM.kind)]: [...PODS_AND_WORKLOADS, VOLUME],
  [gkKey(SERVICE_ACCOUNT.group, SERVICE_ACCOUNT.kind)]: PODS_AND_WORKLOADS,
  [gkKey(NODE.group, NODE.kind)]: [POD],
  [gkKey(PRIORITY_CLASS.group, PRIORITY_CLASS.kind)]: PODS_AND_WORKLOADS,
  [gkKey(VOLUME.group, VOLUME.kind)]: [CLAIM],
  [gkKey(STORAGE_CLASS.group, STORAGE_CLASS.kind)]: [CLAIM, VOLUME],
  [gkKey(INGRESS_CLASS.group, INGRESS_CLASS.kind)]: [INGRESS],
};

/** The index key of a used object: its kind, namespace ("" when cluster-scoped) and name. */
export const refKey = (target: GroupKind, namespace: string, name: string): string =>
  `${target.group}/${target.kind}\u0000${namespace}\u0000${name}`;

const usesKeys = (entry: ResourceEntry): readonly string[] =>
  factsOf(entry).uses.map((u) => refKey(u.target, u.namespace ?? '', u.name));

const controlled = (entry: ResourceEntry) => factsOf(entry).owners.some((o) => o.controller);

export async function usedByOf(
  reader: RelationReader,
  kind: KindRef,
  entry: ResourceEntry,
): Promise<{ refs: RelationRef[]; leftOff: number }> {
  const users = USERS[gkKey(kind.group, kind.kind)];
  if (!users) return { refs: [], leftOff: 0 };
  const key = refKey(kind, kind.namespaced ? entry.namespace : '', entry.name);
  const lists: { kind: KindRef; entries: readonly ResourceEntry[] }[] = [];
  for (const gk of users) {
    const found = await reader.indexed(gk, usesKeys, key);
    if (!found) continue;
    const { kind: userKind, entries } = found;
    lists.push({
      kind: userKind,
      entries: TEMPLATE_KINDS.has(gkKey(userKind.group, userKind.kind))
        ? entries.filter((e) => !controlled(e))
        : entries,
    });
  }
  // Each list is in its cache's (namespace, name) order and holds an object once: ordered by
  // resourceType, the refs need no sort, and only the refs shown are built.
  lists.sort((a, b) => compareText(a.kind.resourceType, b.kind.resourceType));
  const refs: RelationRef[] = [];
  let total = 0;
  for (const { kind: userKind, entries } of lists) {
    total += entries.length;
    for (const e of entries) {
      if (refs.length === MAX_REFS) break;
      // Fields compared, not keys built: this runs for up to MAX_REFS users per answer. The index
      // gave only users of this namespace's object, and no two kinds an object can use share a
      // Kind name (USERS), so the name and Kind tell its uses from the others.
      const via = new Set<string>();
      for (const u of factsOf(e).uses)
        if (u.name === entry.name && u.target.kind === kind.kind) via.add(u.via);
      refs.push({ ...entryRef(userKind, e), via: [...via] });
    }
  }
  return { refs, leftOff: total - refs.length };
}

const TEMPLATE_KINDS = new Set(WORKLOADS.map((w) => gkKey(w.group, w.kind)));
