/**
 * The cluster-wide feed of recorded changes (`GET …/changes`): its filter as SQL and as a test of
 * one row (the watch's), its totals, and its pages.
 *
 * Rules: every condition leads one of change_history's indexes after cluster_id (namespace:
 * change_history_by_namespace, the kind: change_history_by_kind, else change_history_order), each
 * ending in the list's order (time_ms DESC, id DESC), so a page is read in order without sorting.
 * Totals are remembered per source, filter and table version, and only while the version says
 * every write (this replica records the cluster, or a snapshot that never changes). A deep page is
 * read from the nearest known point of the list (history/keyset.ts), not through an OFFSET, with
 * the same rule for when positions are trusted. `--authorize rbac` narrows the rows to the kinds and
 * namespaces the caller may list (`allowed`), part of the filter like any other condition.
 */
import type { Queryable } from '../../storage/backend';
import { PageBoundaries } from '../keyset';
import type { RecordedSource } from '../source';
import { untilOf } from './reads';
import { clusterChangeOf, LISTED, ROW_COLUMNS, type StoredChange } from './reads-rows';

export interface FeedFilter {
  namespace?: string | undefined;
  resourceType?: string | undefined;
  sinceMs?: number | undefined;
  untilMs?: number | undefined;
  /**
   * `--authorize rbac`: the kinds the caller may list, by resourceType, each with the namespaces it
   * may list them in (`all`: every namespace, or a cluster-scoped kind). Absent: no narrowing.
   */
  allowed?: ReadonlyMap<string, readonly string[] | 'all'> | undefined;
}

type SqlParams = Record<string, string | number>;

/** The SQL condition of a filter on `source`, with its parameters. */
export function feedWhere(source: RecordedSource, f: FeedFilter): { sql: string; params: SqlParams } {
  const terms = ['cluster_id = $cluster', LISTED];
  const params: SqlParams = { cluster: source.clusterId };
  if (f.namespace !== undefined) {
    terms.push('namespace = $ns');
    params.ns = f.namespace;
  }
  if (f.resourceType !== undefined) {
    terms.push('resource_type = $type');
    params.type = f.resourceType;
  }
  if (f.sinceMs !== undefined) {
    terms.push('time_ms >= $since');
    params.since = f.sinceMs;
  }
  const until = untilOf(source, f.untilMs);
  if (until !== undefined) {
    terms.push('time_ms <= $until');
    params.until = until;
  }
  if (f.allowed !== undefined) {
    const kinds: string[] = [];
    let k = 0;
    for (const [type, namespaces] of f.allowed) {
      params[`k${k}`] = type;
      if (namespaces === 'all') kinds.push(`(resource_type = $k${k})`);
      else if (namespaces.length > 0) {
        const names = namespaces.map((ns, i) => {
          params[`k${k}n${i}`] = ns;
          return `$k${k}n${i}`;
        });
        kinds.push(`(resource_type = $k${k} AND namespace IN (${names.join(', ')}))`);
      } else delete params[`k${k}`];
      k++;
    }
    terms.push(kinds.length === 0 ? '1 = 0' : `(${kinds.join(' OR ')})`);
  }
  return { sql: terms.join(' AND '), params };
}

/** Whether one row is in the feed the filter answers (the watch's test of each new row). */
export function matchesFeed(source: RecordedSource, r: StoredChange, f: FeedFilter): boolean {
  if (r.change === 'seen') return false;
  if (f.namespace !== undefined && r.namespace !== f.namespace) return false;
  if (f.resourceType !== undefined && r.resource_type !== f.resourceType) return false;
  if (r.time_ms < (f.sinceMs ?? Number.NEGATIVE_INFINITY)) return false;
  if (r.time_ms > (untilOf(source, f.untilMs) ?? Number.POSITIVE_INFINITY)) return false;
  if (f.allowed === undefined) return true;
  const namespaces = f.allowed.get(r.resource_type);
  return namespaces === 'all' || namespaces?.includes(r.namespace) === true;
}

/** A stable text of a filter, for the memo keys. */
export function feedKey(f: FeedFilter): string {
  const allowed =
    f.allowed === undefined
      ? null
      : [...f.allowed]
          .map(([t, ns]): [string, string[] | 'all'] => [t, ns === 'all' ? ns : [...ns].sort()])
          .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([
    f.namespace ?? null,
    f.resourceType ?? null,
    f.sinceMs ?? null,
    f.untilMs ?? null,
    allowed,
  ]);
}

/** A row's place in the list's order. */
interface ChangeKey {
  ms: number;
  id: number;
}

const ORDER = 'ORDER BY time_ms DESC, id DESC';
const REVERSE = 'ORDER BY time_ms ASC, id ASC';

/** The rows from `key` on (inclusive) in the direction read: the range on time_ms enters the index. */
function keysetFrom(direction: 'forward' | 'backward', key: ChangeKey) {
  const sql =
    direction === 'forward'
      ? 'time_ms <= $keyMs AND (time_ms < $keyMs OR id <= $keyId)'
      : 'time_ms >= $keyMs AND (time_ms > $keyMs OR id >= $keyId)';
  return { sql, params: { keyMs: key.ms, keyId: key.id } };
}

const MEMO_MAX = 64;

/** What the reads remember of one source's rows: totals, and where pages of walks began and ended. */
interface Remembered {
  totals: Map<string, number>;
  boundaries: PageBoundaries<ChangeKey>;
}

export class ChangeFeedReads {
  /** By the database the rows are read from: the app's, or each opened snapshot's own. */
  private readonly remembered = new WeakMap<Queryable, Remembered>();

  /**
   * A page of the feed, newest first, and the total in the filter. `version` identifies the rows
   * as they are now (the table's version for this cluster); undefined when it cannot (another
   * replica writes them): then nothing is remembered.
   */
  async page(
    source: RecordedSource,
    f: FeedFilter,
    limit: number,
    offset: number,
    version: string | undefined,
  ) {
    const w = feedWhere(source, f);
    const mem = this.of(source.db);
    const walk = version === undefined ? undefined : `${version}|${source.clusterId}|${feedKey(f)}`;
    let total = walk === undefined ? undefined : mem.totals.get(walk);
    if (total === undefined) {
      const r = await source.db.get<{ n: number }>(
        `SELECT count(*) AS n FROM change_history WHERE ${w.sql}`,
        w.params,
      );
      total = r?.n ?? 0;
      if (walk !== undefined) {
        if (mem.totals.size >= MEMO_MAX) mem.totals.delete(mem.totals.keys().next().value as string);
        mem.totals.set(walk, total);
      }
    }
    if (offset >= total) return { items: [], total };
    const plan = mem.boundaries.plan(walk, offset, limit, total);
    const from = plan.from ? keysetFrom(plan.direction, plan.from) : undefined;
    // The skip is walked by id (the row's place), the page's rows looked up once; the outer order
    // puts a backward read back in the list's order.
    const rows = await source.db.all<StoredChange>(
      `SELECT ${ROW_COLUMNS} FROM change_history WHERE id IN (
         SELECT id FROM change_history WHERE ${w.sql}${from ? ` AND ${from.sql}` : ''}
         ${plan.direction === 'forward' ? ORDER : REVERSE} LIMIT $limit OFFSET $offset
       ) ${ORDER}`,
      { ...w.params, ...from?.params, limit: plan.take, offset: plan.skip },
    );
    const first = rows[0];
    const last = rows.at(-1);
    if (first && last)
      mem.boundaries.remember(
        walk,
        offset,
        rows.length,
        { ms: first.time_ms, id: first.id },
        { ms: last.time_ms, id: last.id },
      );
    return { items: rows.map(clusterChangeOf), total };
  }

  private of(db: Queryable): Remembered {
    let mem = this.remembered.get(db);
    if (!mem) {
      mem = { totals: new Map(), boundaries: new PageBoundaries() };
      this.remembered.set(db, mem);
    }
    return mem;
  }
}
