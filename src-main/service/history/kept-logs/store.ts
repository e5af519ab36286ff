/**
 * The kept_logs table (storage migration 8): one row per kept run of a container, its last lines
 * as the kubelet sent them (timestamped, newline-joined), on SQLite and PostgreSQL alike.
 *
 * Rules: a run is kept once (UNIQUE cluster, namespace, pod, pod uid, container, restart index:
 * a second replica's or a restarted Skiff's insert of the same run does nothing); a cluster's
 * rows hold at most `maxBytes` of lines, the oldest kept dropped first, in bounded batches; reads
 * go through recordedSource (a snapshot's own tables), always by cluster id and through the
 * kept_logs_by_pod index, and never see a row kept after the source's asOfMs.
 */

import type { Params, Queryable, StorageBackend } from '../../storage/backend';
import type { RecordedSource } from '../source';

export interface KeptRun {
  namespace: string;
  pod: string;
  podUid: string;
  container: string;
  restartCount: number;
  finishedAt: string | null;
  /** Epoch ms of finishedAt, or when Skiff saw the run end when the kubelet did not say. */
  finishedMs: number;
  exitCode: number | null;
  reason: string;
  /** Raw kubelet lines, oldest first. */
  lines: readonly string[];
}

export interface KeptRunSummary {
  container: string;
  restartCount: number;
  podUid: string;
  finishedAt: string;
  exitCode: number | null;
  reason: string;
  lines: number;
}

interface SummaryRow {
  container: string;
  restart_count: number;
  pod_uid: string;
  finished_at: string | null;
  finished_ms: number;
  exit_code: number | null;
  reason: string;
  line_count: number;
}

/** Rows looked at per pruning step; a step deletes at most these. */
export const PRUNE_BATCH = 200;

/** Inserts the run unless it is kept already; answers true when this call kept it. */
export async function insertRun(
  db: Queryable,
  clusterId: string,
  run: KeptRun,
  keptAt: number,
): Promise<boolean> {
  const text = run.lines.join('\n');
  const changed = await db.run(
    `INSERT INTO kept_logs (cluster_id, namespace, pod, pod_uid, container, restart_count, finished_at,
       finished_ms, exit_code, reason, lines, line_count, bytes, kept_at)
     VALUES ($cluster, $namespace, $pod, $uid, $container, $restart, $finishedAt, $finishedMs, $exitCode,
       $reason, $lines, $lineCount, $bytes, $keptAt)
     ON CONFLICT DO NOTHING`,
    {
      cluster: clusterId,
      namespace: run.namespace,
      pod: run.pod,
      uid: run.podUid,
      container: run.container,
      restart: run.restartCount,
      finishedAt: run.finishedAt,
      finishedMs: run.finishedMs,
      exitCode: run.exitCode,
      reason: run.reason,
      lines: text,
      lineCount: run.lines.length,
      bytes: Buffer.byteLength(text),
      keptAt,
    },
  );
  return changed > 0;
}

/** True when the run is kept already (a restarted Skiff does not ask the kubelet again). */
export async function hasRun(
  db: Queryable,
  clusterId: string,
  ref: { namespace: string; pod: string; podUid: string; container: string; restartCount: number },
): Promise<boolean> {
  const row = await db.get<{ one: number }>(
    `SELECT 1 AS one FROM kept_logs WHERE cluster_id = $cluster AND namespace = $namespace AND pod = $pod
       AND pod_uid = $uid AND container = $container AND restart_count = $restart`,
    {
      cluster: clusterId,
      namespace: ref.namespace,
      pod: ref.pod,
      uid: ref.podUid,
      container: ref.container,
      restart: ref.restartCount,
    },
  );
  return row !== undefined;
}

/**
 * Drops the cluster's oldest kept runs until its lines fit in `maxBytes`; answers how many went.
 * Each step reads at most PRUNE_BATCH of the oldest rows and deletes those the excess needs.
 */
export async function pruneToBytes(
  backend: StorageBackend,
  clusterId: string,
  maxBytes: number,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const total = await backend.get<{ total: number | null }>(
      'SELECT SUM(bytes) AS total FROM kept_logs WHERE cluster_id = $cluster',
      { cluster: clusterId },
    );
    let excess = Number(total?.total ?? 0) - maxBytes;
    if (excess <= 0) return removed;
    const oldest = await backend.all<{ id: number; bytes: number; kept_at: number }>(
      `SELECT id, bytes, kept_at FROM kept_logs WHERE cluster_id = $cluster ORDER BY kept_at, id LIMIT ${PRUNE_BATCH}`,
      { cluster: clusterId },
    );
    let last: { id: number; kept_at: number } | undefined;
    for (const row of oldest) {
      last = row;
      excess -= row.bytes;
      if (excess <= 0) break;
    }
    if (!last) return removed;
    removed += await backend.run(
      `DELETE FROM kept_logs WHERE cluster_id = $cluster
         AND (kept_at < $keptAt OR (kept_at = $keptAt AND id <= $id))`,
      { cluster: clusterId, keptAt: last.kept_at, id: last.id },
    );
  }
}

const asOfClause = (source: RecordedSource) => (source.asOfMs !== undefined ? ' AND kept_at <= $asOf' : '');
const asOfParam = (source: RecordedSource): Params =>
  source.asOfMs !== undefined ? { asOf: source.asOfMs } : {};

/** The pod's kept runs, newest end first (every pod of that name: a deleted one's too). */
export async function listRuns(
  source: RecordedSource,
  namespace: string,
  pod: string,
): Promise<KeptRunSummary[]> {
  const rows = await source.db.all<SummaryRow>(
    `SELECT container, restart_count, pod_uid, finished_at, finished_ms, exit_code, reason, line_count
       FROM kept_logs WHERE cluster_id = $cluster AND namespace = $namespace AND pod = $pod${asOfClause(source)}
       ORDER BY finished_ms DESC, id DESC`,
    { cluster: source.clusterId, namespace, pod, ...asOfParam(source) },
  );
  return rows.map((r) => ({
    container: r.container,
    restartCount: Number(r.restart_count),
    podUid: r.pod_uid,
    finishedAt: r.finished_at ?? new Date(Number(r.finished_ms)).toISOString(),
    exitCode: r.exit_code === null ? null : Number(r.exit_code),
    reason: r.reason,
    lines: Number(r.line_count),
  }));
}

/**
 * The lines of one run, or undefined when none is kept. Two pods of the same name (a StatefulSet's
 * pod recreated) may both have a run with this index: the one that ended last is answered.
 */
export async function readRun(
  source: RecordedSource,
  ref: { namespace: string; pod: string; container: string; restartCount: number; podUid?: string },
): Promise<string[] | undefined> {
  const byUid = ref.podUid !== undefined ? ' AND pod_uid = $uid' : '';
  const row = await source.db.get<{ lines: string }>(
    `SELECT lines FROM kept_logs WHERE cluster_id = $cluster AND namespace = $namespace AND pod = $pod
       AND container = $container AND restart_count = $restart${byUid}${asOfClause(source)}
       ORDER BY finished_ms DESC, id DESC LIMIT 1`,
    {
      cluster: source.clusterId,
      namespace: ref.namespace,
      pod: ref.pod,
      container: ref.container,
      restart: ref.restartCount,
      ...(ref.podUid !== undefined ? { uid: ref.podUid } : {}),
      ...asOfParam(source),
    },
  );
  if (row === undefined) return undefined;
  return row.lines === '' ? [] : row.lines.split('\n');
}
