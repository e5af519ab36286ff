import type { EventGroup, EventTimeline } from '../../../src-shared/contract/event-history-models';
import type { ApiError } from '../../api';
import type { Scope } from '../../api/queries';
import { usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';
import { useLiveEvents } from '../../state/events';
import { fetchEvents, fetchGroups, type Loaded, type LoadedEvents } from './event-fetch';

/**
 * The one source of an events list, for the Events view and an object's Events tab alike. It owns
 * the three ways the data arrives: the live watch for the plain list; polling for groups, for the
 * recorded history (expired events) and for the list while its watch is down (a reconnect with
 * Last-Event-ID is under way meanwhile); and the timeline, refetched on the watch's batched change
 * count while live, polled otherwise, and not fetched at all when the caller shows no chart.
 * Rules: no view calls `api()` for events itself; the list on screen comes from exactly one of
 * the watch or the poll, never a mix, so its staleness and "updated X ago" describe what is shown.
 */

/** How often the polled list and the polled timeline refresh. */
const POLL_MS = 5000;
/** Enough bars to see a burst, few enough that each stays a few pixels wide. */
const BUCKETS = 60;
const NO_EXPIRED: ReadonlySet<string> = new Set();

export type FeedData =
  | ({ kind: 'events' } & Omit<LoadedEvents, 'expired'> & { expired: ReadonlySet<string> })
  | ({ kind: 'groups' } & Loaded<EventGroup>);

export interface FeedOptions {
  scope: Scope;
  /** Filters, range and includeExpired, without paging: the list and the timeline share them. */
  query: Record<string, string>;
  /** How many rows (or groups) from the top. */
  count: number;
  /** Groups by object and reason instead of single events (always polled). */
  grouped?: boolean;
  /** The query includes recorded events the cluster no longer has (always polled: the watch has none). */
  expired?: boolean;
  /** Fetch the timeline too (false: the chart is folded away or there is none). */
  timeline?: boolean;
}

export interface EventsFeed {
  data: FeedData | undefined;
  /** The data on screen comes from the live watch (the header says "live"). */
  live: boolean;
  /** A poll is out (a first load, a refresh or the next page). */
  fetching: boolean;
  /** The poll's last failure; the previous answer, if any, stays in `data`. */
  error: ApiError | Error | null;
  /** When the polled data last arrived (null while live). */
  updatedAt: number | null;
  timeline: { data: EventTimeline | undefined; error: ApiError | Error | null };
}

export function useEventsFeed({
  scope,
  query,
  count,
  grouped = false,
  expired = false,
  timeline = false,
}: FeedOptions): EventsFeed {
  const base = `${scope.workspaceId}/${scope.clusterId}/${JSON.stringify(query)}`;
  const liveMode = !grouped && !expired;
  const watch = useLiveEvents(liveMode ? scope : null, query, count);
  const polling = !liveMode || watch.down;
  const rows = usePolling<FeedData>(
    polling ? `${base}/${grouped ? 'groups' : 'events'}/${count}` : null,
    async (signal) =>
      grouped
        ? { kind: 'groups', ...(await fetchGroups(scope, query, count, signal)) }
        : { kind: 'events', ...(await fetchEvents(scope, query, count, signal)) },
    { intervalMs: POLL_MS, keepPrevious: true },
  );
  const liveData: FeedData | undefined =
    liveMode && watch.events && !polling
      ? {
          kind: 'events',
          items: watch.events,
          total: watch.total,
          expired: NO_EXPIRED,
          ...(watch.watch.kind === 'live' && watch.watch.stale ? { staleSince: watch.watch.stale } : {}),
        }
      : undefined;
  // While live the timeline follows the watch's change count instead of polling.
  const changes = liveData ? watch.changes : undefined;
  const chart = usePolling(
    timeline ? `${base}/timeline${changes === undefined ? '' : `/${changes}`}` : null,
    async (signal) =>
      (
        await api().call(
          'eventTimeline',
          { params: scope, query: { ...query, buckets: String(BUCKETS) } },
          { signal },
        )
      ).data,
    { intervalMs: changes === undefined ? POLL_MS : 0, keepPrevious: true },
  );
  return {
    data: liveData ?? rows.data,
    live: liveData !== undefined,
    fetching: rows.fetching,
    error: rows.error,
    updatedAt: liveData ? null : rows.updatedAt,
    timeline: { data: chart.data, error: chart.error },
  };
}
