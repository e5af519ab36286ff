/**
 * Which container logs a capture takes: for each pod, every container that has run (init,
 * regular and ephemeral), and the previous run of each that restarted. A container that never
 * started has no log, so it is no gap either.
 */

export type LogsMode = 'all' | 'failing' | 'none';

interface StateLike {
  running?: object | null;
  waiting?: { reason?: string } | null;
  terminated?: { exitCode?: number; reason?: string } | null;
}

interface StatusLike {
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: StateLike | null;
  lastState?: StateLike | null;
}

/** The few pod fields read here; pods come from any cluster, so every field may be missing. */
export interface PodLike {
  metadata: { name: string; namespace?: string };
  status?: {
    phase?: string;
    initContainerStatuses?: StatusLike[] | null;
    containerStatuses?: StatusLike[] | null;
    ephemeralContainerStatuses?: StatusLike[] | null;
  } | null;
}

export interface LogTarget {
  namespace: string;
  pod: string;
  container: string;
  /** The run before the last restart. */
  previous: boolean;
}

/** Waiting reasons of a container on its normal way to running. */
const STARTING = new Set(['ContainerCreating', 'PodInitializing']);

/**
 * `probed`: its `ready` means something. An init sidecar is unready while it starts, and an
 * ephemeral container has no probes at all: the kubelet reports it `ready: false` while it runs.
 */
function statuses(pod: PodLike): { status: StatusLike; probed: boolean }[] {
  const s = pod.status ?? {};
  return [
    ...(s.initContainerStatuses ?? []).map((status) => ({ status, probed: false })),
    ...(s.containerStatuses ?? []).map((status) => ({ status, probed: true })),
    ...(s.ephemeralContainerStatuses ?? []).map((status) => ({ status, probed: false })),
  ];
}

/**
 * A pod worth its logs when only the failing ones are taken: it failed or is lost, or one of its
 * containers restarted, waits for a reason other than starting, ended with a non-zero code, or
 * runs without being ready. A pod that succeeded, or runs ready and never restarted, is not.
 */
export function isFailingPod(pod: PodLike): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Unknown') return true;
  if (phase === 'Succeeded') return false;
  for (const { status, probed } of statuses(pod)) {
    if ((status.restartCount ?? 0) > 0) return true;
    const waiting = status.state?.waiting?.reason;
    if (waiting && !STARTING.has(waiting)) return true;
    const exit = status.state?.terminated?.exitCode;
    if (exit !== undefined && exit !== 0) return true;
    if (probed && phase === 'Running' && status.state?.running && status.ready === false) return true;
  }
  return false;
}

function hasRun(status: StatusLike): boolean {
  return Boolean(status.state?.running || status.state?.terminated || status.lastState?.terminated);
}

/** The logs to take of one pod, in container order, each current run before its previous one. */
export function logTargets(pod: PodLike, mode: LogsMode): LogTarget[] {
  if (mode === 'none' || (mode === 'failing' && !isFailingPod(pod))) return [];
  const namespace = pod.metadata.namespace ?? '';
  const out: LogTarget[] = [];
  for (const { status } of statuses(pod)) {
    if (!hasRun(status)) continue;
    const base = { namespace, pod: pod.metadata.name, container: status.name };
    out.push({ ...base, previous: false });
    if ((status.restartCount ?? 0) > 0) out.push({ ...base, previous: true });
  }
  return out;
}
