import type { ServedKind } from '../../../src-shared/contract/kinds-operations';
import { kindRows } from '../clusters/discovery/kinds-answer';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { paginate } from '../pagination';

/**
 * `GET …/kinds`: the kinds the cluster serves, from its discovery (clusters/discovery/), paged like
 * every list. Group versions that could not be read go in `x-Discovery-Gaps` (HTTP) and
 * `PageInfo.discoveryGaps` (IPC); a discovery whose last reads failed answers its last result with
 * `x-Stale-Since`. A snapshot cluster (ClusterConnection.frozen) answers the kinds its file holds.
 */
export function kindsHandlers(registry: ClusterRegistry): Pick<OperationHandlers, 'listKinds'> {
  return {
    async listKinds({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const { frozen } = cluster;
      if (frozen) {
        const rows = frozen.kindRows.map(({ singular: _singular, ...row }): ServedKind => row);
        const { items, page } = paginate(rows, query.limit, query.offset);
        return { data: items, page };
      }
      const view = await cluster.discovery.current(ctx.signal);
      const { items, page } = paginate(kindRows(view), query.limit, query.offset);
      const gaps = view.gaps.map((g) => g.groupVersion).join(',');
      return {
        data: items,
        page: gaps ? { ...page, discoveryGaps: gaps } : page,
        ...(gaps ? { headers: { 'x-Discovery-Gaps': gaps } } : {}),
        ...(view.staleSince ? { staleSince: view.staleSince } : {}),
      };
    },
  };
}
