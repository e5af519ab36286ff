/**
 * The event_history table: its writes in batches and its reads (pages, totals, buckets, groups),
 * on either storage backend (storage/backend.ts: embedded SQLite or PostgreSQL).
 *
 * Rules: one SQL text for both backends (`$name` placeholders, `IS DISTINCT FROM`, quoted
 * camelCase aliases, sums cast back to integers, a named subquery); every call is kept small by
 * its caller; a page is read in the list's order through an index, never sorted, and a deep page
 * from the nearest known point of the list rather than through an OFFSET (page). Writes take the
 * handle of the caller's transaction. A snapshot's in-memory history is filled by
 * `insertSnapshotRows` over its own AppDatabase, synchronously, which is what makes it fast.
 */
import { PageBoundaries, type PagePlan } from '../../history/keyset';
import type { Queryable, StorageBackend } from '../../storage/backend';
import type { AppDatabase } from '../../storage/database';
import type { EventEntry } from '../entries';
import { type HistoryFilter, type HistoryRow, whereOf } from './filter';

/**
 * The event_history table (schema: storage/migrations.ts, version 2; migrations-postgres.ts the
 * same): writes in batches, reads of pages, totals, time buckets and group rows. Callers keep each
 * call small (the recorder writes in bounded transactions and yields between them).
 */

const COLUMNS = `cluster_id, event_id, last_ms, first_ms, type, reason, namespace, kind, kind_key, name,
  resource_id, first_timestamp, last_timestamp, count, message, component, host, recorded_at, expired_at`;

/** The per-row values of an upsert, named `$<name>_<row>` in its VALUES list. */
const ROW_PARAMS = [
  'eventId',
  'lastMs',
  'firstMs',
  'type',
  'reason',
  'namespace',
  'kind',
  'kindKey',
  'name',
  'resourceId',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'message',
  'component',
  'host',
] as const;

// Only a row that changed is rewritten: a relist after a restart names every event again. Rows go
// in one statement per call (one round trip to PostgreSQL for up to 100 rows, not one per row: a
// restart's relist of 100,000 events otherwise kept every history read, which flushes first, waiting
// the better part of a minute). A statement may not update one row twice: ids are made distinct.
const upsertSql = (rows: number) => `INSERT INTO event_history (${COLUMNS})
  VALUES ${Array.from(
    { length: rows },
    (_, i) => `($cluster, ${ROW_PARAMS.map((k) => `$${k}_${i}`).join(', ')}, $now, NULL)`,
  ).join(',\n    ')}
  ON CONFLICT (cluster_id, event_id) DO UPDATE SET
    last_ms = excluded.last_ms, first_ms = excluded.first_ms, type = excluded.type,
    reason = excluded.reason, namespace = excluded.namespace, kind = excluded.kind,
    kind_key = excluded.kind_key, name = excluded.name, resource_id = excluded.resource_id,
    first_timestamp = excluded.first_timestamp, last_timestamp = excluded.last_timestamp,
    count = excluded.count, message = excluded.message, component = excluded.component,
    host = excluded.host, recorded_at = excluded.recorded_at, expired_at = NULL
  WHERE event_history.expired_at IS NOT NULL
    OR event_history.last_timestamp IS DISTINCT FROM excluded.last_timestamp
    OR event_history.count IS DISTINCT FROM excluded.count
    OR event_history.message IS DISTINCT FROM excluded.message
    OR event_history.first_timestamp IS DISTINCT FROM excluded.first_timestamp
    OR event_history.type IS DISTINCT FROM excluded.type`;

interface StoredRow {
  event_id: string;
  last_ms: number;
  first_ms: number;
  type: 'NORMAL' | 'WARNING';
  reason: string;
  namespace: string;
  kind: string;
  kind_key: string;
  name: string;
  resource_id: string;
  first_timestamp: string;
  last_timestamp: string;
  count: number;
  message: string;
  component: string;
  host: string;
  expired_at: number | null;
}

const ORDER = 'ORDER BY last_ms DESC, event_id';
/** The list's order backwards: the same index read from the other end. */
const REVERSE = 'ORDER BY last_ms ASC, event_id DESC';

/** A row's place in the list's order (ORDER): event ids are unique per cluster. */
interface EventKey {
  ms: number;
  eventId: string;
}

const keyOf = (r: HistoryRow): EventKey => ({ ms: r.lastMs, eventId: r.eventId });

/**
 * The rows from `key` on (inclusive), in the direction read. The range on last_ms leads, so the
 * index is entered at `key`; the rest only settles rows with key's own last_ms.
 */
function keysetFrom(direction: 'forward' | 'backward', key: EventKey) {
  const sql =
    direction === 'forward'
      ? 'last_ms <= $keyMs AND (last_ms < $keyMs OR event_id >= $keyId)'
      : 'last_ms >= $keyMs AND (last_ms > $keyMs OR event_id <= $keyId)';
  return { sql, params: { keyMs: key.ms, keyId: key.eventId } };
}
const GROUP_KEY = 'kind, namespace, name, resource_id, reason, type';

/** One group of the grouped event list, as the table answers it. */
export interface GroupRow {
  kind: string;
  namespace: string;
  name: string;
  resourceId: string;
  reason: string;
  type: 'NORMAL' | 'WARNING';
  count: number;
  events: number;
  firstMs: number;
  lastMs: number;
  firstTimestamp: string;
  lastTimestamp: string;
  message: string;
}

function toRow(clusterId: string, r: StoredRow): HistoryRow {
  return {
    key: r.event_id,
    eventId: r.event_id,
    lastMs: r.last_ms,
    firstMs: r.first_ms,
    type: r.type,
    reason: r.reason,
    namespace: r.namespace,
    kind: r.kind,
    kindKey: r.kind_key,
    name: r.name,
    category: r.namespace !== '' ? 'resource' : 'system',
    clusterId,
    resourceId: r.resource_id,
    firstTimestamp: r.first_timestamp,
    lastTimestamp: r.last_timestamp,
    count: r.count,
    message: r.message,
    component: r.component,
    host: r.host,
    expiredAt: r.expired_at ?? undefined,
  };
}

const firstMsOf = (e: EventEntry) =>
  e.firstTimestamp === e.lastTimestamp ? e.lastMs : Date.parse(e.firstTimestamp) || e.lastMs;

/** A row's values for upsertSql, before their `_<row>` suffix. */
const rowParams = (e: EventEntry) => ({
  eventId: e.eventId,
  lastMs: e.lastMs,
  firstMs: firstMsOf(e),
  type: e.type,
  reason: e.reason,
  namespace: e.namespace,
  kind: e.kind,
  kindKey: e.kindKey,
  name: e.name,
  resourceId: e.resourceId,
  firstTimestamp: e.firstTimestamp,
  lastTimestamp: e.lastTimestamp,
  count: e.count,
  message: e.message,
  component: e.component,
  host: e.host,
});

/**
 * Rows for events the table does not hold yet (a snapshot's history, built once into an empty
 * in-memory table): a plain insert with positional values, three times faster than `upsert` for
 * 100,000 rows, and synchronous on the snapshot's own database. `expiredAt` is set for the ones
 * the cluster no longer had. A second row with an event id the table holds is skipped.
 */
export function insertSnapshotRows(
  db: AppDatabase,
  clusterId: string,
  rows: ReadonlyArray<{ entry: EventEntry; expiredAt: number | null }>,
  now: number,
): void {
  const s = db.statement(
    `INSERT INTO event_history (${COLUMNS})
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  for (const { entry: e, expiredAt } of rows) {
    s.run(
      clusterId,
      e.eventId,
      e.lastMs,
      firstMsOf(e),
      e.type,
      e.reason,
      e.namespace,
      e.kind,
      e.kindKey,
      e.name,
      e.resourceId,
      e.firstTimestamp,
      e.lastTimestamp,
      e.count,
      e.message,
      e.component,
      e.host,
      now,
      expiredAt,
    );
  }
}

export class HistoryStore {
  /** Where pages of recent walks began and ended (history/keyset.ts). */
  private readonly boundaries = new PageBoundaries<EventKey>();

  constructor(readonly backend: StorageBackend) {}

  /** Writes (or rewrites, when changed) the rows of `entries`, on `tx` (the caller's transaction). */
  async upsert(tx: Queryable, clusterId: string, entries: readonly EventEntry[], now: number): Promise<void> {
    // The last of an event id named twice wins, as it did row by row.
    const rows = [...new Map(entries.map((e) => [e.eventId, e])).values()];
    if (rows.length === 0) return;
    const params: Record<string, string | number> = { cluster: clusterId, now };
    rows.forEach((e, i) => {
      for (const [k, v] of Object.entries(rowParams(e))) params[`${k}_${i}`] = v;
    });
    await tx.run(upsertSql(rows.length), params);
  }

  async markExpired(
    tx: Queryable,
    clusterId: string,
    eventIds: readonly string[],
    now: number,
  ): Promise<void> {
    for (const id of eventIds)
      await tx.run(
        'UPDATE event_history SET expired_at = $now, recorded_at = $now WHERE cluster_id = $cluster AND event_id = $id AND expired_at IS NULL',
        { now, cluster: clusterId, id },
      );
  }

  /** Event ids the table holds as still present in the cluster. */
  async presentIds(clusterId: string): Promise<string[]> {
    const rows = await this.backend.all<{ event_id: string }>(
      'SELECT event_id FROM event_history WHERE cluster_id = $cluster AND expired_at IS NULL',
      { cluster: clusterId },
    );
    return rows.map((r) => r.event_id);
  }

  async count(clusterId: string, f: HistoryFilter): Promise<number> {
    const w = whereOf(clusterId, f);
    const r = await this.backend.get<{ n: number }>(
      `SELECT count(*) AS n FROM event_history WHERE ${w.sql}`,
      w.params,
    );
    return r?.n ?? 0;
  }

  /**
   * The page at `offset` of the `total` matching rows. Read from the nearest known point of the list
   * (history/keyset.ts): its head, its tail, or a row a page of the same `walk` ended or began at,
   * so a deep page skips the rows between that point and the page, not `offset` of them. `walk`
   * names what the positions hold for (the cluster, the table's version, the filter); without one
   * only head and tail are used. Without `total` it is a plain OFFSET read.
   */
  async page(
    clusterId: string,
    f: HistoryFilter,
    limit: number,
    offset: number,
    known?: { total: number; walk?: string },
  ): Promise<HistoryRow[]> {
    const w = whereOf(clusterId, f);
    const plan: PagePlan<EventKey> = known
      ? this.boundaries.plan(known.walk, offset, limit, known.total)
      : { direction: 'forward', skip: offset, take: limit };
    const from = plan.from ? keysetFrom(plan.direction, plan.from) : undefined;
    const order = plan.direction === 'forward' ? ORDER : REVERSE;
    // The skip is walked in the index alone (its rows are looked up only for the page), which
    // answers them in the list's order whichever way the index was read.
    const rows = await this.backend.all<StoredRow>(
      `SELECT ${COLUMNS} FROM event_history WHERE id IN (
         SELECT id FROM event_history WHERE ${w.sql}${from ? ` AND ${from.sql}` : ''} ${order} LIMIT $limit OFFSET $offset
       ) ${ORDER}`,
      { ...w.params, ...from?.params, limit: plan.take, offset: plan.skip },
    );
    const page = rows.map((r) => toRow(clusterId, r));
    const first = page[0];
    const last = page.at(-1);
    if (known && first && last)
      this.boundaries.remember(known.walk, offset, page.length, keyOf(first), keyOf(last));
    return page;
  }

  /**
   * Up to `limit` of a cluster's rows, live and expired, in the list's order after the row `after`:
   * a keyset walk of the whole history (snapshot capture), so each batch costs the same however
   * deep it is.
   */
  async rowsAfter(
    clusterId: string,
    after: { lastMs: number; eventId: string } | undefined,
    limit: number,
  ): Promise<HistoryRow[]> {
    const rows = after
      ? await this.backend.all<StoredRow>(
          `SELECT ${COLUMNS} FROM event_history WHERE cluster_id = $cluster
             AND (last_ms < $lastMs OR (last_ms = $lastMs AND event_id > $eventId)) ${ORDER} LIMIT $limit`,
          { cluster: clusterId, lastMs: after.lastMs, eventId: after.eventId, limit },
        )
      : await this.backend.all<StoredRow>(
          `SELECT ${COLUMNS} FROM event_history WHERE cluster_id = $cluster ${ORDER} LIMIT $limit`,
          { cluster: clusterId, limit },
        );
    return rows.map((r) => toRow(clusterId, r));
  }

  /** The oldest and newest lastTimestamp among the matching rows (ms), or undefined when none match. */
  async span(clusterId: string, f: HistoryFilter): Promise<{ oldest: number; newest: number } | undefined> {
    const w = whereOf(clusterId, f);
    const r = await this.backend.get<{ oldest: number | null; newest: number | null }>(
      `SELECT min(last_ms) AS oldest, max(last_ms) AS newest FROM event_history WHERE ${w.sql}`,
      w.params,
    );
    return r?.oldest == null || r.newest == null ? undefined : { oldest: r.oldest, newest: r.newest };
  }

  /** Matching rows counted per bucket of `bucketMs` from `from`, and per type. */
  buckets(
    clusterId: string,
    f: HistoryFilter,
    from: number,
    bucketMs: number,
  ): Promise<Array<{ bucket: number; type: 'NORMAL' | 'WARNING'; n: number }>> {
    const w = whereOf(clusterId, f);
    return this.backend.all(
      // SQLite binds numbers as REAL and PostgreSQL as BIGINT: the cast makes the division a floor
      // on both (last_ms >= from).
      `SELECT CAST((last_ms - $from) / $bucketMs AS INTEGER) AS bucket, type, count(*) AS n FROM event_history
       WHERE ${w.sql} GROUP BY bucket, type`,
      { ...w.params, from, bucketMs },
    );
  }

  async groupCount(clusterId: string, f: HistoryFilter): Promise<number> {
    const w = whereOf(clusterId, f);
    const r = await this.backend.get<{ n: number }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM event_history WHERE ${w.sql} GROUP BY ${GROUP_KEY}) AS g`,
      w.params,
    );
    return r?.n ?? 0;
  }

  /** A page of groups, newest first, each with its latest message and its earliest firstTimestamp. */
  async groupPage(clusterId: string, f: HistoryFilter, limit: number, offset: number): Promise<GroupRow[]> {
    const w = whereOf(clusterId, f);
    // Quoted aliases keep their case on PostgreSQL; the sum of a BIGINT is NUMERIC there, cast back.
    const groups = await this.backend.all<Omit<GroupRow, 'firstTimestamp' | 'lastTimestamp' | 'message'>>(
      `SELECT kind, namespace, name, resource_id AS "resourceId", reason, type,
         CAST(sum(count) AS BIGINT) AS count, count(*) AS events, min(first_ms) AS "firstMs",
         max(last_ms) AS "lastMs"
       FROM event_history WHERE ${w.sql} GROUP BY ${GROUP_KEY}
       ORDER BY "lastMs" DESC, ${GROUP_KEY} LIMIT $limit OFFSET $offset`,
      { ...w.params, limit, offset },
    );
    // One group's rows are found through the name index; the same filter keeps them to the group.
    const within = `${w.sql} AND kind = $gKind AND namespace = $gNamespace AND name = $gName
      AND resource_id = $gUid AND reason = $gReason AND type = $gType`;
    const out: GroupRow[] = [];
    for (const g of groups) {
      const p = {
        ...w.params,
        gKind: g.kind,
        gNamespace: g.namespace,
        gName: g.name,
        gUid: g.resourceId,
        gReason: g.reason,
        gType: g.type,
      };
      const latest = await this.backend.get<{ last_timestamp: string; message: string }>(
        `SELECT last_timestamp, message FROM event_history WHERE ${within} ${ORDER} LIMIT 1`,
        p,
      );
      const first = await this.backend.get<{ first_timestamp: string }>(
        `SELECT first_timestamp FROM event_history WHERE ${within} ORDER BY first_ms, event_id LIMIT 1`,
        p,
      );
      out.push({
        ...g,
        lastTimestamp: latest?.last_timestamp ?? '',
        message: latest?.message ?? '',
        firstTimestamp: first?.first_timestamp ?? '',
      });
    }
    return out;
  }

  /** Every cluster that has rows. */
  async clusters(): Promise<string[]> {
    const rows = await this.backend.all<{ cluster_id: string }>(
      'SELECT DISTINCT cluster_id FROM event_history',
    );
    return rows.map((r) => r.cluster_id);
  }

  /** When anything of this cluster was last written, epoch ms; undefined for a cluster never recorded. */
  async lastRecorded(clusterId: string): Promise<number | undefined> {
    const r = await this.backend.get<{ at: number | null }>(
      'SELECT max(recorded_at) AS at FROM event_history WHERE cluster_id = $cluster',
      { cluster: clusterId },
    );
    return r?.at ?? undefined;
  }

  async total(clusterId: string): Promise<number> {
    const r = await this.backend.get<{ n: number }>(
      'SELECT count(*) AS n FROM event_history WHERE cluster_id = $cluster',
      { cluster: clusterId },
    );
    return r?.n ?? 0;
  }

  /**
   * Deletes up to `batch` of the oldest prunable rows of a cluster, on `tx`: older than `beforeMs`
   * when given, else simply the oldest. `expiredOnly` keeps the events the cluster still has.
   */
  pruneOldest(
    tx: Queryable,
    clusterId: string,
    opts: { beforeMs?: number; expiredOnly: boolean; batch: number },
  ): Promise<number> {
    const terms = ['cluster_id = $cluster'];
    const params: Record<string, string | number> = { cluster: clusterId, batch: opts.batch };
    if (opts.beforeMs !== undefined) {
      terms.push('last_ms < $before');
      params.before = opts.beforeMs;
    }
    if (opts.expiredOnly) terms.push('expired_at IS NOT NULL');
    return tx.run(
      `DELETE FROM event_history WHERE id IN (
         SELECT id FROM event_history WHERE ${terms.join(' AND ')}
         ORDER BY last_ms, event_id DESC LIMIT $batch)`,
      params,
    );
  }
}
