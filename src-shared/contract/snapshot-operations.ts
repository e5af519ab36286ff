import { z } from 'zod';
import { defineOperation, streamBody } from './define';
import { cluster } from './models';
import { idParam } from './params';
import { snapshotJob } from './snapshot-models';

/**
 * Cluster snapshots (issue 10 §2): take one from a connected cluster as a background job, download
 * its `.skiff` file, open a `.skiff` file as a read-only cluster, and close it again. The file format is in
 * docs/snapshot-format.md.
 */

export const SNAPSHOT_MEDIA_TYPE = 'application/vnd.skiff.snapshot+sqlite';
export const DEFAULT_SNAPSHOT_LOG_LINES = 1_000;
export const MAX_SNAPSHOT_LOG_LINES = 10_000;
/** Names in a capture's `kinds`, and the length of one (`singular.group`: 63 + 1 + 253). */
export const MAX_SNAPSHOT_KINDS = 1_000;
export const MAX_SNAPSHOT_KIND_NAME = 317;

const snapshotId = { snapshotId: idParam('snapshotId') };
const clusterIds = { workspaceId: idParam('workspaceId'), clusterId: idParam('clusterId') };

export const snapshotOperations = {
  createSnapshot: defineOperation({
    method: 'POST',
    path: '/v1/workspaces/:workspaceId/clusters/:clusterId/snapshots',
    summary:
      'Start capturing the cluster into a snapshot file (administrators); answers 202 with the job and a Location to poll.',
    // A capture reads the whole cluster and writes it to the service's disk: an administrator's act.
    auth: 'session',
    params: z.strictObject(clusterIds),
    query: z.strictObject({}),
    // An empty body takes every default.
    body: z
      .strictObject({
        /** Lines kept of each container's log (and of its previous run's). */
        logLines: z.number().int().min(0).max(MAX_SNAPSHOT_LOG_LINES).default(DEFAULT_SNAPSHOT_LOG_LINES),
        /** Whose logs: every pod's, only the pods that are failing, or none. */
        logs: z.enum(['all', 'failing', 'none']).default('all'),
        kinds: z
          .array(z.string().min(1).max(MAX_SNAPSHOT_KIND_NAME))
          .min(1)
          .max(MAX_SNAPSHOT_KINDS)
          .optional()
          .meta({
            description:
              'Only these kinds’ objects, named as resourceType is (`configmap`, `certificate.cert-manager.io`; case does not matter); every kind the cluster serves when absent. A name the cluster does not serve, a plural or a short name is 400 invalid_resource_type. Events are always taken, in their own table.',
          }),
      })
      .optional(),
    result: snapshotJob,
    paginated: false,
    successStatus: 202,
  }),

  getSnapshot: defineOperation({
    method: 'GET',
    path: '/v1/snapshots/:snapshotId',
    summary: 'A capture job: its status, progress, final size and the parts it could not take.',
    auth: 'credential',
    params: z.strictObject(snapshotId),
    query: z.strictObject({}),
    body: z.undefined(),
    result: snapshotJob,
    paginated: false,
  }),

  downloadSnapshot: defineOperation({
    method: 'GET',
    path: '/v1/snapshots/:snapshotId/file',
    summary: 'The `.skiff` file of a finished capture job.',
    auth: 'credential',
    params: z.strictObject(snapshotId),
    query: z.strictObject({}),
    body: z.undefined(),
    result: streamBody<Uint8Array>(),
    paginated: false,
    streaming: true,
    produces: [SNAPSHOT_MEDIA_TYPE],
  }),

  openSnapshot: defineOperation({
    method: 'POST',
    path: '/v1/snapshots',
    summary:
      'Open a `.skiff` file sent as the body (administrators): it becomes a read-only cluster in the default workspace.',
    auth: 'session',
    params: z.strictObject({}),
    query: z.strictObject({}),
    // The raw file; the HTTP edge streams it to disk and hands the operation its path.
    body: z.undefined(),
    consumes: [SNAPSHOT_MEDIA_TYPE, 'application/octet-stream'],
    result: cluster,
    paginated: false,
    successStatus: 201,
  }),

  closeSnapshot: defineOperation({
    method: 'DELETE',
    path: '/v1/workspaces/:workspaceId/clusters/:clusterId',
    summary:
      'Close an opened snapshot (administrators): it leaves every workspace, its file is closed and an uploaded file removed; answers the cluster it was. A cluster from a kubeconfig context is 409 conflict.',
    // Like opening: what every user's cluster list shows changes.
    auth: 'session',
    params: z.strictObject(clusterIds),
    query: z.strictObject({}),
    body: z.undefined(),
    result: cluster,
    paginated: false,
  }),
} as const;
