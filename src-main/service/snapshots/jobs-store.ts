import type {
  SnapshotGap,
  SnapshotJob,
  SnapshotProgress,
} from '../../../src-shared/contract/snapshot-models';
import type { StorageBackend } from '../storage/backend';

/**
 * Capture jobs' rows (table snapshot_jobs, migration 5), shared by every replica over one database.
 * The registry (jobs.ts) decides; this module only reads and writes rows.
 *
 * Rules:
 * - Every write that changes a running job is conditional on the row still being running, and
 *   (for the owner's own writes) still owned by the writer: a job another replica declared dead
 *   stays failed, and a late heartbeat or result of its old owner changes nothing.
 * - Declaring a job dead is conditional on the heartbeat the reader saw: if the owner beat in
 *   between, the job lives on.
 * - Times are epoch milliseconds; progress and missing are JSON, read whole.
 * - The taker (account id) is kept in the row, not in the view: who may download the file is the
 *   service's decision (operations/snapshots.ts), not part of the job the API shows.
 * - Writes answer whether they changed a row; a sealed backend (the service closing) changes none.
 */

export interface JobRow {
  snapshot_id: string;
  status: SnapshotJob['status'];
  workspace_id: string;
  cluster_id: string;
  context: string;
  file_name: string;
  replica_id: string;
  started_at: number;
  heartbeat_at: number;
  finished_at: number | null;
  size_bytes: number | null;
  progress: string;
  missing: string;
  error: string | null;
  /** The account that started the capture (migration 7); NULL for rows from before it. */
  taker: string | null;
}

const COLUMNS =
  'snapshot_id, status, workspace_id, cluster_id, context, file_name, replica_id, started_at, heartbeat_at, finished_at, size_bytes, progress, missing, error, taker';

/** What GET answers for a row. */
export function viewOf(row: JobRow): SnapshotJob {
  return {
    snapshotId: row.snapshot_id,
    status: row.status,
    workspaceId: row.workspace_id,
    clusterId: row.cluster_id,
    context: row.context,
    startedAt: new Date(row.started_at).toISOString(),
    ...(row.finished_at !== null ? { finishedAt: new Date(row.finished_at).toISOString() } : {}),
    progress: JSON.parse(row.progress) as SnapshotProgress,
    ...(row.size_bytes !== null ? { sizeBytes: row.size_bytes } : {}),
    missing: JSON.parse(row.missing) as SnapshotGap[],
    ...(row.error !== null ? { error: row.error } : {}),
    fileName: row.file_name,
  };
}

export class JobRows {
  constructor(private readonly db: StorageBackend) {}

  /** A new running job; throws when the cluster has a running one (the unique partial index). */
  async insert(view: SnapshotJob, replicaId: string, nowMs: number, taker?: string): Promise<boolean> {
    const changed = await this.db.run(
      `INSERT INTO snapshot_jobs (${COLUMNS})
       VALUES ($id, 'running', $workspace, $cluster, $context, $fileName, $replica, $started, $now, NULL, NULL,
               $progress, $missing, NULL, $taker)`,
      {
        id: view.snapshotId,
        workspace: view.workspaceId,
        cluster: view.clusterId,
        context: view.context,
        fileName: view.fileName,
        replica: replicaId,
        started: Date.parse(view.startedAt),
        now: nowMs,
        progress: JSON.stringify(view.progress),
        missing: JSON.stringify(view.missing),
        taker: taker ?? null,
      },
    );
    return changed === 1;
  }

  get(snapshotId: string): Promise<JobRow | undefined> {
    return this.db.get<JobRow>(`SELECT ${COLUMNS} FROM snapshot_jobs WHERE snapshot_id = $id`, {
      id: snapshotId,
    });
  }

  runningOf(clusterId: string): Promise<JobRow | undefined> {
    return this.db.get<JobRow>(
      `SELECT ${COLUMNS} FROM snapshot_jobs WHERE cluster_id = $cluster AND status = 'running'`,
      { cluster: clusterId },
    );
  }

  /** Running jobs whose owner last beat at or before `cutoffMs`, of any replica but `except`. */
  stale(cutoffMs: number, except: string): Promise<JobRow[]> {
    return this.db.all<JobRow>(
      `SELECT ${COLUMNS} FROM snapshot_jobs
       WHERE status = 'running' AND heartbeat_at <= $cutoff AND replica_id <> $except`,
      { cutoff: cutoffMs, except },
    );
  }

  /** Running jobs recorded as this replica's: at start, left by an earlier life of the same replica id. */
  runningOfReplica(replicaId: string): Promise<JobRow[]> {
    return this.db.all<JobRow>(
      `SELECT ${COLUMNS} FROM snapshot_jobs WHERE status = 'running' AND replica_id = $replica`,
      { replica: replicaId },
    );
  }

  /** Every job's id and status, for the folder's clean-up at start. */
  states(): Promise<Array<Pick<JobRow, 'snapshot_id' | 'status'>>> {
    return this.db.all(`SELECT snapshot_id, status FROM snapshot_jobs`);
  }

  /** The owner's sign of life, with the progress so far; false once the row is no longer its running job. */
  async beat(view: SnapshotJob, replicaId: string, nowMs: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE snapshot_jobs SET heartbeat_at = $now, progress = $progress, missing = $missing
       WHERE snapshot_id = $id AND status = 'running' AND replica_id = $replica`,
      {
        id: view.snapshotId,
        replica: replicaId,
        now: nowMs,
        progress: JSON.stringify(view.progress),
        missing: JSON.stringify(view.missing),
      },
    );
    return changed === 1;
  }

  /** The owner's result (done or failed), finished now; false when the row was no longer its running job. */
  async finish(view: SnapshotJob, replicaId: string, nowMs: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE snapshot_jobs
       SET status = $status, finished_at = $now, heartbeat_at = $now, size_bytes = $size,
           progress = $progress, missing = $missing, error = $error
       WHERE snapshot_id = $id AND status = 'running' AND replica_id = $replica`,
      {
        id: view.snapshotId,
        replica: replicaId,
        status: view.status,
        now: nowMs,
        size: view.sizeBytes ?? null,
        progress: JSON.stringify(view.progress),
        missing: JSON.stringify(view.missing),
        error: view.error ?? null,
      },
    );
    return changed === 1;
  }

  /** Fails a running job as seen (same owner, same heartbeat); nothing when it changed meanwhile. */
  async failSeen(row: JobRow, error: string, nowMs: number): Promise<void> {
    await this.db.run(
      `UPDATE snapshot_jobs SET status = 'failed', finished_at = $now, error = $error
       WHERE snapshot_id = $id AND status = 'running' AND replica_id = $replica AND heartbeat_at = $seen`,
      { id: row.snapshot_id, replica: row.replica_id, seen: row.heartbeat_at, now: nowMs, error },
    );
  }

  /** Finished jobs to forget: ended at or before `cutoffMs`, or beyond the newest `maxKept`. */
  async expired(cutoffMs: number, maxKept: number): Promise<string[]> {
    const rows = await this.db.all<{ snapshot_id: string }>(
      `SELECT snapshot_id FROM snapshot_jobs
       WHERE finished_at IS NOT NULL AND (finished_at <= $cutoff OR snapshot_id NOT IN (
         SELECT snapshot_id FROM snapshot_jobs WHERE finished_at IS NOT NULL
         ORDER BY finished_at DESC, snapshot_id LIMIT $kept))`,
      { cutoff: cutoffMs, kept: maxKept },
    );
    return rows.map((r) => r.snapshot_id);
  }

  /** Forgets these jobs (finished or not): the caller removes their files. */
  async remove(snapshotIds: readonly string[]): Promise<void> {
    await this.db.transaction('forget snapshot jobs', async (tx) => {
      for (const id of snapshotIds) await tx.run('DELETE FROM snapshot_jobs WHERE snapshot_id = $id', { id });
    });
  }
}
