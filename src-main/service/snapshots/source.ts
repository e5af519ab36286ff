import type { ResourceKindInfo } from '../../../src-shared/kube/kinds';
import type { ReadAccess } from '../auth/rbac/access';
import { clusterNamespaces, type ScopeAttributes } from '../auth/read-scope';
import type { ResourceEntry } from '../cache/entries';
import type { ClusterConnection } from '../clusters/cluster';
import { kindRows } from '../clusters/discovery/kinds-answer';
import type { DiscoveryGap } from '../clusters/discovery/model';
import { ProblemError } from '../errors';
import type { HistoryRow } from '../events/history/filter';
import type { EventHistory } from '../events/history/index';
import type { KubeClient } from '../kube/kube-client';
import type { Queryable } from '../storage/backend';
import type { CaptureScope } from './capture-scope';
import type { SnapshotKind } from './kinds-table';

/**
 * What a capture reads of the cluster's discovery: the kinds (with printer columns) and its gaps.
 * Here, beside the source that answers it, so that capture-kinds.ts imports this module and not
 * the other way round (no import cycle).
 */
export interface CaptureDiscovery {
  kinds: readonly SnapshotKind[];
  gaps: readonly DiscoveryGap[];
}

/**
 * What Skiff recorded of the cluster beyond events (issue 27), as a capture reads it
 * (capture-recorded.ts); here for the same reason as CaptureDiscovery.
 */
export interface RecordedCapture {
  /** The app's database: rows under the source's clusterId. */
  db: Queryable;
  /** Writes what the recorders still hold, so the capture reads it. */
  flush?(): Promise<void>;
}

/** What a capture reads from: one cluster's caches and client, and its recorded events. */
export interface CaptureSource {
  clusterId: string;
  context: string;
  server: string;
  client: KubeClient;
  timeoutMs: number;
  /** Every object of a kind, as the cluster's watch cache holds it (waiting for its first list). */
  objects(kind: ResourceKindInfo, signal: AbortSignal): Promise<readonly ResourceEntry[]>;
  /** The kinds the cluster serves (its discovery as of now) and the group versions it could not read. */
  discovery(signal: AbortSignal): Promise<CaptureDiscovery>;
  /** The recorded events after `after`, `limit` at most; undefined when nothing is recorded. */
  history(
    after: { lastMs: number; eventId: string } | undefined,
    limit: number,
  ): Promise<HistoryRow[] | undefined>;
  /** What Skiff recorded of the cluster (issue 27: capture-recorded.ts); absent when nothing is. */
  recorded?: RecordedCapture;
  /**
   * `--authorize rbac`: where the taker may read a part (capture-scope.ts); absent when it may
   * read everything (authorization off), and then nothing is narrowed.
   */
  scope?(attrs: ScopeAttributes, signal: AbortSignal): Promise<CaptureScope>;
}

/**
 * A cache's first list may take longer than one request timeout on a large cluster; its informer
 * keeps listing meanwhile, so a capture waits a few timeouts before it gives the kind up. A list
 * still arriving (503 cluster_syncing: pages keep coming) is no attempt lost: it is waited on.
 */
const ACQUIRE_ATTEMPTS = 3;

async function acquired(cluster: ClusterConnection, kind: ResourceKindInfo, signal: AbortSignal) {
  const cache = cluster.resources(kind);
  for (let attempt = 1; ; attempt++) {
    try {
      await cache.acquire(signal);
      return cache;
    } catch (err) {
      if (err instanceof ProblemError && err.code === 'cluster_syncing' && !signal.aborted) {
        attempt--;
        continue;
      }
      const waitedOut = err instanceof ProblemError && err.code === 'cluster_timeout';
      if (!waitedOut || attempt >= ACQUIRE_ATTEMPTS || signal.aborted) throw err;
    }
  }
}

/**
 * Where the taker may read a part: the cluster's namespaces (read once per capture) asked of its
 * ReadAccess; undefined when allowed cluster-wide.
 */
function scopeOf(cluster: ClusterConnection, access: ReadAccess) {
  let names: Promise<string[]> | undefined;
  return async (attrs: ScopeAttributes, signal: AbortSignal): Promise<CaptureScope> => {
    names ??= clusterNamespaces(cluster, signal);
    const candidates = await names.catch((err: unknown) => {
      names = undefined;
      throw err;
    });
    const allowed = await access.namespaces(attrs, candidates);
    if (allowed === 'all') return undefined;
    return { allowed, denied: candidates.filter((n) => !allowed.has(n)) };
  };
}

/**
 * A connected cluster as a capture source; `history` absent when the service records no events,
 * `access` the taker's (`--authorize rbac`: the capture takes only what it may read), `recorded`
 * the app's recorded changes, usage and kept logs (absent: none are taken).
 */
export function clusterSource(
  cluster: ClusterConnection,
  history?: EventHistory,
  access?: ReadAccess,
  recorded?: RecordedCapture,
): CaptureSource {
  return {
    ...(access && !access.open ? { scope: scopeOf(cluster, access) } : {}),
    ...(recorded ? { recorded } : {}),
    clusterId: cluster.clusterId,
    context: cluster.context,
    server: cluster.source.server,
    client: cluster.client,
    timeoutMs: cluster.timeoutMs,
    async objects(kind, signal) {
      // The cache's current snapshot is immutable: the capture reads it while the watch goes on.
      return (await acquired(cluster, kind, signal)).read().view.all;
    },
    async discovery(signal) {
      const view = await cluster.discovery.current(signal);
      // kindRows keeps discovery's order, one row per kind.
      const kinds = kindRows(view).map((row, i) => ({ ...row, singular: view.kinds[i]!.singular }));
      return { kinds, gaps: view.gaps };
    },
    history: async (after, limit) => (history ? history.rowsAfter(cluster, after, limit) : undefined),
  };
}
