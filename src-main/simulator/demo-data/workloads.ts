/**
 * Controllers' objects with status consistent with their pods: Deployments (+ ReplicaSets,
 * including an old scaled-down one after a rollout), StatefulSets, DaemonSets, Jobs and
 * CronJobs. ownerReferences chain pod → ReplicaSet → Deployment and pod → Job → CronJob.
 */

import { managedEntry } from '../managed-fields';
import { hash32 } from '../random';
import { MINUTE, rfc3339, SECOND } from '../time';
import type { KubeObject, Labels, OwnerReference, Pod } from '../types';
import type { Gen, NodeInfo } from './context';
import { cronJobName, generatedSuffix, ownedPodName, replicaSetName, templateHash } from './naming';
import { buildPod, type PodState, type PodTemplate, workloadTemplateSpec } from './pods';

export interface WorkloadBase {
  namespace: string;
  name: string;
  labels?: Labels;
  createdAgoMs: number;
  /** Field manager of whoever deployed it: helm, kubectl, argocd-controller... */
  manager: string;
  template: PodTemplate;
  selector: Labels;
}

export interface DeploymentSpec extends WorkloadBase {
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

function ownerRef(obj: KubeObject): OwnerReference {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name,
    uid: obj.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

function spread(gen: Gen, podName: string): NodeInfo {
  const ready = gen.readyNodes();
  return ready[hash32(podName) % ready.length] as NodeInfo;
}

function applyOp(manager: string): 'Apply' | 'Update' {
  return manager === 'kubectl' || manager === 'argocd-controller' ? 'Apply' : 'Update';
}

function workloadMeta(
  gen: Gen,
  kind: string,
  w: WorkloadBase,
  generation: number,
  annotations?: Record<string, string>,
) {
  return {
    name: w.name,
    namespace: w.namespace,
    uid: gen.uid(`${kind}/${w.namespace}/${w.name}`),
    resourceVersion: '',
    generation,
    creationTimestamp: gen.ago(w.createdAgoMs),
    labels: w.labels ?? w.template.labels,
    ...(annotations ? { annotations } : {}),
  };
}

function managed(
  gen: Gen,
  kind: string,
  w: WorkloadBase,
  apiVersion: string,
  spec: unknown,
  status: unknown,
  extraKcm?: unknown,
) {
  const created = gen.ago(w.createdAgoMs);
  return [
    managedEntry({
      manager: w.manager,
      operation: applyOp(w.manager),
      apiVersion,
      time: created,
      owned: { metadata: { labels: w.labels ?? w.template.labels }, spec },
      cacheKey: `${kind}|${w.template.shape ?? w.template.id}|${w.manager}`,
    }),
    ...(extraKcm
      ? [
          managedEntry({
            manager: 'kube-controller-manager',
            apiVersion,
            time: created,
            owned: extraKcm,
            cacheKey: `${kind}|kcm-meta`,
          }),
        ]
      : []),
    managedEntry({
      manager: 'kube-controller-manager',
      apiVersion,
      time: gen.ago(Math.min(w.createdAgoMs, 5 * MINUTE)),
      owned: { status },
      subresource: 'status',
      cacheKey: `${kind}|status|${Object.keys(status as object).join(',')}`,
    }),
  ];
}

function isReady(pod: Pod): boolean {
  return pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
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

export interface StatefulSetSpec extends WorkloadBase {
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

export interface DaemonSetSpec extends WorkloadBase {
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

export interface JobSpec extends Omit<WorkloadBase, 'selector'> {
  state: Extract<PodState, { kind: 'succeeded' | 'failed' | 'running' }>;
  backoffLimit?: number;
  owner?: KubeObject;
  scheduledAt?: number;
}

export function buildJob(gen: Gen, j: JobSpec): { job: KubeObject; pod: Pod } {
  const uid = gen.uid(`Job/${j.namespace}/${j.name}`);
  const jobLabels = {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': j.name,
    'controller-uid': uid,
    'job-name': j.name,
  };
  const podLabels = { ...j.template.labels, ...jobLabels };
  const spec = {
    parallelism: 1,
    completions: 1,
    backoffLimit: j.backoffLimit ?? 6,
    selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
    manualSelector: false,
    template: { metadata: { labels: podLabels }, spec: workloadTemplateSpec(j.template) },
    completionMode: 'NonIndexed',
    suspend: false,
    podReplacementPolicy: 'TerminatingOrFailed',
  };
  const created = gen.now - j.createdAgoMs;
  const job: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      ...workloadMeta(
        gen,
        'Job',
        { ...j, selector: {} },
        1,
        j.scheduledAt
          ? { 'batch.kubernetes.io/cronjob-scheduled-timestamp': rfc3339(j.scheduledAt) }
          : undefined,
      ),
      uid,
      labels: jobLabels,
      ...(j.owner ? { ownerReferences: [ownerRef(j.owner)] } : {}),
    },
    spec,
  };
  gen.add(job);
  const pod = gen.add(
    buildPod(gen, {
      namespace: j.namespace,
      name: ownedPodName(j.namespace, j.name, 0),
      generateName: `${j.name}-`,
      template: j.template,
      labels: podLabels,
      owner: ownerRef(job),
      node: spread(gen, j.name),
      state: j.state,
      createdAgoMs: j.createdAgoMs,
    }),
  );
  const start = rfc3339(created);
  let status: Record<string, unknown>;
  if (j.state.kind === 'succeeded') {
    const done = rfc3339(created + j.state.durationMs + 6 * SECOND);
    status = {
      conditions: [
        {
          type: 'SuccessCriteriaMet',
          status: 'True',
          lastProbeTime: done,
          lastTransitionTime: done,
          reason: 'CompletionsReached',
          message: 'Reached expected number of succeeded pods',
        },
        {
          type: 'Complete',
          status: 'True',
          lastProbeTime: done,
          lastTransitionTime: done,
          reason: 'CompletionsReached',
          message: 'Reached expected number of succeeded pods',
        },
      ],
      startTime: start,
      completionTime: done,
      succeeded: 1,
      terminating: 0,
      uncountedTerminatedPods: {},
      ready: 0,
    };
  } else if (j.state.kind === 'failed') {
    const done = rfc3339(created + j.state.durationMs + 6 * SECOND);
    status = {
      conditions: [
        {
          type: 'FailureTarget',
          status: 'True',
          lastProbeTime: done,
          lastTransitionTime: done,
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        },
        {
          type: 'Failed',
          status: 'True',
          lastProbeTime: done,
          lastTransitionTime: done,
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        },
      ],
      startTime: start,
      failed: 1,
      terminating: 0,
      uncountedTerminatedPods: {},
      ready: 0,
    };
  } else {
    status = { startTime: start, active: 1, terminating: 0, uncountedTerminatedPods: {}, ready: 1 };
  }
  job.status = status;
  job.metadata.managedFields = managed(
    gen,
    'Job',
    { ...j, selector: {}, manager: j.owner ? 'kube-controller-manager' : j.manager },
    'batch/v1',
    spec,
    status,
  );
  return { job, pod };
}

export interface CronJobSpec extends Omit<WorkloadBase, 'selector'> {
  schedule: string;
  /** Past runs, oldest first, each with the scheduled time and the pod state it ended in. */
  runs: { scheduledAt: number; state: JobSpec['state'] }[];
  backoffLimit?: number;
}

export function buildCronJob(
  gen: Gen,
  c: CronJobSpec,
): { cronJob: KubeObject; jobs: KubeObject[]; pods: Pod[] } {
  const spec = {
    schedule: c.schedule,
    timeZone: 'Etc/UTC',
    concurrencyPolicy: 'Forbid',
    suspend: false,
    jobTemplate: {
      metadata: {},
      spec: {
        backoffLimit: c.backoffLimit ?? 0,
        template: { metadata: { labels: c.template.labels }, spec: workloadTemplateSpec(c.template) },
      },
    },
    successfulJobsHistoryLimit: 3,
    failedJobsHistoryLimit: 1,
  };
  const cronJob: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: workloadMeta(gen, 'CronJob', { ...c, selector: {} }, 1),
    spec,
  };
  gen.add(cronJob);
  const jobs: KubeObject[] = [];
  const pods: Pod[] = [];
  for (const run of c.runs) {
    const { job, pod } = buildJob(gen, {
      ...c,
      name: cronJobName(c.name, run.scheduledAt),
      createdAgoMs: gen.now - run.scheduledAt,
      state: run.state,
      backoffLimit: c.backoffLimit ?? 0,
      owner: cronJob,
      scheduledAt: run.scheduledAt,
    });
    jobs.push(job);
    pods.push(pod);
  }
  const last = c.runs[c.runs.length - 1];
  const lastOk = [...c.runs].reverse().find((r) => r.state.kind === 'succeeded');
  const active = c.runs
    .map((r, i) => ({ r, job: jobs[i] as KubeObject }))
    .filter(({ r }) => r.state.kind === 'running')
    .map(({ job }) => ({
      kind: 'Job',
      namespace: c.namespace,
      name: job.metadata.name,
      uid: job.metadata.uid,
      apiVersion: 'batch/v1',
      resourceVersion: job.metadata.resourceVersion,
    }));
  const status = {
    ...(active.length > 0 ? { active } : {}),
    ...(last ? { lastScheduleTime: rfc3339(last.scheduledAt) } : {}),
    ...(lastOk && lastOk.state.kind === 'succeeded'
      ? { lastSuccessfulTime: rfc3339(lastOk.scheduledAt + lastOk.state.durationMs + 6 * SECOND) }
      : {}),
  };
  cronJob.status = status;
  cronJob.metadata.managedFields = managed(gen, 'CronJob', { ...c, selector: {} }, 'batch/v1', spec, status);
  return { cronJob, jobs, pods };
}
