/**
 * Keeps the logs of dead containers (issue 27 §3): watches the pods of recorded clusters, and when
 * a run of a container ends, reads its last lines while the kubelet still has them and keeps them
 * in kept_logs, so they outlive the next restart, the Job's cleanup and the pod's deletion.
 *
 * Rules:
 * - Which runs: a restart (`lastState.terminated`: read `previous` at once), a run that stays
 *   ended (`state.terminated`: a Job's pod, restartPolicy Never: read the current log), and a
 *   deleted pod's runs (from the tail of a stream Skiff follows, tails.ts, if any: the kubelet has
 *   nothing left). A run the mode does not keep (options.ts) is never read.
 * - Never on the request path and never blocking the loop: terminations are queued (bounded,
 *   oldest dropped with a warning) and read MAX_READS at a time, each within the cluster timeout;
 *   a read that fails falls back to a followed tail, else the run is skipped and logged.
 * - Each run is read once per process (by its key) and kept once (the table's UNIQUE): a restart
 *   of Skiff or a second replica asks the database first.
 * - Only live clusters that are recorded (`isRecorded`: the definition shared with the changes
 *   recorder) are watched; their pod cache keeps watching while recorded.
 */
import { RESOURCE_KINDS } from '../../../../src-shared/kube/kinds';
import type { ResourceEntry } from '../../cache/entries';
import type { CacheObserver } from '../../cache/resource-cache';
import type { KindInfo } from '../../clusters/kind-info';
import type { Logger } from '../../logger';
import { type KubeLogDeps, openKubeLog } from '../../logs/kube-log';
import { epochOf } from '../../logs/pod';
import type { StorageBackend } from '../../storage/backend';
import type { RecordingHooks } from '../hooks';
import { type KeptLogsOptions, keeps, resolveKeptLogsOptions } from './options';
import { hasRun, insertRun, type KeptRun, pruneToBytes } from './store';
import { FollowedTails } from './tails';
import { type EndedRun, endedRuns, type PodObject, runKey, runsAtDeletion } from './terminations';

/** What the feature needs of a cluster: its client, and its pod cache to start. */
export interface KeptLogsCluster {
  readonly client: KubeLogDeps['client'];
  readonly timeoutMs: number;
  readonly frozen?: unknown;
  resources(kind: KindInfo): { acquire(signal?: AbortSignal): Promise<void> };
}

export interface KeptLogsDeps {
  backend: StorageBackend;
  hooks: RecordingHooks;
  logger: Logger;
  now: () => number;
  options?: Partial<KeptLogsOptions>;
  /** True while the cluster is recorded (changes recorder's definition). */
  isRecorded: (clusterId: string) => boolean;
  /** Start every recorded cluster's pod watch at start (mode `all` of --record-changes). */
  watchAtStart?: boolean;
}

/** Reads of the kubelet at once, across clusters. */
export const MAX_READS = 2;
/** Terminations waiting to be read; past this the oldest is dropped. */
export const MAX_QUEUED = 1_000;
/** A kept line longer than this (UTF-16 units) is cut: a runaway line must not fill the bound alone. */
export const MAX_LINE_CHARS = 64 * 1024;

interface Job {
  clusterId: string;
  namespace: string;
  pod: string;
  uid: string;
  run: EndedRun;
  /** Lines already in hand (a deleted pod's followed tail): nothing to read. */
  lines?: readonly string[];
}

const isPodKind = (kind: KindInfo) => kind.group === '' && kind.plural === 'pods';

const cut = (line: string) => (line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line);

/** A feature of Recorded (history/index.ts): closed with the service. */
export class KeptLogs {
  readonly options: KeptLogsOptions;
  /** Tails of followed containers, fed by the live logs (operations/logs.ts). */
  readonly tails: FollowedTails;
  private readonly queue: Job[] = [];
  private reading = 0;
  /** Per cluster, per pod uid: the runs already queued or kept by this process. */
  private readonly seen = new Map<string, Map<string, Set<string>>>();
  private lookup: ((clusterId: string) => KeptLogsCluster | undefined) | undefined;
  private readonly closing = new AbortController();
  private readonly busy = new Set<Promise<void>>();

  constructor(private readonly deps: KeptLogsDeps) {
    this.options = resolveKeptLogsOptions(deps.options);
    this.tails = new FollowedTails({ lines: this.options.lines, now: deps.now });
    if (this.options.mode === 'off') return;
    deps.hooks.add({
      name: 'kept-logs',
      observer: (clusterId, kind) => (isPodKind(kind) ? this.observer(clusterId) : undefined),
      keepsWatching: (clusterId, kind) => isPodKind(kind) && this.deps.isRecorded(clusterId),
    });
    deps.hooks.onViewed((clusterId) => {
      // Called while a cache is being made: the pod cache is asked for after that returns.
      setImmediate(() => this.watchPods(clusterId));
    });
  }

  /** Where clusters are found (the registry, made after this); starts the watches `all` asks for. */
  attach(lookup: (clusterId: string) => KeptLogsCluster | undefined, clusterIds: readonly string[]): void {
    this.lookup = lookup;
    if (this.options.mode === 'off' || !this.deps.watchAtStart) return;
    for (const id of clusterIds) this.watchPods(id);
  }

  /** Waits until every queued run is read and kept (tests; close). */
  async idle(): Promise<void> {
    while ((this.busy.size > 0 || this.queue.length > 0) && !this.closing.signal.aborted) {
      await Promise.all([...this.busy]);
      if (this.busy.size === 0 && this.queue.length > 0) this.pump();
    }
  }

  async close(): Promise<void> {
    this.queue.length = 0;
    this.closing.abort();
    await Promise.allSettled([...this.busy]);
  }

  private watchPods(clusterId: string): void {
    if (this.closing.signal.aborted || !this.deps.isRecorded(clusterId)) return;
    const cluster = this.lookup?.(clusterId);
    if (!cluster || cluster.frozen) return;
    cluster
      .resources(RESOURCE_KINDS.pod)
      .acquire(this.closing.signal)
      .catch((err: unknown) => {
        // The cache retries on its own; the observer hears it once it lists.
        this.deps.logger.debug({ clusterId, err: String(err) }, 'kept logs: pods not listed yet');
      });
  }

  private observer(clusterId: string): CacheObserver<ResourceEntry> {
    return {
      upserted: (entry) => {
        // Most updates of most pods show no ended run: they are not parsed at all.
        if (!entry.json.includes('"terminated"') || !this.deps.isRecorded(clusterId)) return;
        const pod = JSON.parse(entry.json) as PodObject;
        for (const run of endedRuns(pod)) this.offer(clusterId, pod, run);
      },
      removed: (_key, previous) => {
        if (!previous) return;
        const pod = JSON.parse(previous.json) as PodObject;
        if (this.deps.isRecorded(clusterId)) {
          for (const run of runsAtDeletion(pod)) {
            const tail = this.tails.take(clusterId, {
              namespace: pod.metadata.namespace ?? '',
              pod: pod.metadata.name,
              container: run.container,
            });
            if (tail) this.offer(clusterId, pod, run, tail.lines);
          }
        }
        this.seen.get(clusterId)?.delete(pod.metadata.uid ?? '');
      },
      listed: () => {},
      stopped: () => {
        this.seen.delete(clusterId);
      },
    };
  }

  /** Queues the run unless its mode leaves it or it was queued already. */
  private offer(clusterId: string, pod: PodObject, run: EndedRun, lines?: readonly string[]): void {
    if (!keeps(this.options.mode, run.exitCode, run.reason)) return;
    const uid = pod.metadata.uid ?? '';
    const pods = this.seen.get(clusterId) ?? new Map<string, Set<string>>();
    this.seen.set(clusterId, pods);
    const runs = pods.get(uid) ?? new Set<string>();
    pods.set(uid, runs);
    const key = runKey(uid, run.container, run.restartCount);
    if (runs.has(key)) return;
    runs.add(key);
    const job: Job = {
      clusterId,
      namespace: pod.metadata.namespace ?? '',
      pod: pod.metadata.name,
      uid,
      run,
      ...(lines ? { lines } : {}),
    };
    this.queue.push(job);
    if (this.queue.length > MAX_QUEUED) {
      const dropped = this.queue.shift()!;
      this.deps.logger.warn(
        { clusterId, pod: `${dropped.namespace}/${dropped.pod}`, container: dropped.run.container },
        'kept logs: too many terminations waiting; the oldest was not kept',
      );
    }
    this.pump();
  }

  private pump(): void {
    while (this.reading < MAX_READS && this.queue.length > 0 && !this.closing.signal.aborted) {
      const job = this.queue.shift()!;
      this.reading += 1;
      const done: Promise<void> = this.keep(job)
        .catch((err: unknown) => {
          this.deps.logger.warn(
            {
              clusterId: job.clusterId,
              pod: `${job.namespace}/${job.pod}`,
              container: job.run.container,
              err: String(err),
            },
            'kept logs: a run could not be kept',
          );
        })
        .finally(() => {
          this.reading -= 1;
          this.busy.delete(done);
          this.pump();
        });
      this.busy.add(done);
    }
  }

  private async keep(job: Job): Promise<void> {
    const { backend, now } = this.deps;
    const ref = {
      namespace: job.namespace,
      pod: job.pod,
      podUid: job.uid,
      container: job.run.container,
      restartCount: job.run.restartCount,
    };
    if (await hasRun(backend, job.clusterId, ref)) return;
    const lines = job.lines ?? (await this.read(job));
    if (lines === undefined) return;
    const run: KeptRun = {
      ...ref,
      finishedAt: job.run.finishedAt,
      finishedMs: epochOf(job.run.finishedAt ?? undefined) ?? now(),
      exitCode: job.run.exitCode,
      reason: job.run.reason,
      lines: lines.slice(-this.options.lines).map(cut),
    };
    if (await insertRun(backend, job.clusterId, run, now()))
      await pruneToBytes(backend, job.clusterId, this.options.maxBytes);
  }

  /** The run's last lines from the kubelet; a followed tail when that fails; undefined: none. */
  private async read(job: Job): Promise<readonly string[] | undefined> {
    const cluster = this.lookup?.(job.clusterId);
    const target = { namespace: job.namespace, pod: job.pod, container: job.run.container };
    try {
      if (!cluster) throw new Error('the cluster is gone');
      const signal = AbortSignal.any([this.closing.signal, AbortSignal.timeout(cluster.timeoutMs)]);
      const conn = await openKubeLog(
        { client: cluster.client, timeoutMs: cluster.timeoutMs },
        { ...target, follow: false, previous: job.run.previous, tailLines: this.options.lines },
        signal,
      );
      const lines: string[] = [];
      try {
        for (let batch = await conn.next(); batch !== null; batch = await conn.next()) {
          lines.push(...batch);
          if (lines.length > this.options.lines) lines.splice(0, lines.length - this.options.lines);
        }
      } finally {
        conn.close();
      }
      if (conn.dropped) throw new Error('the log read was cut off');
      return lines;
    } catch (err) {
      const tail = this.tails.take(job.clusterId, target);
      if (tail) return tail.lines;
      if (this.closing.signal.aborted) return undefined;
      this.deps.logger.info(
        {
          clusterId: job.clusterId,
          pod: `${job.namespace}/${job.pod}`,
          container: job.run.container,
          err: String(err),
        },
        'kept logs: the kubelet no longer had the log of a run that ended',
      );
      return undefined;
    }
  }
}
