/**
 * An object's dependents: the objects whose ownerReferences name its uid, and theirs, as a tree
 * (Deployment → ReplicaSets → Pods), breadth first, at most MAX_DEPTH levels and MAX_REFS refs in
 * all. Where a bound cuts, the node whose dependents were left out says `truncated: true` (the
 * answer's top level when the first level itself is cut). Children are ordered by resourceType,
 * namespace and name.
 *
 * Which kinds are searched for an owner's dependents (a search of every kind would start a watch
 * of every kind): for a built-in kind, the kinds its controller makes (DEPENDENT_KINDS); for a kind
 * of any other group (an operator's), the COMMON kinds operators make plus every kind of the
 * owner's own group (a Certificate's CertificateRequests). Kinds the cluster does not serve are
 * skipped; kinds that cannot be read are gaps.
 */

import type { DependentRef } from '../../../src-shared/contract/relations-operations';
import type { ResourceEntry } from '../cache/entries';
import { factsOf } from './facts';
import {
  DAEMON_SET,
  DEPLOYMENT,
  isBuiltInGroup,
  JOB,
  type KindRef,
  POD,
  REPLICA_SET,
  SERVICE,
  STATEFUL_SET,
} from './model';
import { CLAIM, CONFIG_MAP, type GroupKind, SECRET } from './pod-refs';
import type { RelationReader } from './reader';
import { compareRefs, entryRef, MAX_REFS } from './refs';

export const MAX_DEPTH = 4;

const REVISION: GroupKind = { group: 'apps', kind: 'ControllerRevision' };
const SLICE: GroupKind = { group: 'discovery.k8s.io', kind: 'EndpointSlice' };

/** What the built-in controllers make, by owner kind (`group/Kind`). */
const DEPENDENT_KINDS: Readonly<Record<string, readonly GroupKind[]>> = {
  'apps/Deployment': [REPLICA_SET],
  'apps/ReplicaSet': [POD],
  'apps/StatefulSet': [POD, REVISION, CLAIM],
  'apps/DaemonSet': [POD, REVISION],
  'batch/Job': [POD],
  'batch/CronJob': [JOB],
  '/ReplicationController': [POD],
  '/Service': [SLICE],
  '/Node': [POD],
  // A generic ephemeral volume's claim is owned by its pod.
  '/Pod': [CLAIM],
};

/** What operators commonly make, searched for an owner of a group that is not built in. */
export const COMMON: readonly GroupKind[] = [
  POD,
  REPLICA_SET,
  JOB,
  CLAIM,
  CONFIG_MAP,
  SECRET,
  SERVICE,
  DEPLOYMENT,
  STATEFUL_SET,
  DAEMON_SET,
];

export function dependentKinds(owner: KindRef, served: readonly KindRef[]): readonly GroupKind[] {
  const listed = DEPENDENT_KINDS[`${owner.group}/${owner.kind}`];
  if (listed) return listed;
  // Only the built-in controllers own a built-in kind: its table entry, or none, is all.
  if (isBuiltInGroup(owner.group)) return [];
  return [...COMMON, ...served.filter((k) => k.group === owner.group)];
}

const ownerKeys = (entry: ResourceEntry): readonly string[] => factsOf(entry).owners.map((o) => o.uid);

interface Frontier {
  readonly kind: KindRef;
  readonly uid: string;
  /** The node whose children these are; undefined for the object itself. */
  readonly node: DependentRef | undefined;
}

async function childrenOf(reader: RelationReader, owner: Frontier) {
  const out: { kind: KindRef; entry: ResourceEntry }[] = [];
  for (const gk of dependentKinds(owner.kind, reader.kinds)) {
    const owned = await reader.indexed(gk, ownerKeys, owner.uid);
    if (owned) for (const entry of owned.entries) out.push({ kind: owned.kind, entry });
  }
  return out;
}

export async function dependentsOf(
  reader: RelationReader,
  kind: KindRef,
  entry: ResourceEntry,
): Promise<{ tree: DependentRef[]; truncated: boolean }> {
  const tree: DependentRef[] = [];
  const rootUid = factsOf(entry).uid;
  if (!rootUid) return { tree, truncated: false };
  const seen = new Set([rootUid]);
  let budget = MAX_REFS;
  let truncated = false;
  const cut = (node: DependentRef | undefined) => {
    truncated = true;
    if (node) node.truncated = true;
  };
  let frontier: Frontier[] = [{ kind, uid: rootUid, node: undefined }];
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: Frontier[] = [];
    for (const owner of frontier) {
      const children = await childrenOf(reader, owner);
      if (children.length === 0) continue;
      if (depth > MAX_DEPTH) {
        cut(owner.node);
        continue;
      }
      const nodes = children.map((c) => ({ ref: entryRef(c.kind, c.entry) as DependentRef, child: c }));
      nodes.sort((a, b) => compareRefs(a.ref, b.ref));
      const list: DependentRef[] = [];
      for (const { ref, child } of nodes) {
        // An object with two owners in the tree is shown under the first; one without a uid
        // (no apiserver makes one) could not be told apart, and is left out.
        const uid = factsOf(child.entry).uid;
        if (uid === undefined || seen.has(uid)) continue;
        if (budget === 0) {
          cut(owner.node);
          break;
        }
        budget--;
        seen.add(uid);
        list.push(ref);
        next.push({ kind: child.kind, uid, node: ref });
      }
      if (list.length === 0) continue;
      if (owner.node) owner.node.children = list;
      else tree.push(...list);
    }
    frontier = next;
  }
  return { tree, truncated };
}
