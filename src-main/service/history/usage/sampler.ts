/**
 * Samples the pod and node usage of recorded clusters from metrics.k8s.io, every interval, and
 * keeps the table to its retention (store.ts).
 *
 * Rules:
 * - Only live clusters that are recorded (`isRecorded`) are sampled; a snapshot never is.
 * - One sampler per cluster across the replicas sharing a database: the holder of the lease
 *   `usage-sampler:<clusterId>` (StorageBackend.tryLease; always granted on SQLite). A lease not
 *   held is asked for again at the next tick; a lost lease stops this replica sampling that cluster.
 *   Downsampling and retention run for the clusters this replica samples, and for those in the table
 *   nobody samples any more, under their lease taken for that pass alone.
 * - Each read is bounded by the cluster's timeout (and by the interval): a slow or absent
 *   metrics-server costs one bounded request per tick and never blocks the loop. A cluster whose
 *   metrics cannot be read is logged once, then again only when it recovers; it is retried every
 *   tick. Nothing a cluster answers can throw out of a tick.
 * - Ticks never overlap: a tick still running when the next is due makes that one skipped.
 * - Samples are stamped with the service clock at the tick's start.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from '../../logger';
import type { Lease, StorageBackend } from '../../storage/backend';
import type { ResolvedUsageOptions } from './options';
import { nodeRows, podRows } from './samples';
import { UsageStore } from './store';

/** What the sampler needs of a cluster (a ClusterConnection is one). */
export interface SampledCluster {
  readonly clusterId: string;
  readonly frozen?: unknown;
  readonly timeoutMs: number;
  readonly client: { getJson<T>(path: string, opts: { timeoutMs: number }): Promise<T> };
}

export interface UsageSamplerDeps {
  backend: StorageBackend;
  options: ResolvedUsageOptions;
  clusters(): readonly SampledCluster[];
  isRecorded(clusterId: string): boolean;
  logger: Logger;
  now: () => number;
}

export const usageLeaseKey = (clusterId: string) => `usage-sampler:${clusterId}`;

const PODS = '/apis/metrics.k8s.io/v1beta1/pods';
const NODES = '/apis/metrics.k8s.io/v1beta1/nodes';

export class UsageSampler {
  readonly store: UsageStore;
  private readonly leases = new Map<string, Lease>();
  /** Clusters whose metrics could not be read at their last try (logged once). */
  private readonly failing = new Set<string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private ticking: Promise<void> | undefined;
  private maintaining: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly deps: UsageSamplerDeps) {
    this.store = new UsageStore(deps.backend);
  }

  /** Starts the timers (nothing with `--usage-interval off`). */
  start(): void {
    const { intervalMs, maintainEveryMs } = this.deps.options;
    if (intervalMs <= 0 || this.closed) return;
    const every = (ms: number, fn: () => Promise<void>) => {
      const t = setInterval(() => void fn(), ms);
      t.unref();
      this.timers.push(t);
    };
    every(intervalMs, () => this.tick());
    every(maintainEveryMs, () => this.maintain());
  }

  /** The clusters this replica samples now (holds the lease of). */
  sampling(): string[] {
    return [...this.leases.keys()].sort();
  }

  /** One sampling round over every recorded cluster; a round in flight is joined, not doubled. */
  tick(): Promise<void> {
    this.ticking ??= this.round().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  /** Downsampling and retention over every cluster this replica samples; joined when in flight. */
  maintain(): Promise<void> {
    this.maintaining ??= this.maintainAll().finally(() => {
      this.maintaining = undefined;
    });
    return this.maintaining;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    await this.ticking;
    await this.maintaining;
    await Promise.all([...this.leases.keys()].map((id) => this.giveBack(id)));
  }

  private async round(): Promise<void> {
    if (this.closed) return;
    const at = this.deps.now();
    const wanted = new Set<string>();
    const work: Promise<void>[] = [];
    for (const cluster of this.deps.clusters()) {
      if (cluster.frozen !== undefined || !this.deps.isRecorded(cluster.clusterId)) continue;
      wanted.add(cluster.clusterId);
      work.push(this.sampleOne(cluster, at));
    }
    await Promise.all(work);
    // A cluster removed, or no longer recorded, is no longer this replica's to sample.
    for (const id of [...this.leases.keys()]) if (!wanted.has(id)) await this.giveBack(id);
  }

  private async sampleOne(cluster: SampledCluster, at: number): Promise<void> {
    const { clusterId } = cluster;
    try {
      if (!(await this.hold(clusterId))) return;
      const { intervalMs } = this.deps.options;
      // Never longer than the interval, so a slow cluster does not overlap the next tick.
      const timeoutMs = intervalMs > 0 ? Math.min(cluster.timeoutMs, intervalMs) : cluster.timeoutMs;
      const [pods, nodes] = await Promise.all([
        cluster.client.getJson<unknown>(PODS, { timeoutMs }),
        cluster.client.getJson<unknown>(NODES, { timeoutMs }),
      ]);
      const rows = [...podRows(pods), ...nodeRows(nodes)];
      if (this.closed || !this.leases.has(clusterId)) return;
      await this.store.write(clusterId, at, intervalMs, rows);
      if (this.failing.delete(clusterId))
        this.deps.logger.info({ clusterId }, 'usage: metrics.k8s.io answers again; sampling resumed');
    } catch (err) {
      if (!this.failing.has(clusterId)) {
        this.failing.add(clusterId);
        this.deps.logger.warn(
          { clusterId, err: err instanceof Error ? err.message : String(err) },
          'usage: metrics.k8s.io could not be read (is metrics-server installed?); retried every interval',
        );
      }
    }
  }

  /** True when this replica holds the cluster's sampler lease (taking it if free). */
  private async hold(clusterId: string): Promise<boolean> {
    if (this.leases.has(clusterId)) return true;
    const lease = await this.deps.backend.tryLease(usageLeaseKey(clusterId));
    if (!lease) return false;
    if (this.closed) {
      await lease.release().catch(() => {});
      return false;
    }
    this.leases.set(clusterId, lease);
    void lease.lost.then(() => {
      if (this.leases.get(clusterId) !== lease) return;
      this.leases.delete(clusterId);
      this.deps.logger.warn({ clusterId }, 'usage: the sampler lease was lost; another replica may sample');
    });
    return true;
  }

  private async giveBack(clusterId: string): Promise<void> {
    const lease = this.leases.get(clusterId);
    if (!lease) return;
    this.leases.delete(clusterId);
    await lease.release().catch(() => {});
  }

  private async maintainAll(): Promise<void> {
    const { retentionMs, downsampleAfterMs, downsampleStepMs, intervalMs } = this.deps.options;
    // Larger than one bucket's samples, so a bucket is never merged from part of them.
    const batch = Math.max(2_000, 2 * Math.ceil(downsampleStepMs / Math.max(intervalMs, 1)) + 1);
    const pass = async (clusterId: string) => {
      const now = this.deps.now();
      const cut = Math.floor((now - downsampleAfterMs) / downsampleStepMs) * downsampleStepMs;
      while (!this.closed && (await this.store.downsample(clusterId, cut, downsampleStepMs, batch)) > 0)
        await yieldToEventLoop();
      while (!this.closed && (await this.store.prune(clusterId, now - retentionMs)) > 0)
        await yieldToEventLoop();
    };
    // The clusters this replica samples, and those nobody samples any more (removed, no longer
    // recorded): their rows still age out, under the lease taken for the pass alone.
    const held = new Set(this.sampling());
    for (const clusterId of new Set([...held, ...(await this.store.clusters())])) {
      try {
        if (held.has(clusterId)) await pass(clusterId);
        else if (!this.closed) {
          const lease = await this.deps.backend.tryLease(usageLeaseKey(clusterId));
          if (lease) await pass(clusterId).finally(() => lease.release().catch(() => {}));
        }
      } catch (err) {
        this.deps.logger.error(
          { clusterId, err: err instanceof Error ? err.message : String(err) },
          'usage: downsampling or retention failed; tried again at the next pass',
        );
      }
    }
  }
}
