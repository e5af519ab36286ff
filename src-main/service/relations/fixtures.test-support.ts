/**
 * Test support: a RelationSource over real Collections filled from fixture objects, with the kinds
 * a 1.31 cluster serves plus two custom ones, kinds that fail to read, and kinds left unserved.
 * Objects are added in the order given: tests give them out of the answer's order on purpose.
 */

import type { KubeObject } from '../../../src-shared/contract/models';
import { Collection } from '../cache/collection';
import { compareResources, labelKeys, type ResourceEntry, resourceEntry } from '../cache/entries';
import { ProblemError } from '../errors';
import { groupOf } from './json';
import type { KindRead, KindRef, RelationSource } from './model';

const k = (resourceType: string, kind: string, group: string, namespaced = true): KindRef => ({
  resourceType,
  kind,
  group,
  namespaced,
});

export const KINDS: readonly KindRef[] = [
  k('pod', 'Pod', ''),
  k('configmap', 'ConfigMap', ''),
  k('secret', 'Secret', ''),
  k('persistentvolumeclaim', 'PersistentVolumeClaim', ''),
  k('persistentvolume', 'PersistentVolume', '', false),
  k('serviceaccount', 'ServiceAccount', ''),
  k('service', 'Service', ''),
  k('node', 'Node', '', false),
  k('namespace', 'Namespace', '', false),
  k('replicationcontroller', 'ReplicationController', ''),
  k('deployment', 'Deployment', 'apps'),
  k('replicaset', 'ReplicaSet', 'apps'),
  k('statefulset', 'StatefulSet', 'apps'),
  k('daemonset', 'DaemonSet', 'apps'),
  k('controllerrevision', 'ControllerRevision', 'apps'),
  k('job', 'Job', 'batch'),
  k('cronjob', 'CronJob', 'batch'),
  k('storageclass', 'StorageClass', 'storage.k8s.io', false),
  k('priorityclass', 'PriorityClass', 'scheduling.k8s.io', false),
  k('poddisruptionbudget', 'PodDisruptionBudget', 'policy'),
  k('networkpolicy', 'NetworkPolicy', 'networking.k8s.io'),
  k('ingress', 'Ingress', 'networking.k8s.io'),
  k('ingressclass', 'IngressClass', 'networking.k8s.io', false),
  k('horizontalpodautoscaler', 'HorizontalPodAutoscaler', 'autoscaling'),
  k('endpointslice', 'EndpointSlice', 'discovery.k8s.io'),
  k('certificate', 'Certificate', 'cert-manager.io'),
  k('certificaterequest', 'CertificateRequest', 'cert-manager.io'),
  k('clusterissuer', 'ClusterIssuer', 'cert-manager.io', false),
];

export class FixtureSource implements RelationSource {
  readonly collections = new Map<KindRef, Collection<ResourceEntry>>();
  /** Kinds whose reads fail, with the problem they fail with. */
  readonly failing = new Map<string, unknown>();
  /** Kinds whose reads are stale since this time. */
  readonly stale = new Map<string, string>();
  /** Every kind read, in order, once per read. */
  readonly reads: string[] = [];

  constructor(
    objects: readonly KubeObject[] = [],
    readonly served: readonly KindRef[] = KINDS,
  ) {
    for (const kind of served)
      this.collections.set(kind, new Collection(compareResources, { label: labelKeys }));
    for (const o of objects) this.upsert(o);
  }

  kindOfObject(obj: KubeObject): KindRef {
    const group = groupOf(obj.apiVersion);
    const kind = this.served.find((x) => x.group === group && x.kind === obj.kind);
    if (!kind) throw new Error(`fixture of a kind not served: ${obj.apiVersion} ${obj.kind}`);
    return kind;
  }

  upsert(obj: KubeObject): void {
    const kind = this.kindOfObject(obj);
    this.collections.get(kind)!.upsert(resourceEntry(obj, obj.apiVersion ?? 'v1', obj.kind ?? ''));
  }

  delete(obj: KubeObject): void {
    const kind = this.kindOfObject(obj);
    this.collections
      .get(kind)!
      .delete(`${kind.namespaced ? (obj.metadata.namespace ?? '') : ''}/${obj.metadata.name}`);
  }

  async kinds(): Promise<readonly KindRef[]> {
    return this.served;
  }

  async read(kind: KindRef): Promise<KindRead> {
    this.reads.push(kind.resourceType);
    const failure = this.failing.get(kind.resourceType);
    if (failure) throw failure;
    const collection = this.collections.get(kind);
    if (!collection) throw new Error(`not a served kind: ${kind.resourceType}`);
    const staleSince = this.stale.get(kind.resourceType);
    return { collection, view: collection.view(), ...(staleSince ? { staleSince } : {}) };
  }
}

export const forbidden = (what: string) =>
  new ProblemError('cluster_unauthorized', `the cluster refused to list ${what} (403)`);

let uids = 0;
/** A fixture object: metadata with a fresh uid unless given, and whatever else the test says. */
export function obj(
  apiVersion: string,
  kind: string,
  name: string,
  namespace: string | undefined,
  rest: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      uid: `uid-${kind.toLowerCase()}-${name}-${++uids}`,
      ...metadata,
    },
    ...rest,
  } as KubeObject;
}

/** An ownerReference to `owner`. */
export function ownedBy(owner: KubeObject, controller = true): Record<string, unknown> {
  return {
    ownerReferences: [
      {
        apiVersion: owner.apiVersion,
        kind: owner.kind,
        name: owner.metadata.name,
        uid: owner.metadata.uid,
        ...(controller ? { controller: true } : {}),
      },
    ],
  };
}
