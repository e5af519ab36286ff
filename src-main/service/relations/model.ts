/**
 * What relations read, and from where: kinds as discovery names them, and each kind's watch cache
 * as a stream of immutable views (cache/collection.ts). The service's source is the cluster
 * connection (cluster-source.ts); tests give Collections of their own. Nothing here reads a
 * cluster per request: a source answers from caches it keeps. The built-in kinds several relations
 * name are spelt here once, with the rule for which groups only built-in controllers act in.
 */

import type { CollectionView } from '../cache/collection';
import type { ResourceEntry } from '../cache/entries';
import type { GroupKind } from './pod-refs';

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

/** Built-in kinds that more than one relation names (owners' children, users, selectors), spelt once. */
export const POD: GroupKind = { group: '', kind: 'Pod' };
export const SERVICE: GroupKind = { group: '', kind: 'Service' };
export const INGRESS: GroupKind = { group: 'networking.k8s.io', kind: 'Ingress' };
export const DEPLOYMENT: GroupKind = { group: 'apps', kind: 'Deployment' };
export const STATEFUL_SET: GroupKind = { group: 'apps', kind: 'StatefulSet' };
export const DAEMON_SET: GroupKind = { group: 'apps', kind: 'DaemonSet' };
export const REPLICA_SET: GroupKind = { group: 'apps', kind: 'ReplicaSet' };
export const JOB: GroupKind = { group: 'batch', kind: 'Job' };

/** The built-in kinds with a pod template. */
export const WORKLOADS: readonly GroupKind[] = [
  DEPLOYMENT,
  STATEFUL_SET,
  DAEMON_SET,
  REPLICA_SET,
  JOB,
  { group: 'batch', kind: 'CronJob' },
  { group: '', kind: 'ReplicationController' },
];

const BUILT_IN_GROUP = /^$|^apps$|^batch$|^policy$|^autoscaling$|\.k8s\.io$/;

/**
 * A group whose kinds only the built-in controllers make, own and scale: its kinds' relations are
 * the known ones; a kind of any other group (an operator's) may relate to anything.
 */
export const isBuiltInGroup = (group: string): boolean => BUILT_IN_GROUP.test(group);
