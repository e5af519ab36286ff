import { z } from 'zod';

/**
 * Cluster snapshots (issue 10 §2): one cluster captured into one `.skiff` file, a versioned SQLite
 * database, and reviewed later with no network as a read-only cluster.
 */

export const snapshotJobStatus = z.enum(['running', 'done', 'failed']).meta({ id: 'SnapshotJobStatus' });
export type SnapshotJobStatus = z.infer<typeof snapshotJobStatus>;

/** A part of the cluster a capture could not take; the file says so too. */
export const snapshotGap = z
  .strictObject({
    part: z.string().meta({
      description:
        "What is missing: a kind's plural (`pods`; `certificates.cert-manager.io` outside the core group and the nine), `discovery`, `events`, `eventHistory`, `logs` or `metrics`.",
    }),
    target: z.string().optional().meta({
      description:
        'The pod and container for `logs`; the group version discovery could not read for `discovery`; else absent.',
    }),
    reason: z.string().meta({ description: "Why, in the cluster's or the service's words." }),
  })
  .meta({ id: 'SnapshotGap' });
export type SnapshotGap = z.infer<typeof snapshotGap>;

export const snapshotProgress = z
  .strictObject({
    objects: z.number().int().meta({ description: 'Objects written so far, of every kind taken.' }),
    events: z.number().int().meta({ description: 'Events written so far (history included).' }),
    podLogsDone: z.number().int().meta({ description: 'Pods whose logs are written.' }),
    podLogsTotal: z.number().int().meta({ description: 'How many pods will have logs taken.' }),
  })
  .meta({ id: 'SnapshotProgress' });
export type SnapshotProgress = z.infer<typeof snapshotProgress>;

/** A capture job, as `GET /v1/snapshots/{snapshotId}` reports it. */
export const snapshotJob = z
  .strictObject({
    snapshotId: z.string(),
    status: snapshotJobStatus,
    workspaceId: z.string(),
    clusterId: z.string(),
    context: z.string().meta({ description: 'The kubeconfig context captured.' }),
    startedAt: z.string(),
    finishedAt: z.string().optional().meta({ description: 'Set once the job is done or failed.' }),
    progress: snapshotProgress,
    sizeBytes: z.number().int().optional().meta({ description: "The final file's size; set once done." }),
    missing: z.array(snapshotGap).meta({
      description: 'Parts the capture could not take. A done job with gaps is still a usable snapshot.',
    }),
    error: z
      .string()
      .optional()
      .meta({ description: 'Why a failed job failed. No file is left behind for it.' }),
    fileName: z.string().meta({
      description: 'The file name offered for download, e.g. `prod-eu-2026-11-24T14-03-00Z.skiff`.',
    }),
  })
  .meta({ id: 'SnapshotJob' });
export type SnapshotJob = z.infer<typeof snapshotJob>;
