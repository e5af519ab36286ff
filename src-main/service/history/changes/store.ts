/**
 * The writer's SQL of change_history (storage migration 8): rows in, the latest row of each object
 * (what a restart or a takeover compares the cluster with), the rebuild of a recorded version, and
 * retention. The reads the API answers are CHG-API's (reads*.ts).
 *
 * Rules: one SQL text for both dialects; every statement selects by cluster_id; an object's chain is
 * its rows by (resource_type, namespace, name) in id order, and every row after the first of a chain
 * rebuilds from the latest earlier row carrying `object` (the whole object) by applying the patches
 * after it in id order: retention keeps that true (it gives the oldest surviving row of an object the
 * whole object before deleting what came before it).
 */
import type { Queryable, StorageBackend } from '../../storage/backend';
import { applied, type Json, type Operation } from './diff';
import type { ChangeKind } from './summary';

/** One row to insert. */
export interface ChangeRow {
  timeMs: number;
  resourceType: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  change: ChangeKind;
  resourceVersion: string;
  /** JSON text of the RFC 6902 patch from the previous recorded version (`[]` when none). */
  patch: string;
  summary: string;
  /** JSON text of the whole object, on a chain's first row and every N-th after. */
  object: string | null;
}

/** Where a retention scan resumes: after this row in (time_ms, id) order. */
export interface PruneCursor {
  timeMs: number;
  id: number;
}

/** The latest row of one object. */
export interface LatestRow {
  id: number;
  namespace: string;
  name: string;
  uid: string;
  change: ChangeKind;
  resource_version: string;
}

const INSERT = `INSERT INTO change_history
  (cluster_id, time_ms, resource_type, kind, namespace, name, uid, change, resource_version, patch, summary, object, recorded_at)
  VALUES ($cluster, $time, $type, $kind, $ns, $name, $uid, $change, $rv, $patch, $summary, $object, $now)`;

export class ChangeStore {
  constructor(readonly backend: StorageBackend) {}

  async insert(tx: Queryable, clusterId: string, rows: readonly ChangeRow[], now: number): Promise<void> {
    for (const r of rows)
      await tx.run(INSERT, {
        cluster: clusterId,
        time: r.timeMs,
        type: r.resourceType,
        kind: r.kind,
        ns: r.namespace,
        name: r.name,
        uid: r.uid,
        change: r.change,
        rv: r.resourceVersion,
        patch: r.patch,
        summary: r.summary,
        object: r.object,
        now,
      });
  }

  /** The latest row of every object of one kind recorded for the cluster. */
  async latest(clusterId: string, resourceType: string): Promise<LatestRow[]> {
    return this.backend.all<LatestRow>(
      `SELECT h.id, h.namespace, h.name, h.uid, h.change, h.resource_version FROM change_history h
       JOIN (SELECT MAX(id) AS id FROM change_history
             WHERE cluster_id = $cluster AND resource_type = $type GROUP BY namespace, name) m ON h.id = m.id`,
      { cluster: clusterId, type: resourceType },
    );
  }

  /** When recording of a kind began (its oldest row), or undefined when none is recorded. */
  async kindStart(clusterId: string, resourceType: string): Promise<number | undefined> {
    const r = await this.backend.get<{ t: number | null }>(
      'SELECT MIN(time_ms) AS t FROM change_history WHERE cluster_id = $cluster AND resource_type = $type',
      { cluster: clusterId, type: resourceType },
    );
    return r?.t ?? undefined;
  }

  /**
   * The object as row `id` recorded it: the latest whole object at or before it, with the patches
   * after it applied in order. Undefined when the chain has no whole object (never, while retention
   * keeps its rule) or a patch does not apply.
   */
  async rebuild(
    db: Queryable,
    clusterId: string,
    ref: { resourceType: string; namespace: string; name: string },
    id: number,
  ): Promise<Json | undefined> {
    const rows = await db.all<{ id: number; patch: string; object: string | null }>(
      `SELECT id, patch, object FROM change_history
       WHERE cluster_id = $cluster AND resource_type = $type AND namespace = $ns AND name = $name AND id <= $id
         AND id >= COALESCE((SELECT MAX(id) FROM change_history
           WHERE cluster_id = $cluster AND resource_type = $type AND namespace = $ns AND name = $name
             AND id <= $id AND object IS NOT NULL), $id + 1)
       ORDER BY id`,
      { cluster: clusterId, type: ref.resourceType, ns: ref.namespace, name: ref.name, id },
    );
    return rebuildChain(rows);
  }

  /** The clusters that have rows. */
  async clusters(): Promise<string[]> {
    const rows = await this.backend.all<{ cluster_id: string }>(
      'SELECT DISTINCT cluster_id FROM change_history',
    );
    return rows.map((r) => r.cluster_id);
  }

  async total(clusterId: string): Promise<number> {
    const r = await this.backend.get<{ n: number }>(
      'SELECT count(*) AS n FROM change_history WHERE cluster_id = $cluster',
      { cluster: clusterId },
    );
    return r?.n ?? 0;
  }

  /**
   * Retention of up to `batch` of the cluster's oldest rows (older than `beforeMs` when given),
   * keeping every object's chain rebuildable: an object keeps at least its latest row unless that
   * row is its deletion, and the oldest surviving row of an object gets its whole object before the
   * rows before it go. The scan resumes after `after` (rows kept are not scanned again). Answers
   * how many rows went, how many were scanned and the last one scanned.
   */
  async pruneOldest(
    tx: Queryable,
    clusterId: string,
    o: { beforeMs?: number; batch: number; after?: PruneCursor | undefined },
  ): Promise<{ removed: number; scanned: number; last: PruneCursor | undefined }> {
    const rows = await tx.all<{
      id: number;
      time_ms: number;
      resource_type: string;
      namespace: string;
      name: string;
    }>(
      `SELECT id, time_ms, resource_type, namespace, name FROM change_history
       WHERE cluster_id = $cluster ${o.beforeMs !== undefined ? 'AND time_ms < $before' : ''}
         ${o.after ? 'AND (time_ms > $afterMs OR (time_ms = $afterMs AND id > $afterId))' : ''}
       ORDER BY time_ms, id LIMIT $batch`,
      {
        cluster: clusterId,
        batch: o.batch,
        ...(o.beforeMs !== undefined ? { before: o.beforeMs } : {}),
        ...(o.after ? { afterMs: o.after.timeMs, afterId: o.after.id } : {}),
      },
    );
    const tail = rows.at(-1);
    const last = tail ? { timeMs: tail.time_ms, id: tail.id } : undefined;
    const byObject = new Map<
      string,
      { ref: { resourceType: string; namespace: string; name: string }; ids: number[] }
    >();
    for (const r of rows) {
      const key = `${r.resource_type}\u0000${r.namespace}\u0000${r.name}`;
      let o = byObject.get(key);
      if (!o) {
        o = { ref: { resourceType: r.resource_type, namespace: r.namespace, name: r.name }, ids: [] };
        byObject.set(key, o);
      }
      o.ids.push(r.id);
    }
    const doomed: number[] = [];
    for (const { ref, ids } of byObject.values()) {
      const last = Math.max(...ids);
      const after = await tx.get<{ id: number; object: string | null }>(
        `SELECT id, object FROM change_history
         WHERE cluster_id = $cluster AND resource_type = $type AND namespace = $ns AND name = $name AND id > $last
         ORDER BY id LIMIT 1`,
        { cluster: clusterId, type: ref.resourceType, ns: ref.namespace, name: ref.name, last },
      );
      if (!after) {
        // The object's latest row is among these: it goes only if it is the object's deletion.
        const latest = await tx.get<{ change: ChangeKind; object: string | null }>(
          'SELECT change, object FROM change_history WHERE id = $id',
          { id: last },
        );
        if (latest?.change === 'deleted') {
          doomed.push(...ids);
          continue;
        }
        const kept = ids.filter((id) => id !== last);
        if (latest && latest.object === null) {
          const whole = await this.rebuild(tx, clusterId, ref, last);
          if (!whole) continue;
          await tx.run('UPDATE change_history SET object = $object WHERE id = $id', {
            object: JSON.stringify(whole),
            id: last,
          });
        }
        doomed.push(...kept);
        continue;
      }
      if (after.object === null) {
        const whole = await this.rebuild(tx, clusterId, ref, after.id);
        // A chain that does not rebuild is kept whole rather than cut where it cannot be read.
        if (!whole) continue;
        await tx.run('UPDATE change_history SET object = $object WHERE id = $id', {
          object: JSON.stringify(whole),
          id: after.id,
        });
      }
      doomed.push(...ids);
    }
    for (let i = 0; i < doomed.length; i += 500) {
      const chunk = doomed.slice(i, i + 500);
      const params: Record<string, number> = {};
      chunk.forEach((id, j) => {
        params[`i${j}`] = id;
      });
      await tx.run(
        `DELETE FROM change_history WHERE id IN (${chunk.map((_, j) => `$i${j}`).join(', ')})`,
        params,
      );
    }
    return { removed: doomed.length, scanned: rows.length, last };
  }
}

/** Rows of a chain in id order, the first carrying the whole object: the last row's version. */
export function rebuildChain(rows: readonly { patch: string; object: string | null }[]): Json | undefined {
  const first = rows[0];
  if (!first || first.object === null) return undefined;
  let obj = JSON.parse(first.object) as Json;
  try {
    for (const r of rows.slice(1)) {
      if (r.object !== null) obj = JSON.parse(r.object) as Json;
      else obj = applied(obj, JSON.parse(r.patch) as Operation[]);
    }
  } catch {
    return undefined;
  }
  return obj;
}
