/** StatefulSets (stable pod names, headless service) and DaemonSets (one pod per node). */

import { SECOND } from '../time';
import type { KubeObject, Pod } from '../types';
import type { Gen, NodeInfo } from './context';
import { ownedPodName, templateHash } from './naming';
import { buildPod, type PodState, workloadTemplateSpec } from './pods';
import { isReady, managed, ownerRef, spread, type WorkloadBase, workloadMeta } from './workload-common';

interface StatefulSetSpec extends WorkloadBase {
  replicas: number;
  serviceName: string;
  states?: PodState[];
  storage?: string;
}

export function buildStatefulSet(gen: Gen, s: StatefulSetSpec): Pod[] {
  const revision = `${s.name}-${templateHash(s.namespace, s.name, 1)}`;
  const tplSpec = workloadTemplateSpec(s.template);
  const spec = {
    replicas: s.replicas,
    selector: { matchLabels: s.selector },
    template: { metadata: { labels: s.template.labels }, spec: tplSpec },
    serviceName: s.serviceName,
    podManagementPolicy: 'OrderedReady',
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
    revisionHistoryLimit: 10,
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    ...(s.storage
      ? {
          volumeClaimTemplates: [
            {
              apiVersion: 'v1',
              kind: 'PersistentVolumeClaim',
              metadata: { name: 'data' },
              spec: {
                accessModes: ['ReadWriteOnce'],
                resources: { requests: { storage: s.storage } },
                volumeMode: 'Filesystem',
              },
              status: { phase: 'Pending' },
            },
          ],
        }
      : {}),
  };
  const sts: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: workloadMeta(gen, 'StatefulSet', s, 1),
    spec,
  };
  gen.add(sts);
  const pods: Pod[] = [];
  for (let i = 0; i < s.replicas; i++) {
    const name = `${s.name}-${i}`;
    pods.push(
      gen.add(
        buildPod(gen, {
          namespace: s.namespace,
          name,
          generateName: `${s.name}-`,
          template: s.template,
          labels: {
            ...s.template.labels,
            'apps.kubernetes.io/pod-index': String(i),
            'controller-revision-hash': revision,
            'statefulset.kubernetes.io/pod-name': name,
          },
          owner: ownerRef(sts),
          node: spread(gen, name),
          state: s.states?.[i] ?? { kind: 'running' },
          createdAgoMs: s.createdAgoMs - i * 20 * SECOND,
          hostname: name,
          subdomain: s.serviceName,
        }),
      ),
    );
  }
  const ready = pods.filter(isReady).length;
  const status = {
    observedGeneration: 1,
    replicas: s.replicas,
    readyReplicas: ready,
    currentReplicas: s.replicas,
    updatedReplicas: s.replicas,
    currentRevision: revision,
    updateRevision: revision,
    collisionCount: 0,
    availableReplicas: ready,
  };
  sts.status = status;
  sts.metadata.managedFields = managed(gen, 'StatefulSet', s, 'apps/v1', spec, status);
  return pods;
}

interface DaemonSetSpec extends WorkloadBase {
  /** Pods on NotReady nodes keep running but are reported not ready. */
  nodes: NodeInfo[];
}

export function buildDaemonSet(gen: Gen, ds: DaemonSetSpec): Pod[] {
  const revisionHash = templateHash(ds.namespace, ds.name, 1);
  const tplSpec = workloadTemplateSpec(ds.template);
  const spec = {
    selector: { matchLabels: ds.selector },
    template: { metadata: { labels: ds.template.labels }, spec: tplSpec },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    revisionHistoryLimit: 10,
  };
  const obj: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: workloadMeta(gen, 'DaemonSet', ds, 1),
    spec,
  };
  gen.add(obj);
  const pods = ds.nodes.map((node, i) =>
    gen.add(
      buildPod(gen, {
        namespace: ds.namespace,
        name: ownedPodName(ds.namespace, ds.name, i),
        generateName: `${ds.name}-`,
        template: ds.template,
        labels: {
          ...ds.template.labels,
          'controller-revision-hash': revisionHash,
          'pod-template-generation': '1',
        },
        owner: ownerRef(obj),
        node,
        state: node.ready ? { kind: 'running' } : { kind: 'node-lost' },
        createdAgoMs: ds.createdAgoMs - i * SECOND,
        extraSpec: {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchFields: [{ key: 'metadata.name', operator: 'In', values: [node.name] }] },
                ],
              },
            },
          },
        },
      }),
    ),
  );
  const ready = pods.filter(isReady).length;
  const status = {
    currentNumberScheduled: pods.length,
    numberMisscheduled: 0,
    desiredNumberScheduled: pods.length,
    numberReady: ready,
    observedGeneration: 1,
    updatedNumberScheduled: pods.length,
    numberAvailable: ready,
    ...(pods.length - ready > 0 ? { numberUnavailable: pods.length - ready } : {}),
  };
  obj.status = status;
  obj.metadata.managedFields = managed(gen, 'DaemonSet', ds, 'apps/v1', spec, status);
  return pods;
}
