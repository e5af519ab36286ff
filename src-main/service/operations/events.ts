import type { Reply } from '../../../src-shared/contract/define';
import type { EventRecord, MonitoringFlags } from '../../../src-shared/contract/models';
import type { ClusterConnection } from '../clusters/cluster';
import { type EventEntry, eventRecord } from '../clusters/entries';
import { eventRows } from '../cache/list-queries';
import type { ClusterRegistry } from '../clusters/registry';
import type { ResourceCache } from '../cache/resource-cache';
import type { CallContext, OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { formatRanges, type HistoryFilter, type HistoryRow } from '../events/history/filter';
import type { EventHistory } from '../events/history/index';
import { serialisedPage } from '../pagination';
import { durationsEnd } from '../events/clock';

type Instant = { instant: number } | { durationMs: number } | undefined;

/** The event filters every events read takes (the list, the timeline, the groups). */
export interface EventQuery {
  type?: 'NORMAL' | 'WARNING' | undefined;
  reason?: string | undefined;
  namespace?: string | undefined;
  kind?: string | undefined;
  name?: string | undefined;
  since?: Instant;
  until?: Instant;
}

const at = (p: Instant, asOf: number) =>
  p === undefined ? undefined : 'instant' in p ? p.instant : asOf - p.durationMs;

/** The request's filters resolved: durations counted back from `asOf`, the monitoring flags applied. */
export function resolveEventFilter(query: EventQuery, asOf: number, flags: MonitoringFlags): HistoryFilter {
  const sinceMs = at(query.since, asOf);
  const untilMs = at(query.until, asOf);
  return {
    ...(query.type !== undefined ? { type: query.type } : {}),
    ...(query.reason !== undefined ? { reason: query.reason } : {}),
    ...(query.namespace !== undefined ? { namespace: query.namespace } : {}),
    ...(query.kind !== undefined ? { kind: query.kind.toLowerCase() } : {}),
    ...(query.name !== undefined ? { name: query.name } : {}),
    ...(sinceMs !== undefined ? { sinceMs } : {}),
    ...(untilMs !== undefined ? { untilMs } : {}),
    resourceEvents: flags.resourceEventsEnabled,
    systemEvents: flags.systemEventsEnabled,
  };
}

/** A cluster's event cache, started and synced: every events read starts here. */
export async function syncedEvents(
  registry: ClusterRegistry,
  params: { workspaceId: string; clusterId: string },
  ctx: CallContext,
) {
  const cluster: ClusterConnection = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
  const flags = registry.monitoring(cluster.clusterId);
  const cache = cluster.events();
  await cache.acquire(ctx.signal);
  return { cluster, flags, cache };
}

/**
 * A page of recorded events (live and expired), with the positions of the expired ones on it
 * (PageInfo.expiredRows; HTTP: X-Expired-Rows). No snapshot token: the rows are read from the
 * database at request time.
 */
function historyPage(
  rows: readonly HistoryRow[],
  total: number,
  query: { limit: number; offset: number },
  workspaceId: string,
  staleSince: string | undefined,
): Reply<EventRecord[]> {
  const json = rows.map((r) => JSON.stringify(eventRecord(r, workspaceId)));
  const expired: number[] = [];
  rows.forEach((r, i) => {
    if (r.expiredAt !== undefined) expired.push(i);
  });
  return {
    get data() {
      return JSON.parse(`[${json.join(',')}]`) as EventRecord[];
    },
    json,
    page: {
      total,
      limit: query.limit,
      offset: query.offset,
      ...(expired.length > 0 ? { expiredRows: formatRanges(expired) } : {}),
    },
    ...(staleSince ? { staleSince } : {}),
  };
}

/**
 * What keeps a cache from answering while a recorded history can: the cluster down (502, 504), or
 * its first list still arriving (503). Anything else (a bad token, a missing cluster) is the
 * request's own problem and is answered as such.
 */
const CACHE_UNAVAILABLE = new Set([
  'cluster_unreachable',
  'cluster_timeout',
  'cluster_unauthorized',
  'cluster_error',
  'cluster_syncing',
]);

/**
 * Where an events read (the list, the timeline, the groups) answers from. `recorded`: from the
 * event history (includeExpired=true while events are recorded). `cache`: the cluster's event
 * cache, synced; undefined when it cannot answer (the cluster down, its first list still arriving)
 * and the history answers alone, marked stale as of its last recording.
 */
export interface EventsSource {
  cluster: ClusterConnection;
  flags: MonitoringFlags;
  recorded: boolean;
  cache: ResourceCache<EventEntry> | undefined;
  /** RFC 3339: when the data answered was last known to match the cluster; undefined while live. */
  staleSince: string | undefined;
  /** Why the cache cannot answer; thrown when the history has nothing to answer with either. */
  cause?: ProblemError;
}

/**
 * The one path every events read takes. With includeExpired=true and a recorded history, a cluster
 * that cannot be reached now (not even from a cache of this run) still has its history: that is
 * answered, marked stale as of the last recording, rather than an error; a cluster known to be down
 * is not waited for at all. Otherwise the cache is waited for as any list waits for its cache.
 */
export async function eventsSource(
  registry: ClusterRegistry,
  history: EventHistory,
  params: { workspaceId: string; clusterId: string },
  includeExpired: boolean | undefined,
  ctx: CallContext,
): Promise<EventsSource> {
  const recorded = includeExpired === true && history.answers(params.clusterId);
  if (!recorded) {
    const { cluster, flags, cache } = await syncedEvents(registry, params, ctx);
    return { cluster, flags, recorded, cache, staleSince: cache.staleSince };
  }
  const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
  const flags = registry.monitoring(cluster.clusterId);
  const cache = cluster.events();
  try {
    // Known down already: no request waits for one more failed attempt.
    const down = cache.neverSyncedCause;
    if (down) throw down;
    await cache.acquire(ctx.signal);
    return { cluster, flags, recorded, cache, staleSince: cache.staleSince };
  } catch (err) {
    if (!(err instanceof ProblemError) || !CACHE_UNAVAILABLE.has(err.code)) throw err;
    const recordedAt = await history.lastRecorded(cluster.clusterId);
    if (recordedAt === undefined) throw err;
    const staleSince = new Date(recordedAt).toISOString();
    return { cluster, flags, recorded, cache: undefined, staleSince, cause: err };
  }
}

/** The source's live cache; when there is none, the problem that kept it from answering. */
export function liveCache(source: EventsSource): ResourceCache<EventEntry> {
  if (source.cache) return source.cache;
  throw source.cause;
}

export function eventHandlers(
  registry: ClusterRegistry,
  history: EventHistory,
  now: () => number = Date.now,
): Pick<OperationHandlers, 'listEvents'> {
  return {
    async listEvents({ params, query }, ctx) {
      const source = await eventsSource(registry, history, params, query.includeExpired, ctx);
      const { cluster, flags } = source;
      if (source.recorded) {
        const f = resolveEventFilter(query, durationsEnd(cluster, now()), flags);
        const found = await history.page(cluster.clusterId, f, query.limit, query.offset);
        if (found) return historyPage(found.rows, found.total, query, params.workspaceId, source.staleSince);
      }
      const read = liveCache(source).read(query.snapshot);
      // A duration counts back from the walk's first page, so every page agrees on the cut.
      const asOf = durationsEnd(cluster, read.asOf);
      const rows = eventRows(read.snapshot, resolveEventFilter(query, asOf, flags));
      return serialisedPage<(typeof rows)[number], EventRecord>(
        rows,
        query.limit,
        query.offset,
        { text: (e) => JSON.stringify(eventRecord(e, params.workspaceId)), variant: params.workspaceId },
        read,
      );
    },
  };
}
