/**
 * A snapshot's container logs, read from its file as a log request to a cluster would read them
 * (logs/kube-log.ts): the same lines, the same refusals, so the log session serves a snapshot
 * exactly as it serves a live cluster, with nothing over the network.
 *
 * Rules, the kubelet's and the apiserver's as the captured pod says them:
 * - No such pod is 404; a container the pod does not have, or one with no status, is 400 (the
 *   log_unavailable problem); a pod with no node has no kubelet to ask and answers nothing.
 * - `previous` reads the run before the last restart, and is 400 when the container never
 *   terminated before. Otherwise the current run is read: the running or terminated instance's
 *   log, or for a container waiting to restart its last run's; a container that never ran is 400
 *   "waiting to start". Where the capture kept only one run's text, that text is the answer.
 * - `tailLines` keeps the last lines, then `sinceTime` the lines stamped at or after it. Lines are
 *   given as captured (timestamp, space, line); a line without a timestamp of its own is given the
 *   one before it, as the kubelet stamps every line.
 * - A snapshot gains no lines: a follow ends at the end of the captured text.
 */

import { type KubeLogConnection, type KubeLogRequest, logProblem } from '../logs/kube-log';
import { containerNames, containerStatus, type PodLike } from '../logs/pod';

export interface SnapshotLogDeps {
  /** The pod as captured; undefined when the snapshot has none of that name. */
  pod: PodLike | undefined;
  /** The captured text of a run (reader.ts), undefined when none was captured. */
  log(namespace: string, pod: string, container: string, previous: boolean): string | undefined;
}

const refused = (req: KubeLogRequest, message: string) => logProblem(400, { message }, req);

/** The run's text the request reads, or the refusal. */
function runText(deps: SnapshotLogDeps, req: KubeLogRequest): string | undefined {
  const { pod } = deps;
  if (!pod) throw logProblem(404, undefined, req);
  const { containers, initContainers } = containerNames(pod);
  if (!containers.includes(req.container) && !initContainers.includes(req.container))
    throw refused(req, `container ${req.container} is not valid for pod ${req.pod}`);
  const spec = (pod.spec ?? {}) as { nodeName?: string };
  if (!spec.nodeName) return undefined;
  const status = containerStatus(pod, req.container);
  if (!status) throw refused(req, `container "${req.container}" in pod "${req.pod}" is not available`);
  const read = (previous: boolean) => deps.log(req.namespace, req.pod, req.container, previous);
  const earlier = status.lastState?.terminated?.containerID !== undefined;
  if (req.previous) {
    if (!earlier)
      throw refused(req, `previous terminated container "${req.container}" in pod "${req.pod}" not found`);
    return read(true) ?? read(false);
  }
  const { running, terminated, waiting } = status.state ?? {};
  if ((running && status.containerID) || terminated?.containerID) return read(false);
  if (earlier) return read(true) ?? read(false);
  const reason = waiting?.reason ?? 'ContainerCreating';
  const why =
    reason === 'ErrImagePull'
      ? "image can't be pulled"
      : reason === 'ImagePullBackOff'
        ? 'trying and failing to pull image'
        : reason;
  throw refused(req, `container "${req.container}" in pod "${req.pod}" is waiting to start: ${why}`);
}

/** The captured lines, each with its own timestamp text and instant (NaN when none came before). */
function stampedLines(text: string): Array<{ line: string; at: number }> {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (body === '') return [];
  let stamp = '';
  let at = Number.NaN;
  return body.split('\n').map((raw) => {
    const head = raw.split(' ', 1)[0] as string;
    const parsed = Date.parse(head);
    if (/^\d{4}-\d{2}-\d{2}T/.test(head) && !Number.isNaN(parsed)) {
      stamp = head;
      at = parsed;
      return { line: raw, at };
    }
    return { line: stamp === '' ? raw : `${stamp} ${raw}`, at };
  });
}

/** The lines a request reads: the last tailLines, then those at or after sinceTime. */
export function selectLines(text: string, req: Pick<KubeLogRequest, 'tailLines' | 'sinceTime'>): string[] {
  let lines = stampedLines(text);
  // A tailLines of 0 is never asked (it means no lines, which the caller answers itself).
  if (req.tailLines) lines = lines.slice(Math.max(0, lines.length - req.tailLines));
  if (req.sinceTime !== undefined) {
    const since = Date.parse(req.sinceTime);
    lines = lines.filter((l) => l.at >= since);
  }
  return lines.map((l) => l.line);
}

/** Opens a log request against a snapshot: one batch of the captured lines, then the end. */
export function openSnapshotLog(deps: SnapshotLogDeps, req: KubeLogRequest): KubeLogConnection {
  const text = runText(deps, req);
  let pending: string[] | null = text === undefined ? null : selectLines(text, req);
  if (pending?.length === 0) pending = null;
  return {
    next: async () => {
      const batch = pending;
      pending = null;
      return batch;
    },
    dropped: false,
    close: () => {
      pending = null;
    },
  };
}
