/**
 * The timeline (eventTimeline) and the groups (eventGroups) of a cluster's events: live events by
 * default, with includeExpired=true the recorded history too.
 *
 * Rules: they take the list's path (source.ts), so with the cluster down they answer from the
 * history at once, marked stale, exactly as the list does; they count the rows the list would
 * answer for the same filters; the groups of one live view are computed once per filter, so the
 * pages of one walk group once.
 */
import type { ValidInput } from '../../../src-shared/contract/define';
import type { EventGroup, EventTimeline } from '../../../src-shared/contract/event-history-models';
import type { Operations } from '../../../src-shared/contract/operations';
import { viewMemo } from '../cache/list-queries';
import { eventNamespaces } from './access';
import { durationsEnd } from './clock';
import { eventRows } from './filter';
import { liveGroups, liveTimeline, toEventGroup } from './history/aggregate';
import { filterKey } from './history/filter';
import type { EventHistory } from './history/index';
import type { GroupRow } from './history/store';
import { resolveEventFilter } from './query';
import { eventsSource, liveCache } from './source';
import type { EventsTarget } from './target';

export type EventTimelineQuery = ValidInput<Operations['eventTimeline']>['query'];
export type EventGroupsQuery = ValidInput<Operations['eventGroups']>['query'];

/** Groups of a live view, per filter (the last 8): the pages of one walk group once. */
const groupsOf = viewMemo<GroupRow>(8);

export async function eventTimeline(
  target: EventsTarget,
  history: EventHistory,
  query: EventTimelineQuery,
  signal: AbortSignal,
  now: () => number = Date.now,
): Promise<{ data: EventTimeline; staleSince?: string }> {
  const allowed = await eventNamespaces(target, query.namespace, signal);
  const source = await eventsSource(target, history, query.includeExpired, signal);
  const { cluster, flags, staleSince } = source;
  const at = durationsEnd(cluster, now());
  const f = resolveEventFilter(query, at, flags, allowed);
  const found = source.recorded ? await history.timeline(cluster, f, at, query.buckets) : undefined;
  const data =
    found ??
    liveTimeline(
      eventRows(liveCache(source).read().view, f),
      {
        now: at,
        ...(f.sinceMs !== undefined ? { sinceMs: f.sinceMs } : {}),
        ...(f.untilMs !== undefined ? { untilMs: f.untilMs } : {}),
      },
      query.buckets,
    );
  return { data, ...(staleSince ? { staleSince } : {}) };
}

export async function eventGroups(
  target: EventsTarget,
  history: EventHistory,
  query: EventGroupsQuery,
  signal: AbortSignal,
  now: () => number = Date.now,
) {
  const allowed = await eventNamespaces(target, query.namespace, signal);
  const source = await eventsSource(target, history, query.includeExpired, signal);
  const { cluster, flags, staleSince } = source;
  const f = resolveEventFilter(query, durationsEnd(cluster, now()), flags, allowed);
  const { limit, offset } = query;
  let groups: readonly GroupRow[];
  let total: number;
  const found = source.recorded ? await history.groups(cluster, f, limit, offset) : undefined;
  if (found) {
    groups = found.groups;
    total = found.total;
  } else {
    const { view } = liveCache(source).read();
    const all = groupsOf(view, filterKey(f), () => liveGroups(eventRows(view, f)));
    groups = all.slice(offset, offset + limit);
    total = all.length;
  }
  const data: EventGroup[] = groups.map(toEventGroup);
  return { data, page: { total, limit, offset }, ...(staleSince ? { staleSince } : {}) };
}
