/**
 * The change history's operations (src-shared/contract/change-operations.ts): route -> operation ->
 * feature. The reads live in history/changes/reads*.ts and the watch in history/changes/watch*.ts.
 *
 * Rules: no logic here beyond resolving the cluster and the kind as every object read does
 * (ClusterConnection.kind: unknown kind 404, plural 400 with the hint) and handing over.
 */
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import type { Recorded } from '../history/index';

type ChangeOperations =
  | 'objectHistory'
  | 'namespacedObjectHistory'
  | 'objectAt'
  | 'namespacedObjectAt'
  | 'listChanges'
  | 'watchChanges';

export function changeHandlers(
  registry: ClusterRegistry,
  _recorded: Recorded | undefined,
): Pick<OperationHandlers, ChangeOperations> {
  const empty = (limit: number, offset: number) => ({ data: [], page: { total: 0, limit, offset } });
  return {
    async objectHistory({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      await cluster.kind(params.resourceType, ctx.signal);
      return empty(query.limit, query.offset);
    },
    async namespacedObjectHistory({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      await cluster.kind(params.resourceType, ctx.signal, { namespaced: true });
      return empty(query.limit, query.offset);
    },
    async objectAt({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal);
      throw new ProblemError(
        'resource_not_found',
        `${kind.resourceType} "${params.resourceName}" was not recorded then`,
      );
    },
    async namespacedObjectAt({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal, { namespaced: true });
      throw new ProblemError(
        'resource_not_found',
        `${kind.resourceType} "${params.resourceName}" was not recorded then`,
      );
    },
    async listChanges({ params, query }, ctx) {
      registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      return empty(query.limit, query.offset);
    },
    async watchChanges() {
      throw new ProblemError('internal_error', 'the changes watch is not served yet');
    },
  };
}
