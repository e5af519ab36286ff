/**
 * Cluster snapshots (issue 10 §2): one cluster captured into one `.skiff` file, a versioned SQLite
 * database, and reviewed later with no network as a read-only cluster.
 */

export type SnapshotJobStatus = 'running' | 'done' | 'failed';

/** A part of the cluster a capture could not take; the file says so too. */
export interface SnapshotGap {
  /** What is missing: a kind's plural (`pods`), `events`, `eventHistory`, `logs` or `metrics`. */
  part: string;
  /** The pod and container for `logs`, else absent. */
  target?: string;
  /** Why, in the cluster's or the service's words. */
  reason: string;
}

export interface SnapshotProgress {
  /** Objects of the nine kinds written so far. */
  objects: number;
  /** Events written so far (history included). */
  events: number;
  /** Pods whose logs are written, and how many pods will have logs taken. */
  podLogsDone: number;
  podLogsTotal: number;
}

/** A capture job, as `GET /v1/snapshots/{snapshotId}` reports it. */
export interface SnapshotJob {
  snapshotId: string;
  status: SnapshotJobStatus;
  workspaceId: string;
  clusterId: string;
  /** The kubeconfig context captured. */
  context: string;
  startedAt: string;
  /** Set once the job is done or failed. */
  finishedAt?: string;
  progress: SnapshotProgress;
  /** The final file's size; set once done. */
  sizeBytes?: number;
  /** Parts the capture could not take. A done job with gaps is still a usable snapshot. */
  missing: SnapshotGap[];
  /** Why a failed job failed. No file is left behind for it. */
  error?: string;
  /** The file name offered for download, e.g. `prod-eu-2026-11-24T14-03-00Z.skiff`. */
  fileName: string;
}
