import type { SnapshotGap } from '../../../src-shared/contract/snapshot-models';
import { ProblemError } from '../errors';
import { type KubeClient, KubeRequestError } from '../kube/kube-client';
import { openKubeLog } from '../logs/kube-log';
import type { LogTarget } from './log-targets';

/** Log requests open at once, as stern bounds its own: a large cluster's kubelets are not flooded. */
export const LOG_CONCURRENCY = 8;

/** Failures that say the cluster is gone, not that one container's log is: the rest is not asked. */
const CLUSTER_GONE = new Set(['cluster_unreachable', 'cluster_timeout', 'cluster_unauthorized']);

export interface LogCaptureDeps {
  client: KubeClient;
  timeoutMs: number;
  lines: number;
  concurrency?: number;
  signal: AbortSignal;
  /** A container's lines, complete or (with `partial`) as far as they came. */
  write(target: LogTarget, lines: readonly string[]): void;
  /** Every target of a pod is done (written or a gap). */
  podDone(): void;
  gap(gap: SnapshotGap): void;
}

/** Why a part failed, in the words the API's problems use (a cluster's refusal names its status). */
export function reasonOf(err: unknown): string {
  if (err instanceof KubeRequestError) return `the cluster answered ${err.statusCode}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

async function readLog(deps: LogCaptureDeps, t: LogTarget): Promise<{ lines: string[]; dropped: boolean }> {
  const connection = await openKubeLog(
    { client: deps.client, timeoutMs: deps.timeoutMs },
    { ...t, follow: false, tailLines: deps.lines },
    deps.signal,
  );
  const lines: string[] = [];
  try {
    for (let batch = await connection.next(); batch !== null; batch = await connection.next())
      lines.push(...batch);
  } finally {
    connection.close();
  }
  // tailLines bounds what the kubelet sends; a source that ignores it is cut here.
  return { lines: lines.length > deps.lines ? lines.slice(-deps.lines) : lines, dropped: connection.dropped };
}

/**
 * Takes the logs of `pods` (each its targets) with at most `concurrency` requests open. A
 * container whose log cannot be read becomes a gap; once the cluster itself fails (unreachable,
 * timing out, refusing our credentials) the remaining logs are not asked for and one gap says so.
 */
export async function captureLogs(
  pods: readonly (readonly LogTarget[])[],
  deps: LogCaptureDeps,
): Promise<void> {
  const queue = pods.flatMap((targets) => targets.map((target) => ({ target, pod: targets })));
  const left = new Map(pods.map((targets) => [targets, targets.length]));
  let next = 0;
  let broken: string | undefined;
  let skipped = 0;
  const settle = (pod: readonly LogTarget[]) => {
    const n = (left.get(pod) ?? 1) - 1;
    left.set(pod, n);
    if (n === 0) deps.podDone();
  };
  const worker = async () => {
    while (next < queue.length) {
      const { target, pod } = queue[next++]!;
      if (deps.signal.aborted) throw deps.signal.reason;
      if (broken !== undefined) {
        skipped++;
        settle(pod);
        continue;
      }
      try {
        const { lines, dropped } = await readLog(deps, target);
        deps.write(target, lines);
        if (dropped)
          gapOf(target, 'the connection broke while the log was read; the lines up to there are kept');
      } catch (err) {
        if (deps.signal.aborted) throw deps.signal.reason;
        if (err instanceof ProblemError && CLUSTER_GONE.has(err.code)) {
          broken ??= err.message;
          skipped++;
        } else gapOf(target, reasonOf(err));
      }
      settle(pod);
    }
  };
  const gapOf = (t: LogTarget, reason: string) =>
    deps.gap({
      part: 'logs',
      target: `${t.namespace}/${t.pod}/${t.container}`,
      reason: t.previous ? `previous run: ${reason}` : reason,
    });
  const workers = Array.from({ length: Math.min(deps.concurrency ?? LOG_CONCURRENCY, queue.length) }, worker);
  await Promise.all(workers);
  if (broken !== undefined)
    deps.gap({ part: 'logs', reason: `${skipped} container logs were not taken: ${broken}` });
}
