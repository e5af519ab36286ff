/**
 * Which runs of a pod's containers have ended, read from the pod alone (issue 27 §3): the run a
 * restart replaced (`lastState.terminated`: the kubelet keeps its log as "previous") and a run
 * that ended and stays ended (`state.terminated`: a Job's pod, restartPolicy Never or OnFailure).
 *
 * Rules: pure, no I/O; a run is named by its pod's uid, its container and its restart index (the
 * container's restartCount while it ran: 0 for the first run), which is how the kubelet counts
 * them (restartCount counts the runs that ended and were replaced, so `lastState` describes run
 * restartCount - 1 and `state.terminated` run restartCount); anything missing or malformed in the
 * object yields no run rather than a throw, because the object comes from any cluster.
 */
import type { ContainerStatusLike, PodLike } from '../../logs/pod';
import { DELETED_REASON } from './options';

export interface PodObject extends PodLike {
  metadata: PodLike['metadata'] & { uid?: string };
}

export interface EndedRun {
  container: string;
  restartCount: number;
  /** RFC 3339, as the kubelet reported it; null when it did not say. */
  finishedAt: string | null;
  exitCode: number | null;
  reason: string;
  /** True when the kubelet serves this run's log as `previous` (a newer run replaced it). */
  previous: boolean;
}

/** The run's key among a cluster's: pod uid, container, restart index. */
export const runKey = (uid: string, container: string, restartCount: number): string =>
  `${uid}/${container}/${restartCount}`;

const statusesOf = (pod: PodObject): ContainerStatusLike[] => [
  ...(pod.status?.initContainerStatuses ?? []),
  ...(pod.status?.containerStatuses ?? []),
];

const countOf = (s: ContainerStatusLike): number =>
  Number.isInteger(s.restartCount) && (s.restartCount as number) >= 0 ? (s.restartCount as number) : 0;

type Terminated = NonNullable<NonNullable<ContainerStatusLike['state']>['terminated']>;

function ended(s: ContainerStatusLike, t: Terminated, restartCount: number, previous: boolean): EndedRun {
  const exitCode = Number.isInteger(t.exitCode) ? (t.exitCode as number) : null;
  return {
    container: s.name,
    restartCount,
    finishedAt: typeof t.finishedAt === 'string' && t.finishedAt !== '' ? t.finishedAt : null,
    exitCode,
    reason:
      typeof t.reason === 'string' && t.reason !== '' ? t.reason : exitCode === 0 ? 'Completed' : 'Error',
    previous,
  };
}

/** The ended runs the pod shows now: each replaced run, then each run that stays ended. */
export function endedRuns(pod: PodObject): EndedRun[] {
  const out: EndedRun[] = [];
  for (const s of statusesOf(pod)) {
    if (typeof s.name !== 'string') continue;
    const count = countOf(s);
    const last = s.lastState?.terminated;
    if (last && count > 0) out.push(ended(s, last, count - 1, true));
    const now = s.state?.terminated;
    if (now) out.push(ended(s, now, count, false));
  }
  return out;
}

/**
 * The runs a deleted pod still had when it went: each container's current run, ended as the pod
 * last showed it, or `Deleted` with no exit code when it was still running or waiting.
 */
export function runsAtDeletion(pod: PodObject): EndedRun[] {
  const out: EndedRun[] = [];
  for (const s of statusesOf(pod)) {
    if (typeof s.name !== 'string') continue;
    const count = countOf(s);
    const now = s.state?.terminated;
    if (now) out.push(ended(s, now, count, false));
    else if (s.state?.running)
      out.push({
        container: s.name,
        restartCount: count,
        finishedAt: null,
        exitCode: null,
        reason: DELETED_REASON,
        previous: false,
      });
  }
  return out;
}
