import type { EventGroup } from '../../../src-shared/contract/event-history-models';
import type { CollectionSnapshot } from '../cache/collection';
import type { EventEntry } from '../clusters/entries';
import { eventRows } from '../cache/list-queries';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { liveGroups, liveTimeline, toEventGroup } from '../events/history/aggregate';
import { filterKey } from '../events/history/filter';
import type { EventHistory } from '../events/history/index';
import type { GroupRow } from '../events/history/store';
import { durationsEnd } from '../events/clock';
import { eventsSource, liveCache, resolveEventFilter } from './events';

/** Groups of a live snapshot, per filter: the pages of one view group once. */
const groupMemo = new WeakMap<CollectionSnapshot<EventEntry>, Map<string, GroupRow[]>>();

function groupsOf(snapshot: CollectionSnapshot<EventEntry>, key: string, rows: () => readonly EventEntry[]) {
  let byFilter = groupMemo.get(snapshot);
  if (!byFilter) {
    byFilter = new Map();
    groupMemo.set(snapshot, byFilter);
  }
  let groups = byFilter.get(key);
  if (!groups) {
    groups = liveGroups(rows());
    if (byFilter.size >= 8) byFilter.delete(byFilter.keys().next().value as string);
    byFilter.set(key, groups);
  }
  return groups;
}

/**
 * The timeline and the groups: live events by default, with includeExpired=true the history too.
 * They take the list's path (eventsSource): with the cluster down they answer from the history at
 * once, marked stale, exactly as the list does.
 */
export function eventHistoryHandlers(
  registry: ClusterRegistry,
  history: EventHistory,
  now: () => number = Date.now,
): Pick<OperationHandlers, 'eventTimeline' | 'eventGroups'> {
  return {
    async eventTimeline({ params, query }, ctx) {
      const source = await eventsSource(registry, history, params, query.includeExpired, ctx);
      const { cluster, flags, staleSince } = source;
      const at = durationsEnd(cluster, now());
      const f = resolveEventFilter(query, at, flags);
      const found = source.recorded
        ? await history.timeline(cluster.clusterId, f, at, query.buckets)
        : undefined;
      const data =
        found ??
        liveTimeline(
          eventRows(liveCache(source).read().snapshot, f),
          {
            now: at,
            ...(f.sinceMs !== undefined ? { sinceMs: f.sinceMs } : {}),
            ...(f.untilMs !== undefined ? { untilMs: f.untilMs } : {}),
          },
          query.buckets,
        );
      return { data, ...(staleSince ? { staleSince } : {}) };
    },

    async eventGroups({ params, query }, ctx) {
      const source = await eventsSource(registry, history, params, query.includeExpired, ctx);
      const { cluster, flags, staleSince } = source;
      const f = resolveEventFilter(query, durationsEnd(cluster, now()), flags);
      const { limit, offset } = query;
      let groups: readonly GroupRow[];
      let total: number;
      const found = source.recorded ? await history.groups(cluster.clusterId, f, limit, offset) : undefined;
      if (found) {
        groups = found.groups;
        total = found.total;
      } else {
        const { snapshot } = liveCache(source).read();
        const all = groupsOf(snapshot, filterKey(f), () => eventRows(snapshot, f));
        groups = all.slice(offset, offset + limit);
        total = all.length;
      }
      const data: EventGroup[] = groups.map(toEventGroup);
      return { data, page: { total, limit, offset }, ...(staleSince ? { staleSince } : {}) };
    },
  };
}
