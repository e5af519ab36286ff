import type { Tone } from '../../../kube/meta';
import type { ContainerStatus, Pod } from './types';

/**
 * The STATUS column of `kubectl get pods` (printPod in kubectl): the most telling reason among
 * init containers, containers and the pod itself, e.g. Init:0/2, CrashLoopBackOff, OOMKilled,
 * Completed, Terminating. People know these words, so Skiff shows the same ones.
 */
export function podStatus(pod: Pod): string {
  const status = pod.status ?? {};
  let reason = status.reason || status.phase || 'Unknown';
  const inits = status.initContainerStatuses ?? [];
  const initTotal = pod.spec?.initContainers?.length ?? inits.length;
  let initializing = false;
  inits.forEach((c, i) => {
    if (initializing) return;
    const t = c.state?.terminated;
    const w = c.state?.waiting;
    if (t && t.exitCode === 0) return;
    initializing = true;
    if (t) reason = `Init:${t.reason || (t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode}`)}`;
    else if (w?.reason && w.reason !== 'PodInitializing') reason = `Init:${w.reason}`;
    else reason = `Init:${i}/${initTotal}`;
  });
  if (!initializing) {
    let hasRunning = false;
    const containers = [...(status.containerStatuses ?? [])].reverse();
    for (const c of containers) {
      const w = c.state?.waiting;
      const t = c.state?.terminated;
      if (w?.reason) reason = w.reason;
      else if (t?.reason) reason = t.reason;
      else if (t) reason = t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode}`;
      else if (c.ready && c.state?.running) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) {
      const ready = status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
      reason = ready ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata.deletionTimestamp) reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

const GOOD = new Set(['Running', 'Completed', 'Succeeded', 'Active', 'Ready', 'True']);
const NEUTRAL = new Set(['Pending', 'ContainerCreating', 'PodInitializing', 'Terminating']);

/** A colour for a status word; bad for anything that says a container cannot run. */
export function statusTone(status: string): Tone {
  if (GOOD.has(status)) return 'ok';
  if (NEUTRAL.has(status) || (status.startsWith('Init:') && /^Init:\d+\/\d+$/.test(status))) return 'neutral';
  if (status === 'NotReady' || status === 'Unknown') return 'warn';
  return 'bad';
}

export function readyCount(pod: Pod): { ready: number; total: number } {
  const cs = pod.status?.containerStatuses ?? [];
  const total = pod.spec?.containers?.length ?? cs.length;
  return { ready: cs.filter((c) => c.ready).length, total };
}

/**
 * Whether the Ready count is a warning: fewer ready than wanted, unless the pod has finished.
 * A Completed pod's containers have exited, so 0/1 is its normal end, not a fault (kubectl shows
 * 0/1 too, but no colour); a Failed pod's badge already says what went wrong.
 */
export function readyShort(pod: Pod): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const { ready, total } = readyCount(pod);
  return ready < total;
}

export function restarts(pod: Pod): number {
  const all: ContainerStatus[] = [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []),
  ];
  return all.reduce((n, c) => n + (c.restartCount ?? 0), 0);
}

/** When the most recent restart happened (the latest lastState.terminated.finishedAt). */
export function lastRestart(pod: Pod): string | undefined {
  let latest: string | undefined;
  for (const c of pod.status?.containerStatuses ?? []) {
    const at = c.lastState?.terminated?.finishedAt;
    if (at && (!latest || at > latest)) latest = at;
  }
  return latest;
}

/** The container state as one word: running, waiting or terminated. */
export function stateName(c: ContainerStatus | undefined): 'running' | 'waiting' | 'terminated' | 'unknown' {
  if (c?.state?.running) return 'running';
  if (c?.state?.waiting) return 'waiting';
  if (c?.state?.terminated) return 'terminated';
  return 'unknown';
}
