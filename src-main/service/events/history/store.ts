/**
 * The event_history table: its writes in batches and its reads (pages, totals, buckets, groups).
 *
 * Rules: synchronous, as node:sqlite is, so every call is kept small by its caller; a page is read
 * in the list's order through an index, never sorted.
 */
import type { AppDatabase } from '../../storage/database';
import type { EventEntry } from '../entries';
import { type HistoryFilter, type HistoryRow, whereOf } from './filter';

/**
 * The event_history table (schema: storage/migrations.ts, version 2): writes in batches, reads
 * of pages, totals, time buckets and group rows. Synchronous, as node:sqlite is; callers keep
 * each call small (the recorder writes in bounded transactions and yields between them).
 */

const COLUMNS = `cluster_id, event_id, last_ms, first_ms, type, reason, namespace, kind, kind_key, name,
  resource_id, first_timestamp, last_timestamp, count, message, component, host, recorded_at, expired_at`;

// Only a row that changed is rewritten: a relist after a restart names every event again.
const UPSERT = `INSERT INTO event_history (${COLUMNS})
  VALUES (:cluster, :eventId, :lastMs, :firstMs, :type, :reason, :namespace, :kind, :kindKey, :name,
    :resourceId, :firstTimestamp, :lastTimestamp, :count, :message, :component, :host, :now, NULL)
  ON CONFLICT (cluster_id, event_id) DO UPDATE SET
    last_ms = excluded.last_ms, first_ms = excluded.first_ms, type = excluded.type,
    reason = excluded.reason, namespace = excluded.namespace, kind = excluded.kind,
    kind_key = excluded.kind_key, name = excluded.name, resource_id = excluded.resource_id,
    first_timestamp = excluded.first_timestamp, last_timestamp = excluded.last_timestamp,
    count = excluded.count, message = excluded.message, component = excluded.component,
    host = excluded.host, recorded_at = excluded.recorded_at, expired_at = NULL
  WHERE expired_at IS NOT NULL OR last_timestamp IS NOT excluded.last_timestamp
    OR count IS NOT excluded.count OR message IS NOT excluded.message
    OR first_timestamp IS NOT excluded.first_timestamp OR type IS NOT excluded.type`;

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

export class HistoryStore {
  constructor(readonly db: AppDatabase) {}

  upsert(clusterId: string, entries: readonly EventEntry[], now: number): void {
    const s = this.db.statement(UPSERT);
    for (const e of entries) {
      s.run({
        cluster: clusterId,
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
        now,
      });
    }
  }

  /**
   * Rows for events the table does not hold yet (a snapshot's history, built once into an empty
   * table): a plain insert with positional values, three times faster than `upsert` for 100,000
   * rows. `expiredAt` is set for the ones the cluster no longer had. A second row with an event
   * id the table holds is skipped.
   */
  insertNew(
    clusterId: string,
    rows: ReadonlyArray<{ entry: EventEntry; expiredAt: number | null }>,
    now: number,
  ): void {
    const s = this.db.statement(
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

  markExpired(clusterId: string, eventIds: readonly string[], now: number): void {
    const s = this.db.statement(
      'UPDATE event_history SET expired_at = :now, recorded_at = :now WHERE cluster_id = :cluster AND event_id = :id AND expired_at IS NULL',
    );
    for (const id of eventIds) s.run({ now, cluster: clusterId, id });
  }

  /** Event ids the table holds as still present in the cluster. */
  presentIds(clusterId: string): string[] {
    return this.db
      .all<{ event_id: string }>(
        'SELECT event_id FROM event_history WHERE cluster_id = :cluster AND expired_at IS NULL',
        { cluster: clusterId },
      )
      .map((r) => r.event_id);
  }

  count(clusterId: string, f: HistoryFilter): number {
    const w = whereOf(clusterId, f);
    return (
      this.db.get<{ n: number }>(`SELECT count(*) AS n FROM event_history WHERE ${w.sql}`, w.params)?.n ?? 0
    );
  }

  page(clusterId: string, f: HistoryFilter, limit: number, offset: number): HistoryRow[] {
    const w = whereOf(clusterId, f);
    // The offset is walked in the index alone (its rows are looked up only for the page).
    const rows = this.db.all<StoredRow>(
      `SELECT ${COLUMNS} FROM event_history WHERE id IN (
         SELECT id FROM event_history WHERE ${w.sql} ${ORDER} LIMIT :limit OFFSET :offset
       ) ${ORDER}`,
      { ...w.params, limit, offset },
    );
    return rows.map((r) => toRow(clusterId, r));
  }

  /**
   * Up to `limit` of a cluster's rows, live and expired, in the list's order after the row `after`:
   * a keyset walk of the whole history (snapshot capture), so each batch costs the same however
   * deep it is.
   */
  rowsAfter(
    clusterId: string,
    after: { lastMs: number; eventId: string } | undefined,
    limit: number,
  ): HistoryRow[] {
    const rows = after
      ? this.db.all<StoredRow>(
          `SELECT ${COLUMNS} FROM event_history WHERE cluster_id = :cluster
             AND (last_ms < :lastMs OR (last_ms = :lastMs AND event_id > :eventId)) ${ORDER} LIMIT :limit`,
          { cluster: clusterId, lastMs: after.lastMs, eventId: after.eventId, limit },
        )
      : this.db.all<StoredRow>(
          `SELECT ${COLUMNS} FROM event_history WHERE cluster_id = :cluster ${ORDER} LIMIT :limit`,
          { cluster: clusterId, limit },
        );
    return rows.map((r) => toRow(clusterId, r));
  }

  /** The oldest and newest lastTimestamp among the matching rows (ms), or undefined when none match. */
  span(clusterId: string, f: HistoryFilter): { oldest: number; newest: number } | undefined {
    const w = whereOf(clusterId, f);
    const r = this.db.get<{ oldest: number | null; newest: number | null }>(
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
  ): Array<{ bucket: number; type: 'NORMAL' | 'WARNING'; n: number }> {
    const w = whereOf(clusterId, f);
    return this.db.all(
      // Bound numbers arrive as REAL: the cast makes the division a floor (last_ms >= from).
      `SELECT CAST((last_ms - :from) / :bucketMs AS INTEGER) AS bucket, type, count(*) AS n FROM event_history
       WHERE ${w.sql} GROUP BY bucket, type`,
      { ...w.params, from, bucketMs },
    );
  }

  groupCount(clusterId: string, f: HistoryFilter): number {
    const w = whereOf(clusterId, f);
    return (
      this.db.get<{ n: number }>(
        `SELECT count(*) AS n FROM (SELECT 1 FROM event_history WHERE ${w.sql} GROUP BY ${GROUP_KEY})`,
        w.params,
      )?.n ?? 0
    );
  }

  /** A page of groups, newest first, each with its latest message and its earliest firstTimestamp. */
  groupPage(clusterId: string, f: HistoryFilter, limit: number, offset: number): GroupRow[] {
    const w = whereOf(clusterId, f);
    const groups = this.db.all<Omit<GroupRow, 'firstTimestamp' | 'lastTimestamp' | 'message'>>(
      `SELECT kind, namespace, name, resource_id AS resourceId, reason, type, sum(count) AS count,
         count(*) AS events, min(first_ms) AS firstMs, max(last_ms) AS lastMs
       FROM event_history WHERE ${w.sql} GROUP BY ${GROUP_KEY}
       ORDER BY lastMs DESC, ${GROUP_KEY} LIMIT :limit OFFSET :offset`,
      { ...w.params, limit, offset },
    );
    // One group's rows are found through the name index; the same filter keeps them to the group.
    const within = `${w.sql} AND kind = :gKind AND namespace = :gNamespace AND name = :gName
      AND resource_id = :gUid AND reason = :gReason AND type = :gType`;
    return groups.map((g) => {
      const p = {
        ...w.params,
        gKind: g.kind,
        gNamespace: g.namespace,
        gName: g.name,
        gUid: g.resourceId,
        gReason: g.reason,
        gType: g.type,
      };
      const latest = this.db.get<{ last_timestamp: string; message: string }>(
        `SELECT last_timestamp, message FROM event_history WHERE ${within} ${ORDER} LIMIT 1`,
        p,
      );
      const first = this.db.get<{ first_timestamp: string }>(
        `SELECT first_timestamp FROM event_history WHERE ${within} ORDER BY first_ms, event_id LIMIT 1`,
        p,
      );
      return {
        ...g,
        lastTimestamp: latest?.last_timestamp ?? '',
        message: latest?.message ?? '',
        firstTimestamp: first?.first_timestamp ?? '',
      };
    });
  }

  /** Every cluster that has rows. */
  clusters(): string[] {
    return this.db
      .all<{ cluster_id: string }>('SELECT DISTINCT cluster_id FROM event_history')
      .map((r) => r.cluster_id);
  }

  /** When anything of this cluster was last written, epoch ms; undefined for a cluster never recorded. */
  lastRecorded(clusterId: string): number | undefined {
    return (
      this.db.get<{ at: number | null }>(
        'SELECT max(recorded_at) AS at FROM event_history WHERE cluster_id = :cluster',
        { cluster: clusterId },
      )?.at ?? undefined
    );
  }

  total(clusterId: string): number {
    return (
      this.db.get<{ n: number }>('SELECT count(*) AS n FROM event_history WHERE cluster_id = :cluster', {
        cluster: clusterId,
      })?.n ?? 0
    );
  }

  /**
   * Deletes up to `batch` of the oldest prunable rows of a cluster: older than `beforeMs` when
   * given, else simply the oldest. `expiredOnly` keeps the events the cluster still has.
   */
  pruneOldest(clusterId: string, opts: { beforeMs?: number; expiredOnly: boolean; batch: number }): number {
    const terms = ['cluster_id = :cluster'];
    const params: Record<string, string | number> = { cluster: clusterId, batch: opts.batch };
    if (opts.beforeMs !== undefined) {
      terms.push('last_ms < :before');
      params.before = opts.beforeMs;
    }
    if (opts.expiredOnly) terms.push('expired_at IS NOT NULL');
    return this.db.run(
      `DELETE FROM event_history WHERE id IN (
         SELECT id FROM event_history WHERE ${terms.join(' AND ')}
         ORDER BY last_ms, event_id DESC LIMIT :batch)`,
      params,
    );
  }
}
