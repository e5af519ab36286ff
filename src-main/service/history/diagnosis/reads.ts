/**
 * The recorded rows a diagnosis reads: the changes of its related objects in its window
 * (change_history) and the first failed run kept of a pod (kept_logs).
 *
 * Rules: every read goes through a RecordedSource (history/source.ts: the app's database, or an
 * opened snapshot's tables, never past its takenAt) and names its cluster; one SQL text for both
 * storage backends (`$name` placeholders); each query leads an index (change_history_by_object,
 * kept_logs_by_pod) and is bounded by LIMIT, so a diagnosis costs a few index range reads however
 * many changes are recorded; `seen` rows (a baseline, not a change) are never read.
 */
import type { ChangeRef, JsonPatchOperation } from '../../../../src-shared/contract/change-operations';
import type {
  DiagnosisKeptLog,
  DiagnosisRelation,
} from '../../../../src-shared/contract/diagnosis-operations';
import type { RecordedSource } from '../source';
import type { RankedRow } from './rank';

/** The most rows read of one related object (or one namespace policy kind) in a window. */
export const ROWS_PER_REF = 100;

/** A related object, named as change_history names it, and how it touches the failing one. */
export interface RelatedRef {
  resourceType: string;
  /** '' for a cluster-scoped kind. */
  namespace: string;
  /** Undefined: every object of the kind in the namespace (quotas, limit ranges). */
  name?: string;
  relation: DiagnosisRelation;
}

interface ChangeRow {
  id: number;
  time_ms: number;
  resource_type: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  change: 'created' | 'updated' | 'deleted';
  resource_version: string;
  patch: string;
  summary: string;
}

const COLUMNS =
  'id, time_ms, resource_type, kind, namespace, name, uid, change, resource_version, patch, summary';

function patchOf(text: string): JsonPatchOperation[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as JsonPatchOperation[]) : [];
  } catch {
    return [];
  }
}

function toRanked(r: ChangeRow, relation: DiagnosisRelation, onsetMs: number): RankedRow {
  const ref: ChangeRef = {
    kind: r.kind,
    resourceType: r.resource_type,
    ...(r.namespace !== '' ? { namespace: r.namespace } : {}),
    name: r.name,
    uid: r.uid,
  };
  return {
    id: Number(r.id),
    time: new Date(Number(r.time_ms)).toISOString(),
    ref,
    change: r.change,
    resourceVersion: r.resource_version,
    summary: r.summary,
    patch: patchOf(r.patch),
    relation,
    beforeOnsetMs: onsetMs - Number(r.time_ms),
  };
}

/**
 * The changes of `refs` recorded in [fromMs, untilMs] (untilMs clamped to a snapshot's takenAt),
 * each with its relation. A ref named twice (a ConfigMap used and also an owner's) is read once,
 * under the first, most direct relation given.
 */
export async function changesIn(
  source: RecordedSource,
  refs: readonly RelatedRef[],
  fromMs: number,
  untilMs: number,
  onsetMs: number,
): Promise<RankedRow[]> {
  const until = source.asOfMs === undefined ? untilMs : Math.min(untilMs, source.asOfMs);
  const seen = new Set<string>();
  const out: RankedRow[] = [];
  for (const ref of refs) {
    const key = `${ref.resourceType}\u0000${ref.namespace}\u0000${ref.name ?? '\u0000*'}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const byName = ref.name !== undefined ? ' AND name = $name' : '';
    const rows = await source.db.all<ChangeRow>(
      `SELECT ${COLUMNS} FROM change_history
       WHERE cluster_id = $cluster AND resource_type = $type AND namespace = $namespace${byName}
         AND time_ms >= $from AND time_ms <= $until AND change <> 'seen'
       ORDER BY time_ms DESC, id DESC LIMIT ${ROWS_PER_REF}`,
      {
        cluster: source.clusterId,
        type: ref.resourceType,
        namespace: ref.namespace,
        ...(ref.name !== undefined ? { name: ref.name } : {}),
        from: fromMs,
        until,
      },
    );
    for (const r of rows) out.push(toRanked(r, ref.relation, onsetMs));
  }
  return out;
}

interface KeptRow {
  container: string;
  restart_count: number;
  finished_at: string | null;
  finished_ms: number;
  exit_code: number | null;
  reason: string;
  line_count: number;
}

/** The earliest failed run kept of one pod (by uid when known): non-zero exit, Error or OOMKilled. */
export async function firstFailedRun(
  source: RecordedSource,
  namespace: string,
  pod: string,
  uid: string | undefined,
): Promise<DiagnosisKeptLog | undefined> {
  const asOf = source.asOfMs === undefined ? '' : ' AND finished_ms <= $asOf';
  const byUid = uid === undefined ? '' : ' AND pod_uid = $uid';
  const row = await source.db.get<KeptRow>(
    `SELECT container, restart_count, finished_at, finished_ms, exit_code, reason, line_count FROM kept_logs
     WHERE cluster_id = $cluster AND namespace = $namespace AND pod = $pod${byUid}${asOf}
       AND (exit_code <> 0 OR reason IN ('Error', 'OOMKilled'))
     ORDER BY finished_ms ASC, id ASC LIMIT 1`,
    {
      cluster: source.clusterId,
      namespace,
      pod,
      ...(uid === undefined ? {} : { uid }),
      ...(source.asOfMs === undefined ? {} : { asOf: source.asOfMs }),
    },
  );
  if (!row) return undefined;
  return {
    namespace,
    pod,
    container: row.container,
    restartCount: Number(row.restart_count),
    finishedAt: row.finished_at ?? new Date(Number(row.finished_ms)).toISOString(),
    ...(row.exit_code !== null ? { exitCode: Number(row.exit_code) } : {}),
    reason: row.reason,
    lines: Number(row.line_count),
  };
}
