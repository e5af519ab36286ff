import { requireAdmin } from '../auth/guard';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { paginate } from '../pagination';

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
      const data = await Promise.all(items.map((c) => registry.describeCluster(c, params.workspaceId)));
      return { data, page };
    },

    async updateCluster({ params, body }, ctx) {
      // The flags belong to the cluster, shared by every workspace that holds it.
      requireAdmin(ctx.principal, 'change monitoring flags');
      const c = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      if (c.readOnly)
        throw new ProblemError('conflict', 'a snapshot is read-only: its monitoring flags cannot change');
      registry.setMonitoring(c.clusterId, body.clusterAgent.monitoring);
      await registry.saved();
      return { data: await registry.describeCluster(c, params.workspaceId) };
    },
  };
}
