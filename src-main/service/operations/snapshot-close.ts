import { requireAdmin } from '../auth/guard';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandler } from '../context';
import { ProblemError } from '../errors';
import type { SnapshotOpener } from '../snapshots/open';

/**
 * DELETE /v1/workspaces/{workspaceId}/clusters/{clusterId}: closes an opened snapshot.
 * Administrators only, as opening is: every user's cluster list changes. A cluster the caller
 * cannot see (or one closed already) is 404 `cluster_not_found`; a cluster of a kubeconfig
 * context is 409 `conflict`, since only what was opened can be closed. Answers the cluster it was.
 */
export function closeSnapshotHandler(
  registry: ClusterRegistry,
  opener: SnapshotOpener,
): OperationHandler<'closeSnapshot'> {
  return async ({ params }, ctx) => {
    requireAdmin(ctx.principal, 'close snapshots');
    const { workspaceId, clusterId } = params;
    const cluster = registry.cluster(workspaceId, clusterId, ctx.principal);
    if (!cluster.snapshot) {
      throw new ProblemError(
        'conflict',
        `cluster "${clusterId}" comes from a kubeconfig context; only an opened snapshot can be closed`,
      );
    }
    const data = await registry.describeCluster(cluster, workspaceId);
    // A second close of the same snapshot that got here first has already removed it.
    if (!(await opener.closeOne(clusterId))) {
      throw new ProblemError(
        'cluster_not_found',
        `cluster "${clusterId}" not found in workspace "${workspaceId}"`,
      );
    }
    return { data };
  };
}
