/**
 * Pod construction: spec from a shared template, status from a PodState describing what the
 * kubelet would report (running, crash-looping, stuck pulling, unschedulable, completed...).
 * Replicas share their spec sub-objects; the store never mutates stored objects in place.
 */

import { managedEntry } from '../managed-fields';
import { instanceContainerId } from '../pod-lifecycle';
import { imageDigestFor, safeSuffix } from '../random';
import { rfc3339, SECOND } from '../time';
import type { ContainerStatus, Labels, OwnerReference, Pod, PodCondition, PodStatus } from '../types';
import type { Gen, NodeInfo } from './context';
import type { LogProfileId } from './log-profiles';

export interface ContainerTemplate {
  name: string;
  image: string;
  log: LogProfileId;
  ports?: { name?: string; containerPort: number; protocol?: 'TCP' | 'UDP' }[];
  requests?: Record<string, string>;
  limits?: Record<string, string>;
  readiness?: { path: string; port: number };
  liveness?: { path: string; port: number };
  env?: Record<string, unknown>[];
  args?: string[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}

export interface PodTemplate {
  /** Unique per template. */
  id: string;
  /** Templates with the same field structure share managedFields tries (defaults to id). */
  shape?: string;
  labels: Labels;
  containers: ContainerTemplate[];
  initContainers?: ContainerTemplate[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  volumes?: Record<string, unknown>[];
  tolerateEverything?: boolean;
  priorityClassName?: string;
}

export interface LastExit {
  exitCode: number;
  reason: string;
  /** When the current instance started (the previous one died just before). */
  agoMs: number;
}

export type PodState =
  | { kind: 'running'; restarts?: number; lastExit?: LastExit; ready?: boolean; startedAgoMs?: number }
  | { kind: 'unschedulable'; message: string }
  | { kind: 'errimagepull'; message: string }
  | { kind: 'imagepullbackoff'; message: string }
  | { kind: 'crashloop'; restarts: number; exitCode: number; lastFinishedAgoMs: number }
  | { kind: 'containercreating' }
  | { kind: 'configerror'; message: string }
  | { kind: 'succeeded'; durationMs: number }
  | { kind: 'failed'; exitCode: number; durationMs: number }
  | { kind: 'node-lost' };

export interface PodPlan {
  namespace: string;
  name: string;
  generateName?: string;
  template: PodTemplate;
  labels?: Labels;
  owner?: OwnerReference;
  node: NodeInfo | undefined;
  state: PodState;
  createdAgoMs: number;
  hostname?: string;
  subdomain?: string;
  /** Per-pod spec additions (DaemonSet pods pin themselves to a node with affinity). */
  extraSpec?: Record<string, unknown>;
  annotations?: Record<string, string>;
}

// Keyed by template object: templates are rebuilt per generation run (seeds may differ).
const specCache = new WeakMap<PodTemplate, Record<string, unknown>>();

function probe(p: { path: string; port: number }, period: number) {
  return {
    httpGet: { path: p.path, port: p.port, scheme: 'HTTP' },
    timeoutSeconds: 1,
    periodSeconds: period,
    successThreshold: 1,
    failureThreshold: 3,
  };
}

function containerSpec(c: ContainerTemplate, tokenVolume: string) {
  const resources: Record<string, unknown> = {};
  if (c.limits) resources.limits = c.limits;
  if (c.requests) resources.requests = c.requests;
  return {
    name: c.name,
    image: c.image,
    ...(c.args ? { args: c.args } : {}),
    ...(c.ports ? { ports: c.ports.map((p) => ({ ...p, protocol: p.protocol ?? 'TCP' })) } : {}),
    ...(c.env ? { env: c.env } : {}),
    resources,
    volumeMounts: [
      ...(c.volumeMounts ?? []),
      { name: tokenVolume, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
    ],
    ...(c.liveness ? { livenessProbe: probe(c.liveness, 10) } : {}),
    ...(c.readiness ? { readinessProbe: probe(c.readiness, 5) } : {}),
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: c.image.endsWith(':latest') ? 'Always' : 'IfNotPresent',
  };
}

const BASE_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];
const DAEMON_TOLERATIONS = [
  { operator: 'Exists' },
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
];

/** The template part of a pod spec (no nodeName), shared by all replicas. */
export function templateSpec(t: PodTemplate): Record<string, unknown> {
  const hit = specCache.get(t);
  if (hit) return hit;
  const tokenVolume = `kube-api-access-${safeSuffix(t.id, 5)}`;
  const sa = t.serviceAccountName ?? 'default';
  const spec = {
    volumes: [
      ...(t.volumes ?? []),
      {
        name: tokenVolume,
        projected: {
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: {
                items: [
                  { path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
                ],
              },
            },
          ],
          defaultMode: 420,
        },
      },
    ],
    ...(t.initContainers
      ? { initContainers: t.initContainers.map((c) => containerSpec(c, tokenVolume)) }
      : {}),
    containers: t.containers.map((c) => containerSpec(c, tokenVolume)),
    restartPolicy: t.restartPolicy ?? 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    ...(t.nodeSelector ? { nodeSelector: t.nodeSelector } : {}),
    serviceAccountName: sa,
    serviceAccount: sa,
    securityContext: {},
    schedulerName: 'default-scheduler',
    tolerations: t.tolerateEverything ? DAEMON_TOLERATIONS : BASE_TOLERATIONS,
    ...(t.priorityClassName
      ? { priorityClassName: t.priorityClassName, priority: 2000001000 }
      : { priority: 0 }),
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
  };
  specCache.set(t, spec);
  return spec;
}

const workloadSpecCache = new WeakMap<PodTemplate, Record<string, unknown>>();

/** The pod template as stored in a workload: before admission adds tokens and tolerations. */
export function workloadTemplateSpec(t: PodTemplate): Record<string, unknown> {
  const hit = workloadSpecCache.get(t);
  if (hit) return hit;
  const strip = (c: ContainerTemplate) => {
    const { volumeMounts, ...rest } = containerSpec(c, '');
    const own = volumeMounts.slice(0, -1);
    return own.length > 0 ? { ...rest, volumeMounts: own } : rest;
  };
  const spec = {
    ...(t.volumes ? { volumes: t.volumes } : {}),
    ...(t.initContainers ? { initContainers: t.initContainers.map(strip) } : {}),
    containers: t.containers.map(strip),
    restartPolicy: t.restartPolicy ?? 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    ...(t.nodeSelector ? { nodeSelector: t.nodeSelector } : {}),
    ...(t.serviceAccountName
      ? { serviceAccountName: t.serviceAccountName, serviceAccount: t.serviceAccountName }
      : {}),
    securityContext: {},
    schedulerName: 'default-scheduler',
    ...(t.tolerateEverything ? { tolerations: [{ operator: 'Exists' }] } : {}),
    ...(t.priorityClassName ? { priorityClassName: t.priorityClassName } : {}),
  };
  workloadSpecCache.set(t, spec);
  return spec;
}

function qosClass(t: PodTemplate): string {
  const all = [...t.containers, ...(t.initContainers ?? [])];
  if (all.every((c) => !c.requests && !c.limits)) return 'BestEffort';
  const guaranteed = all.every(
    (c) =>
      c.limits?.cpu &&
      c.limits.memory &&
      (!c.requests || (c.requests.cpu === c.limits.cpu && c.requests.memory === c.limits.memory)),
  );
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function cond(
  type: string,
  status: PodCondition['status'],
  at: string,
  reason?: string,
  message?: string,
): PodCondition {
  return {
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime: at,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

function imageId(image: string): string {
  const repo = image.replace(/:[^:/]+$/, '');
  return `${repo}@${imageDigestFor(image)}`;
}

const podIps = new WeakMap<Gen, Map<string, number>>();

function podIp(gen: Gen, node: NodeInfo): string {
  let perNode = podIps.get(gen);
  if (!perNode) {
    perNode = new Map();
    podIps.set(gen, perNode);
  }
  const n = (perNode.get(node.name) ?? 0) + 1;
  perNode.set(node.name, n);
  return `10.244.${node.index % 256}.${(n % 253) + 2}`;
}

export function buildPod(gen: Gen, plan: PodPlan): Pod {
  const { template: t, state, node } = plan;
  const created = gen.now - plan.createdAgoMs;
  const uid = gen.uid(`pod/${plan.namespace}/${plan.name}`);
  const metadata = {
    name: plan.name,
    ...(plan.generateName ? { generateName: plan.generateName } : {}),
    namespace: plan.namespace,
    uid,
    resourceVersion: '',
    creationTimestamp: rfc3339(created),
    labels: plan.labels ?? t.labels,
    ...(plan.annotations ? { annotations: plan.annotations } : {}),
    ...(plan.owner ? { ownerReferences: [plan.owner] } : {}),
  };
  const shared = templateSpec(t);
  const spec = {
    ...shared,
    ...(node && state.kind !== 'unschedulable' ? { nodeName: node.name } : {}),
    ...(plan.hostname ? { hostname: plan.hostname, subdomain: plan.subdomain } : {}),
    ...plan.extraSpec,
  };
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    spec,
    status: { phase: 'Pending' },
  } as unknown as Pod;
  pod.status = podStatus(gen, pod, plan, created);
  for (const c of [...t.containers, ...(t.initContainers ?? [])])
    gen.setLogProfile(plan.namespace, plan.name, c.name, c.log);
  const createdTs = rfc3339(created);
  const statusTime = rfc3339(Math.min(gen.now, statusChangedAt(gen, plan, created)));
  const specOwner = plan.owner ? 'kube-controller-manager' : 'kubectl-run';
  pod.metadata.managedFields = [
    managedEntry({
      manager: specOwner,
      apiVersion: 'v1',
      time: createdTs,
      owned: {
        metadata: {
          generateName: plan.generateName,
          labels: metadata.labels,
          ownerReferences: metadata.ownerReferences,
        },
        spec: shared,
      },
      cacheKey: `pod-spec|${t.shape ?? t.id}|${specOwner}|${Object.keys(metadata.labels).join(',')}`,
    }),
    state.kind === 'unschedulable'
      ? managedEntry({
          manager: 'kube-scheduler',
          apiVersion: 'v1',
          time: statusTime,
          owned: { status: { conditions: pod.status.conditions } },
          subresource: 'status',
          cacheKey: 'pod-status|scheduler',
        })
      : managedEntry({
          manager: 'kubelet',
          apiVersion: 'v1',
          time: statusTime,
          owned: { status: pod.status },
          subresource: 'status',
          cacheKey: `pod-status|${t.shape ?? t.id}|${state.kind}|${'lastExit' in state && state.lastExit ? 'last' : ''}`,
        }),
  ];
  return pod;
}

function statusChangedAt(gen: Gen, plan: PodPlan, created: number): number {
  const s = plan.state;
  if (s.kind === 'crashloop') return gen.now - s.lastFinishedAgoMs;
  if (s.kind === 'running' && s.lastExit) return gen.now - s.lastExit.agoMs + 5 * SECOND;
  return created + 8 * SECOND;
}

function podStatus(gen: Gen, pod: Pod, plan: PodPlan, created: number): PodStatus {
  const { state, node, template: t } = plan;
  const at = (ms: number) => rfc3339(ms);
  const scheduledAt = created + SECOND;
  const qos = qosClass(t);
  if (state.kind === 'unschedulable' || !node) {
    return {
      phase: 'Pending',
      conditions: [
        cond(
          'PodScheduled',
          'False',
          at(scheduledAt),
          'Unschedulable',
          state.kind === 'unschedulable' ? state.message : undefined,
        ),
      ],
      qosClass: qos,
    };
  }
  const ip = podIp(gen, node);
  const startedAt = created + 4 * SECOND + gen.rng.int(0, 4000);
  const inits = (t.initContainers ?? []).map((c, i) =>
    terminatedStatus(pod, c, 0, 'Completed', scheduledAt + 2 * SECOND, startedAt - 500 * (i + 1), 0),
  );
  const containers = t.containers.map((c, i) => containerStatus(gen, pod, c, state, i === 0, startedAt));
  const ready = containers.every((c) => c.ready);
  const notReady = containers.filter((c) => !c.ready).map((c) => c.name);
  const readyAt = at(
    state.kind === 'running' && state.startedAgoMs !== undefined
      ? gen.now - state.startedAgoMs + 5 * SECOND
      : startedAt + 5 * SECOND,
  );
  const finished = state.kind === 'succeeded' || state.kind === 'failed';
  const waitingBeforeStart =
    state.kind === 'errimagepull' ||
    state.kind === 'imagepullbackoff' ||
    state.kind === 'containercreating' ||
    state.kind === 'configerror';
  const phase: PodStatus['phase'] =
    state.kind === 'succeeded'
      ? 'Succeeded'
      : state.kind === 'failed'
        ? 'Failed'
        : waitingBeforeStart
          ? 'Pending'
          : 'Running';
  const completedReason =
    state.kind === 'succeeded' ? 'PodCompleted' : state.kind === 'failed' ? 'PodFailed' : undefined;
  const unready = completedReason ?? 'ContainersNotReady';
  const unreadyMsg = completedReason ? undefined : `containers with unready status: [${notReady.join(' ')}]`;
  return {
    phase,
    conditions: [
      cond(
        'PodReadyToStartContainers',
        finished || state.kind === 'containercreating' ? 'False' : 'True',
        at(startedAt - 2 * SECOND),
      ),
      cond(
        'Initialized',
        'True',
        at(startedAt - SECOND),
        completedReason === 'PodCompleted' ? 'PodCompleted' : undefined,
      ),
      ready && !finished
        ? cond('Ready', 'True', readyAt)
        : cond('Ready', 'False', readyAt, unready, unreadyMsg),
      ready && !finished
        ? cond('ContainersReady', 'True', readyAt)
        : cond('ContainersReady', 'False', readyAt, unready, unreadyMsg),
      cond('PodScheduled', 'True', at(scheduledAt)),
    ],
    hostIP: node.ip,
    hostIPs: [{ ip: node.ip }],
    ...(state.kind === 'containercreating' ? {} : { podIP: ip, podIPs: [{ ip }] }),
    startTime: at(scheduledAt),
    ...(inits.length > 0 ? { initContainerStatuses: inits } : {}),
    containerStatuses: containers,
    qosClass: qos,
  };
}

function terminatedStatus(
  pod: Pod,
  c: ContainerTemplate,
  exitCode: number,
  reason: string,
  startedAt: number,
  finishedAt: number,
  restartCount: number,
): ContainerStatus {
  const containerID = instanceContainerId(pod, c.name, restartCount);
  return {
    name: c.name,
    state: {
      terminated: {
        exitCode,
        reason,
        startedAt: rfc3339(startedAt),
        finishedAt: rfc3339(finishedAt),
        containerID,
      },
    },
    lastState: {},
    // Completed init containers report ready; callers override this for finished main containers.
    ready: exitCode === 0,
    restartCount,
    image: c.image,
    imageID: imageId(c.image),
    containerID,
    started: false,
  };
}

function containerStatus(
  gen: Gen,
  pod: Pod,
  c: ContainerTemplate,
  state: PodState,
  primary: boolean,
  startedAt: number,
): ContainerStatus {
  const base = { name: c.name, image: c.image, imageID: imageId(c.image) };
  const running = (
    restarts: number,
    since: number,
    ready: boolean,
    lastState: ContainerStatus['lastState'] = {},
  ): ContainerStatus => ({
    ...base,
    state: { running: { startedAt: rfc3339(since) } },
    lastState,
    ready,
    restartCount: restarts,
    containerID: instanceContainerId(pod, c.name, restarts),
    started: true,
  });
  const waiting = (reason: string, message?: string): ContainerStatus => ({
    ...base,
    imageID: '',
    state: { waiting: { reason, ...(message ? { message } : {}) } },
    lastState: {},
    ready: false,
    restartCount: 0,
    started: false,
  });
  switch (state.kind) {
    case 'errimagepull':
      return waiting('ErrImagePull', state.message);
    case 'imagepullbackoff':
      return waiting('ImagePullBackOff', state.message);
    case 'containercreating':
      return waiting('ContainerCreating');
    case 'configerror':
      return primary
        ? { ...waiting('CreateContainerConfigError', state.message), imageID: base.imageID }
        : running(0, startedAt, true);
    case 'succeeded':
      return {
        ...terminatedStatus(pod, c, 0, 'Completed', startedAt, startedAt + state.durationMs, 0),
        ready: false,
      };
    case 'failed':
      return {
        ...terminatedStatus(pod, c, state.exitCode, 'Error', startedAt, startedAt + state.durationMs, 0),
        ready: false,
      };
    case 'node-lost':
      return running(0, startedAt, false);
    case 'crashloop': {
      if (!primary) return running(0, startedAt, true);
      const finishedAt = gen.now - state.lastFinishedAgoMs;
      const lastId = instanceContainerId(pod, c.name, state.restarts - 1);
      return {
        ...base,
        state: {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: `back-off 5m0s restarting failed container=${c.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
          },
        },
        lastState: {
          terminated: {
            exitCode: state.exitCode,
            reason: 'Error',
            startedAt: rfc3339(finishedAt - 9 * SECOND),
            finishedAt: rfc3339(finishedAt),
            containerID: lastId,
          },
        },
        ready: false,
        restartCount: state.restarts,
        containerID: lastId,
        started: false,
      };
    }
    case 'running': {
      if (!primary) return running(0, startedAt, true);
      const restarts = state.restarts ?? 0;
      const since = state.startedAgoMs !== undefined ? gen.now - state.startedAgoMs : startedAt;
      const last = state.lastExit;
      const lastState: ContainerStatus['lastState'] = last
        ? {
            terminated: {
              exitCode: last.exitCode,
              reason: last.reason,
              startedAt: rfc3339(gen.now - last.agoMs - 25 * 60 * SECOND),
              finishedAt: rfc3339(gen.now - last.agoMs - SECOND),
              containerID: instanceContainerId(pod, c.name, restarts - 1),
            },
          }
        : {};
      return running(restarts, last ? gen.now - last.agoMs : since, state.ready ?? true, lastState);
    }
    default:
      return waiting('ContainerCreating');
  }
}
