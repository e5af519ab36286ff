import type { Cluster } from '../../../src-shared/contract/models';
import { requireAdmin } from '../auth/guard';
import type { ClusterConnection } from '../clusters/cluster';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { paginate } from '../pagination';

export async function describeCluster(
  registry: ClusterRegistry,
  c: ClusterConnection,
  workspaceId: string,
): Promise<Cluster> {
  const { snapshot } = c;
  if (snapshot) {
    // Frozen: never probed, never stale; it says what was captured and when.
    return {
      clusterId: c.clusterId,
      workspaceId,
      name: `${snapshot.context} (snapshot)`,
      context: snapshot.context,
      server: snapshot.server,
      status: 'snapshot',
      ...(snapshot.kubernetesVersion ? { kubernetesVersion: snapshot.kubernetesVersion } : {}),
      takenAt: snapshot.takenAt,
      ...(snapshot.missing ? { missing: snapshot.missing } : {}),
      monitoring: { clusterAgent: { monitoring: registry.monitoring(c.clusterId) } },
    };
  }
  const probed = await c.status();
  // A broken watch is as telling as a failed probe, and says since when the data is old.
  const stale = c.staleness();
  const status =
    stale === undefined || probed.status !== 'connected'
      ? probed.status
      : stale.cause?.code === 'cluster_unauthorized'
        ? 'unauthorized'
        : 'unreachable';
  return {
    clusterId: c.clusterId,
    workspaceId,
    name: c.context,
    context: c.context,
    server: c.source.server,
    status,
    ...(probed.version ? { kubernetesVersion: probed.version } : {}),
    ...(stale ? { lastSyncedAt: stale.since } : {}),
    monitoring: { clusterAgent: { monitoring: registry.monitoring(c.clusterId) } },
  };
}

export function workspaceHandlers(
  registry: ClusterRegistry,
): Pick<OperationHandlers, 'listWorkspaces' | 'listClusters' | 'updateCluster'> {
  return {
    async listWorkspaces({ query }, ctx) {
      const { items, page } = paginate(registry.workspaces(ctx.principal), query.limit, query.offset);
      return { data: items, page };
    },

    async listClusters({ params, query }, ctx) {
      const all = registry.clustersOf(params.workspaceId, ctx.principal);
      const { items, page } = paginate(all, query.limit, query.offset);
      // Probes run in parallel and are cached, so a page of clusters costs one round trip at most.
      const data = await Promise.all(items.map((c) => describeCluster(registry, c, params.workspaceId)));
      return { data, page };
    },

    async updateCluster({ params, body }, ctx) {
      // The flags belong to the cluster, shared by every workspace that holds it.
      requireAdmin(ctx.principal, 'change monitoring flags');
      const c = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      if (c.readOnly)
        throw new ProblemError('conflict', 'a snapshot is read-only: its monitoring flags cannot change');
      registry.setMonitoring(c.clusterId, body.clusterAgent.monitoring);
      return { data: await describeCluster(registry, c, params.workspaceId) };
    },
  };
}
