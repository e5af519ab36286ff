/**
 * The reads of one object's recorded changes (issue 27 §1): its history page, the object as it was
 * at an instant, and the namespaces that hold a name (a namespaced kind named without one).
 *
 * Rules: every read goes through a RecordedSource (history/source.ts), selects by its clusterId,
 * and answers as of its asOfMs (a snapshot's takenAt: nothing after it exists); rows are read
 * through change_history_by_object in the list's order (time_ms DESC, id DESC), never sorted; an
 * object's history is short (its rows), so its pages use OFFSET. A version is rebuilt as the
 * recorder chains them (changes/store.ts): the latest whole object at or before the row, then the
 * patches after it in id order; the answer carries the row's resourceVersion (the recorder keeps
 * it in a column, not in the patches).
 */
import jsonpatch, { type Operation } from 'fast-json-patch';
import type { Queryable } from '../../storage/backend';
import type { RecordedSource } from '../source';
import { LISTED, objectChangeOf, ROW_COLUMNS, type StoredChange } from './reads-rows';

/** An object as its rows name it: a cluster-scoped kind's namespace is ''. */
export interface ObjectRef {
  resourceType: string;
  namespace: string;
  name: string;
}

/** Epoch ms, inclusive at both ends; absent: open. */
export interface TimeRange {
  sinceMs?: number | undefined;
  untilMs?: number | undefined;
}

/** The end of the range as the source answers it: a snapshot has nothing after its takenAt. */
export function untilOf(source: RecordedSource, untilMs: number | undefined): number | undefined {
  if (source.asOfMs === undefined) return untilMs;
  return untilMs === undefined ? source.asOfMs : Math.min(untilMs, source.asOfMs);
}

function objectWhere(source: RecordedSource, ref: ObjectRef, range: TimeRange) {
  const terms = [
    'cluster_id = $cluster AND resource_type = $type AND namespace = $ns AND name = $name',
    LISTED,
  ];
  const params: Record<string, string | number> = {
    cluster: source.clusterId,
    type: ref.resourceType,
    ns: ref.namespace,
    name: ref.name,
  };
  if (range.sinceMs !== undefined) {
    terms.push('time_ms >= $since');
    params.since = range.sinceMs;
  }
  const until = untilOf(source, range.untilMs);
  if (until !== undefined) {
    terms.push('time_ms <= $until');
    params.until = until;
  }
  return { sql: terms.join(' AND '), params };
}

/** A page of the object's changes, newest first, and how many there are in the range. */
export async function objectHistory(
  source: RecordedSource,
  ref: ObjectRef,
  range: TimeRange,
  limit: number,
  offset: number,
) {
  const w = objectWhere(source, ref, range);
  const counted = await source.db.get<{ n: number }>(
    `SELECT count(*) AS n FROM change_history WHERE ${w.sql}`,
    w.params,
  );
  const total = counted?.n ?? 0;
  const rows =
    offset < total
      ? await source.db.all<StoredChange>(
          `SELECT ${ROW_COLUMNS} FROM change_history WHERE ${w.sql}
           ORDER BY time_ms DESC, id DESC LIMIT $limit OFFSET $offset`,
          { ...w.params, limit, offset },
        )
      : [];
  return { items: rows.map(objectChangeOf), total };
}

/**
 * The namespaces whose rows hold an object of this kind named `name`, in name order. The index
 * leads with the namespace, so each namespace is found by a seek from the one before, then asked
 * for the name by another: a few seeks per namespace, never a scan of the kind's rows.
 */
export async function namespacesHolding(
  source: RecordedSource,
  resourceType: string,
  name: string,
): Promise<string[]> {
  const found: string[] = [];
  const base = { cluster: source.clusterId, type: resourceType };
  let after: string | null = null;
  for (;;) {
    const next: { ns: string | null } | undefined = await source.db.get<{ ns: string | null }>(
      `SELECT MIN(namespace) AS ns FROM change_history WHERE cluster_id = $cluster AND resource_type = $type
         ${after === null ? '' : 'AND namespace > $after'}`,
      after === null ? base : { ...base, after },
    );
    const ns: string | null = next?.ns ?? null;
    if (ns === null) return found;
    const held = await source.db.get(
      `SELECT 1 AS held FROM change_history WHERE cluster_id = $cluster AND resource_type = $type
         AND namespace = $ns AND name = $name ${source.asOfMs !== undefined ? 'AND time_ms <= $asOf' : ''} LIMIT 1`,
      { ...base, ns, name, ...(source.asOfMs !== undefined ? { asOf: source.asOfMs } : {}) },
    );
    if (held) found.push(ns);
    after = ns;
  }
}

/**
 * The object as it was at `atMs`, or undefined when it was not recorded then: before its first
 * recorded version, after its deletion, or a chain that does not rebuild.
 */
export async function objectAt(
  source: RecordedSource,
  object: ObjectRef,
  atMs: number,
): Promise<Record<string, unknown> | undefined> {
  const at = untilOf(source, atMs) as number;
  const params = {
    cluster: source.clusterId,
    type: object.resourceType,
    ns: object.namespace,
    name: object.name,
  };
  const last = await source.db.get<{ id: number; change: string; resource_version: string }>(
    `SELECT id, change, resource_version FROM change_history
     WHERE cluster_id = $cluster AND resource_type = $type AND namespace = $ns AND name = $name AND time_ms <= $at
     ORDER BY time_ms DESC, id DESC LIMIT 1`,
    { ...params, at },
  );
  if (!last || last.change === 'deleted') return undefined;
  const rebuilt = await rebuild(source.db, params, last.id);
  if (!rebuilt) return undefined;
  const metadata = (rebuilt.metadata ?? {}) as Record<string, unknown>;
  return { ...rebuilt, metadata: { ...metadata, resourceVersion: last.resource_version } };
}

/** The version row `id` recorded: the latest whole object at or before it, then the patches after it. */
async function rebuild(
  db: Queryable,
  p: { cluster: string; type: string; ns: string; name: string },
  id: number,
): Promise<Record<string, unknown> | undefined> {
  const rows = await db.all<{ patch: string; object: string | null }>(
    `SELECT patch, object FROM change_history
     WHERE cluster_id = $cluster AND resource_type = $type AND namespace = $ns AND name = $name AND id <= $id
       AND id >= (SELECT MAX(id) FROM change_history
         WHERE cluster_id = $cluster AND resource_type = $type AND namespace = $ns AND name = $name
           AND id <= $id AND object IS NOT NULL)
     ORDER BY id`,
    { ...p, id },
  );
  try {
    let obj: Record<string, unknown> | undefined;
    for (const r of rows) {
      if (r.object !== null) obj = JSON.parse(r.object) as Record<string, unknown>;
      else if (obj)
        obj = jsonpatch.applyPatch(obj, JSON.parse(r.patch) as Operation[], true, true).newDocument;
    }
    return obj;
  } catch {
    return undefined;
  }
}
