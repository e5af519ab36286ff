import type { ServedKind } from '../../../src-shared/contract/kinds-operations';
import { visibleKinds, visibleNamespaces } from '../auth/rbac/visibility';
import type { ClusterConnection } from '../clusters/cluster';
import { kindRows } from '../clusters/discovery/kinds-answer';
import type { ClusterRegistry } from '../clusters/registry';
import type { CallContext, OperationHandlers } from '../context';
import { paginate } from '../pagination';

/**
 * `GET …/kinds`: the kinds the cluster serves, from its discovery (clusters/discovery/), paged like
 * every list. Group versions that could not be read go in `x-Discovery-Gaps` (HTTP) and
 * `PageInfo.discoveryGaps` (IPC); a discovery whose last reads failed answers its last result with
 * `x-Stale-Since`. A snapshot cluster (ClusterConnection.frozen) answers the kinds its file holds.
 * With `--authorize rbac`, only the kinds the caller may list cluster-wide or in a namespace it
 * sees (auth/rbac/visibility.ts), before paging, so the count is the caller's.
 */
async function readable(
  registry: ClusterRegistry,
  cluster: ClusterConnection,
  rows: ServedKind[],
  ctx: CallContext,
): Promise<ServedKind[]> {
  const access = registry.access(cluster, ctx.principal);
  if (access.open) return rows;
  const namespaceKind = await cluster.kind('namespace', ctx.signal);
  const cache = cluster.resources(namespaceKind);
  await cache.acquire(ctx.signal);
  const names = cache.read().view.all.map((r) => r.name);
  const visible = await visibleNamespaces(access, names);
  return visibleKinds(access, rows, visible === 'all' ? names : names.filter((n) => visible.has(n)));
}

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
      const rows = await readable(registry, cluster, kindRows(view), ctx);
      const { items, page } = paginate(rows, query.limit, query.offset);
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
