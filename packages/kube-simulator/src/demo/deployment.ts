/**
 * Deployments with their ReplicaSets (including an old one scaled to zero after a rollout)
 * and status consistent with the pods: replicas, availability and the Available,
 * Progressing and ReplicaFailure conditions a real controller would set.
 */

import { MINUTE, SECOND } from '../time';
import type { KubeObject, Pod } from '../types';
import type { Gen, NodeInfo } from './context';
import { generatedSuffix, replicaSetName, templateHash } from './naming';
import { buildPod, type PodState, workloadTemplateSpec } from './pods';
import { isReady, managed, ownerRef, spread, type WorkloadBase, workloadMeta } from './workload-common';

interface DeploymentSpec extends WorkloadBase {
  replicas: number;
  strategy: 'RollingUpdate' | 'Recreate';
  states?: PodState[];
  revision?: number;
  /** When the current revision rolled out (defaults to creation, or half the age after revision 1). */
  rolledOutAgoMs?: number;
  /** Places every pod on this node instead of spreading. */
  node?: NodeInfo;
  progressDeadlineExceeded?: boolean;
  replicaFailure?: string;
}

function deployCondition(type: string, status: string, reason: string, message: string, at: string) {
  return { type, status, lastUpdateTime: at, lastTransitionTime: at, reason, message };
}

export function buildDeployment(gen: Gen, d: DeploymentSpec): Pod[] {
  const revision = d.revision ?? 1;
  const hash = templateHash(d.namespace, d.name, revision);
  const rsName = replicaSetName(d.namespace, d.name, revision);
  const tplSpec = workloadTemplateSpec(d.template);
  const strategy =
    d.strategy === 'Recreate'
      ? { type: 'Recreate' }
      : { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } };
  const spec = {
    replicas: d.replicas,
    selector: { matchLabels: d.selector },
    template: { metadata: { labels: d.template.labels }, spec: tplSpec },
    strategy,
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
  };
  const deployment: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: workloadMeta(gen, 'Deployment', d, revision, {
      'deployment.kubernetes.io/revision': String(revision),
    }),
    spec,
    status: {},
  };
  gen.add(deployment);

  const rollout =
    d.rolledOutAgoMs ?? (revision > 1 ? Math.min(d.createdAgoMs / 2, 2 * 24 * 60 * MINUTE) : d.createdAgoMs);
  const rsMeta = (name: string, h: string, rev: number, createdAgo: number) => ({
    name,
    namespace: d.namespace,
    uid: gen.uid(`ReplicaSet/${d.namespace}/${name}`),
    resourceVersion: '',
    generation: rev === revision ? 1 : 2,
    creationTimestamp: gen.ago(createdAgo),
    labels: { ...d.template.labels, 'pod-template-hash': h },
    annotations: {
      'deployment.kubernetes.io/desired-replicas': String(d.replicas),
      'deployment.kubernetes.io/max-replicas': String(
        d.replicas + (d.strategy === 'Recreate' ? 0 : Math.ceil(d.replicas * 0.25)),
      ),
      'deployment.kubernetes.io/revision': String(rev),
    },
    ownerReferences: [ownerRef(deployment)],
  });
  const rsSpec = (h: string, replicas: number) => ({
    replicas,
    selector: { matchLabels: { ...d.selector, 'pod-template-hash': h } },
    template: { metadata: { labels: { ...d.template.labels, 'pod-template-hash': h } }, spec: tplSpec },
  });
  if (revision > 1) {
    const oldHash = templateHash(d.namespace, d.name, revision - 1);
    const oldName = replicaSetName(d.namespace, d.name, revision - 1);
    const oldStatus = { replicas: 0, observedGeneration: 2 };
    gen.add({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        ...rsMeta(oldName, oldHash, revision - 1, d.createdAgoMs),
        managedFields: managed(gen, 'ReplicaSet', d, 'apps/v1', rsSpec(oldHash, 0), oldStatus),
      },
      spec: rsSpec(oldHash, 0),
      status: oldStatus,
    });
  }
  const rs: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: rsMeta(rsName, hash, revision, rollout),
    spec: rsSpec(hash, d.replicas),
  };
  gen.add(rs);

  const podLabels = { ...d.template.labels, 'pod-template-hash': hash };
  const pods: Pod[] = [];
  const podCount = d.replicaFailure ? 0 : d.replicas;
  for (let i = 0; i < podCount; i++) {
    const name = `${rsName}-${generatedSuffix(d.namespace, rsName, i)}`;
    const state = d.states?.[i] ?? { kind: 'running' };
    pods.push(
      gen.add(
        buildPod(gen, {
          namespace: d.namespace,
          name,
          generateName: `${rsName}-`,
          template: d.template,
          labels: podLabels,
          owner: ownerRef(rs),
          node: d.node ?? spread(gen, name),
          state,
          createdAgoMs: Math.min(rollout, d.createdAgoMs) - i * 3 * SECOND,
        }),
      ),
    );
  }
  const ready = pods.filter(isReady).length;
  const rsStatus = {
    replicas: pods.length,
    fullyLabeledReplicas: pods.length,
    ...(ready > 0 ? { readyReplicas: ready, availableReplicas: ready } : {}),
    observedGeneration: 1,
    ...(d.replicaFailure
      ? {
          conditions: [
            {
              type: 'ReplicaFailure',
              status: 'True',
              lastTransitionTime: gen.ago(d.createdAgoMs - SECOND),
              reason: 'FailedCreate',
              message: d.replicaFailure,
            },
          ],
        }
      : {}),
  };
  rs.status = rsStatus;
  rs.metadata.managedFields = managed(gen, 'ReplicaSet', d, 'apps/v1', rsSpec(hash, d.replicas), rsStatus);

  const maxUnavailable = d.strategy === 'Recreate' ? 0 : Math.floor(d.replicas * 0.25);
  const available = ready >= d.replicas - maxUnavailable;
  const at = gen.ago(Math.min(rollout, 10 * MINUTE));
  const conditions = [
    available
      ? deployCondition(
          'Available',
          'True',
          'MinimumReplicasAvailable',
          'Deployment has minimum availability.',
          at,
        )
      : deployCondition(
          'Available',
          'False',
          'MinimumReplicasUnavailable',
          'Deployment does not have minimum availability.',
          at,
        ),
    d.progressDeadlineExceeded
      ? deployCondition(
          'Progressing',
          'False',
          'ProgressDeadlineExceeded',
          `ReplicaSet "${rsName}" has timed out progressing.`,
          at,
        )
      : ready === d.replicas
        ? deployCondition(
            'Progressing',
            'True',
            'NewReplicaSetAvailable',
            `ReplicaSet "${rsName}" has successfully progressed.`,
            at,
          )
        : deployCondition(
            'Progressing',
            'True',
            'ReplicaSetUpdated',
            `ReplicaSet "${rsName}" is progressing.`,
            at,
          ),
    ...(d.replicaFailure
      ? [deployCondition('ReplicaFailure', 'True', 'FailedCreate', d.replicaFailure, at)]
      : []),
  ];
  const status = {
    observedGeneration: revision,
    ...(pods.length > 0 ? { replicas: pods.length, updatedReplicas: pods.length } : {}),
    ...(ready > 0 ? { readyReplicas: ready, availableReplicas: ready } : {}),
    ...(d.replicas - ready > 0 ? { unavailableReplicas: d.replicas - ready } : {}),
    conditions,
  };
  deployment.status = status;
  deployment.metadata.managedFields = managed(gen, 'Deployment', d, 'apps/v1', spec, status, {
    metadata: { annotations: { 'deployment.kubernetes.io/revision': '' } },
  });
  return pods;
}
