/**
 * Container state transitions as the kubelet reports them. restartCount counts instances that
 * died and were (or will be) replaced, so a container waiting in CrashLoopBackOff already shows
 * the incremented count, and lastState.terminated always describes instance restartCount-1.
 */

import type { LogLine, LogStore, RunRef } from './logs';
import { containerIdFor } from './random';
import { rfc3339 } from './time';
import type { ContainerStatus, KubeObject, Pod } from './types';

/**
 * The part of the store the lifecycle reads and writes. SimStore satisfies it and calls in here;
 * naming only this much keeps the two modules from importing each other.
 */
interface PodStore {
  readonly logs: LogStore;
  now(): number;
  get<T extends KubeObject = KubeObject>(resource: string, namespace: string, name: string): T | undefined;
  peek(resource: string, namespace: string, name: string): KubeObject | undefined;
  upsert(input: KubeObject): KubeObject;
}

export interface LogLineResult {
  ts: string;
  line: string;
}

export interface TerminateOptions {
  exitCode?: number;
  reason?: string;
  message?: string;
}

export type RestartOptions = TerminateOptions;

/** Container IDs are derived so the generator, lifecycle and log store agree on them. */
export function instanceContainerId(pod: Pick<Pod, 'metadata'>, container: string, index: number): string {
  return containerIdFor(
    `${pod.metadata.namespace}/${pod.metadata.name}/${pod.metadata.uid}/${container}/${index}`,
  );
}

function loadPod(store: PodStore, namespace: string, name: string): Pod {
  const pod = store.get<Pod>('pods', namespace, name);
  if (!pod) throw new Error(`pods "${name}" not found in namespace ${namespace}`);
  return pod;
}

function findStatus(pod: Pod, container: string): ContainerStatus {
  const status =
    pod.status.containerStatuses?.find((c) => c.name === container) ??
    pod.status.initContainerStatuses?.find((c) => c.name === container);
  if (!status) throw new Error(`container ${container} is not valid for pod ${pod.metadata.name}`);
  return status;
}

/** Which instance a log request reads, following the kubelet's validateContainerLogStatus. */
export function currentRunRef(pod: Pod, status: ContainerStatus): RunRef | undefined {
  const base = { namespace: pod.metadata.namespace ?? '', pod: pod.metadata.name, container: status.name };
  const { running, terminated } = status.state;
  if (running && status.containerID) {
    return {
      ...base,
      containerId: status.containerID,
      startedAt: at(running.startedAt),
      restartIndex: status.restartCount,
    };
  }
  if (terminated?.containerID) {
    return {
      ...base,
      containerId: terminated.containerID,
      startedAt: at(terminated.startedAt),
      finishedAt: at(terminated.finishedAt),
      exitCode: terminated.exitCode,
      restartIndex: status.restartCount,
    };
  }
  return previousRunRef(pod, status);
}

export function previousRunRef(pod: Pod, status: ContainerStatus): RunRef | undefined {
  const last = status.lastState.terminated;
  if (!last?.containerID) return undefined;
  return {
    namespace: pod.metadata.namespace ?? '',
    pod: pod.metadata.name,
    container: status.name,
    containerId: last.containerID,
    startedAt: at(last.startedAt),
    finishedAt: at(last.finishedAt),
    exitCode: last.exitCode,
    restartIndex: Math.max(0, status.restartCount - 1),
  };
}

function at(ts: string | undefined): number {
  return ts ? Date.parse(ts) : 0;
}

export function appendLogLine(
  store: PodStore,
  namespace: string,
  podName: string,
  container: string,
  text: string,
): LogLineResult {
  const pod = store.peek('pods', namespace, podName) as Pod | undefined;
  if (!pod) throw new Error(`pods "${podName}" not found in namespace ${namespace}`);
  const status = findStatus(pod, container);
  if (!status.state.running || !status.containerID) {
    throw new Error(`container ${container} in pod ${podName} is not running`);
  }
  const ref = currentRunRef(pod, status);
  if (!ref) throw new Error(`container ${container} in pod ${podName} has no instance`);
  const line: LogLine = store.logs.append(store.logs.run(ref), text);
  return { ts: new Date(line.ts).toISOString(), line: text };
}

function endRun(store: PodStore, pod: Pod, status: ContainerStatus, exitCode: number, now: number): void {
  if (!status.containerID) return;
  const run = store.logs.peek(
    pod.metadata.namespace ?? '',
    pod.metadata.name,
    status.name,
    status.containerID,
  );
  if (!run) return;
  for (const text of store.logs.source?.exitLines(run.ref, exitCode, now) ?? [])
    store.logs.append(run, text, now);
  store.logs.end(run, now, exitCode);
}

function willRestart(pod: Pod, exitCode: number): boolean {
  const policy = pod.spec.restartPolicy ?? 'Always';
  return policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
}

export function terminateContainer(
  store: PodStore,
  namespace: string,
  podName: string,
  container: string,
  opts: TerminateOptions,
): KubeObject {
  const pod = loadPod(store, namespace, podName);
  const status = findStatus(pod, container);
  const running = status.state.running;
  if (!running || !status.containerID) {
    throw new Error(`container ${container} in pod ${podName} is not running`);
  }
  const now = store.now();
  const exitCode = opts.exitCode ?? 1;
  endRun(store, pod, status, exitCode, now);
  const terminated = {
    exitCode,
    reason: opts.reason ?? (exitCode === 0 ? 'Completed' : exitCode === 137 ? 'OOMKilled' : 'Error'),
    ...(opts.message ? { message: opts.message } : {}),
    startedAt: running.startedAt ?? rfc3339(now),
    finishedAt: rfc3339(now),
    containerID: status.containerID,
  };
  status.ready = false;
  status.started = false;
  if (willRestart(pod, exitCode)) {
    status.restartCount += 1;
    status.lastState = { terminated };
    status.state = {
      waiting: {
        reason: 'CrashLoopBackOff',
        message: `back-off ${backoff(status.restartCount)} restarting failed container=${container} pod=${podName}_${namespace}(${pod.metadata.uid})`,
      },
    };
  } else {
    status.state = { terminated };
  }
  refreshReadiness(pod, now);
  return store.upsert(pod);
}

export function startContainer(
  store: PodStore,
  namespace: string,
  podName: string,
  container: string,
): KubeObject {
  const pod = loadPod(store, namespace, podName);
  const status = findStatus(pod, container);
  if (status.state.running) throw new Error(`container ${container} in pod ${podName} is already running`);
  const now = store.now();
  status.containerID = instanceContainerId(pod, container, status.restartCount);
  status.state = { running: { startedAt: rfc3339(now) } };
  status.started = true;
  // Readiness probes have not passed yet for a fresh instance of a probed container.
  const spec = pod.spec.containers.find((c) => c.name === container);
  status.ready = !spec?.readinessProbe;
  refreshReadiness(pod, now);
  return store.upsert(pod);
}

export function restartContainer(
  store: PodStore,
  namespace: string,
  podName: string,
  container: string,
  opts: RestartOptions,
): KubeObject {
  terminateContainer(store, namespace, podName, container, opts);
  const pod = store.peek('pods', namespace, podName) as Pod;
  if (findStatus(pod, container).state.terminated) return structuredClone(pod);
  return startContainer(store, namespace, podName, container);
}

function backoff(restarts: number): string {
  const seconds = Math.min(300, 10 * 2 ** Math.max(0, restarts - 1));
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`;
}

/** Keeps the Ready/ContainersReady conditions in line with the container statuses. */
function refreshReadiness(pod: Pod, now: number): void {
  const statuses = pod.status.containerStatuses ?? [];
  const notReady = statuses.filter((c) => !c.ready).map((c) => c.name);
  const ready = notReady.length === 0;
  for (const cond of pod.status.conditions ?? []) {
    if (cond.type !== 'Ready' && cond.type !== 'ContainersReady') continue;
    const next = ready ? 'True' : 'False';
    if (cond.status !== next) {
      cond.status = next;
      cond.lastTransitionTime = rfc3339(now);
    }
    if (ready) {
      delete cond.reason;
      delete cond.message;
    } else {
      cond.reason = 'ContainersNotReady';
      cond.message = `containers with unready status: [${notReady.join(' ')}]`;
    }
  }
}
