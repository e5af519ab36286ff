import { requireAdmin } from '../auth/guard';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandler } from '../context';
import { ProblemError } from '../errors';
import type { SnapshotOpener } from '../snapshots/open';
import { DEFAULT_WORKSPACE_ID } from '../workspaces/config';

/**
 * POST /v1/snapshots: the body is a `.skiff` file. Administrators only, checked before a byte of
 * the body is read; the HTTP edge then streams it to a temporary file (bounded, of the snapshot
 * media types) and the opener owns that file from then on, checking it in processes of its own
 * (snapshots/inspect.ts) while this service goes on answering. 201 with the new cluster and its
 * Location; 200 with the cluster already open when the same capture is sent again with the same
 * content, 409 when with other content; 400 for a file the check refuses.
 */
export function openSnapshotHandler(
  registry: ClusterRegistry,
  opener: SnapshotOpener,
): OperationHandler<'openSnapshot'> {
  return async (_input, ctx) => {
    requireAdmin(ctx.principal, 'open snapshots');
    if (!ctx.upload) {
      // IPC carries no file: the desktop opens a chosen file through service.snapshots.open(path).
      throw new ProblemError('invalid_body', 'send the snapshot file as the request body');
    }
    const received = await ctx.upload.receive();
    ctx.upload.keep();
    const { cluster, created } = await opener.open(received.path, {
      owned: true,
      shownAs: 'the uploaded file',
      // `--authorize rbac`: seen by its openers only (clusters/registry.ts).
      openedBy: ctx.principal.accountId,
    });
    const data = await registry.describeCluster(cluster, DEFAULT_WORKSPACE_ID);
    return {
      data,
      status: created ? 201 : 200,
      headers: { Location: `/v1/workspaces/${DEFAULT_WORKSPACE_ID}/clusters/${cluster.clusterId}` },
    };
  };
}
