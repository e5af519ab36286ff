/**
 * `selects` and `selectedBy`. A Service, PodDisruptionBudget or NetworkPolicy selects the pods of
 * its namespace its selector matches (facts.ts says which selector means none or all), read
 * through the pod cache's label index (cache/list-queries.ts); an HPA selects its
 * scaleTargetRef and an Ingress its backend Services and resources, looked up by kind and name and
 * marked missing when absent.
 *
 * The inverse: a pod is selected by the Services, PodDisruptionBudgets and NetworkPolicies of its
 * namespace whose selectors match its labels; an object is selected by the HPAs and Ingresses that
 * point at it, read from a kept index of their targets. Only kinds an HPA can scale (the built-in
 * scalable workloads, and any kind outside the built-in groups) look for HPAs, and only Services
 * and such kinds for Ingresses, so a ConfigMap's relations start no HPA or Ingress watch.
 */

import type { RelationRef } from '../../../src-shared/contract/relations-operations';
import { matchesSelector } from '../../../src-shared/kube/selector';
import type { ResourceEntry } from '../cache/entries';
import { resourceRows } from '../cache/list-queries';
import { factsOf, type TargetLink } from './facts';
import { gkKey, INGRESS, isBuiltInGroup, type KindRef, POD, SERVICE, unservedType } from './model';
import type { GroupKind } from './pod-refs';
import { findEntry, type RelationReader } from './reader';
import { absentRef, bounded, entryRef, MAX_REFS, mergeRefs } from './refs';
import { refKey } from './uses';

const SELECTORS: readonly GroupKind[] = [
  SERVICE,
  { group: 'policy', kind: 'PodDisruptionBudget' },
  { group: 'networking.k8s.io', kind: 'NetworkPolicy' },
];
const HPA: GroupKind = { group: 'autoscaling', kind: 'HorizontalPodAutoscaler' };
const SCALABLE = new Set([
  'apps/Deployment',
  'apps/StatefulSet',
  'apps/ReplicaSet',
  '/ReplicationController',
]);

async function resolveTarget(reader: RelationReader, namespace: string, t: TargetLink): Promise<RelationRef> {
  const kind = reader.kindOf(t);
  const cache = await reader.cacheOf(t);
  const via = { via: [t.via] };
  if (!kind || !cache) {
    const type = kind?.resourceType ?? unservedType(t.group, t.kind);
    return { ...absentRef(type, kind?.namespaced === false ? undefined : namespace, t.name, false), ...via };
  }
  const ns = kind.namespaced ? namespace : undefined;
  const found = findEntry(cache, namespace, t.name);
  return found
    ? { ...entryRef(kind, found), ...via }
    : { ...absentRef(kind.resourceType, ns, t.name, true), ...via };
}

export async function selectsOf(
  reader: RelationReader,
  entry: ResourceEntry,
): Promise<{ refs: RelationRef[]; leftOff: number }> {
  const facts = factsOf(entry);
  const targets: RelationRef[] = [];
  for (const t of facts.targets) targets.push(await resolveTarget(reader, entry.namespace, t));
  if (!facts.podSelector) return bounded(targets);
  const pods = await reader.servedCache(POD);
  if (!pods) return bounded(targets);
  // The pods come in the cache's order: only the first MAX_REFS can be shown, so only they are built.
  const selected = resourceRows(pods.read.view, entry.namespace, facts.podSelector);
  const distinctTargets = mergeRefs(targets);
  const all = bounded([
    ...distinctTargets,
    ...selected.slice(0, MAX_REFS).map((p) => entryRef(pods.kind, p)),
  ]);
  return { refs: all.refs, leftOff: distinctTargets.length + selected.length - all.refs.length };
}

const targetKeys = (entry: ResourceEntry): readonly string[] =>
  factsOf(entry).targets.map((t) => refKey(t, entry.namespace, t.name));

export async function selectedByOf(
  reader: RelationReader,
  kind: KindRef,
  entry: ResourceEntry,
): Promise<{ refs: RelationRef[]; leftOff: number }> {
  const refs: RelationRef[] = [];
  if (kind.group === '' && kind.kind === 'Pod') {
    for (const gk of SELECTORS) {
      const cache = await reader.servedCache(gk);
      if (!cache) continue;
      for (const candidate of resourceRows(cache.read.view, entry.namespace, undefined)) {
        const selector = factsOf(candidate).podSelector;
        if (selector && matchesSelector(selector, entry.labels)) refs.push(entryRef(cache.kind, candidate));
      }
    }
  }
  const gk = gkKey(kind.group, kind.kind);
  const custom = !isBuiltInGroup(kind.group);
  const key = refKey(kind, entry.namespace, entry.name);
  for (const p of [HPA, INGRESS]) {
    const pointsHere = p === HPA ? SCALABLE.has(gk) : gk === '/Service';
    if (!pointsHere && !custom) continue;
    const pointing = await reader.indexed(p, targetKeys, key);
    if (!pointing) continue;
    for (const e of pointing.entries) {
      const via = factsOf(e)
        .targets.filter((t) => refKey(t, e.namespace, t.name) === key)
        .map((t) => t.via);
      refs.push({ ...entryRef(pointing.kind, e), via });
    }
  }
  return bounded(refs);
}
