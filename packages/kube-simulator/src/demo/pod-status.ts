/**
 * Pod status as the kubelet reports it for each PodState: phase, conditions, IPs and
 * container statuses with container IDs that the log store and lifecycle agree on.
 */

import { instanceContainerId } from '../pod-lifecycle';
import { imageDigestFor } from '../random';
import { rfc3339, SECOND } from '../time';
import type { ContainerStatus, Pod, PodCondition, PodStatus } from '../types';
import type { Gen, NodeInfo } from './context';
import { qosClass } from './pod-spec';
import type { ContainerTemplate, PodPlan, PodState } from './pod-types';

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

export function podStatus(gen: Gen, pod: Pod, plan: PodPlan, created: number): PodStatus {
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
