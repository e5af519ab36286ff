/**
 * The events list (listEvents): a page of the live cache, or with includeExpired=true of the
 * recorded history, live and expired events together.
 *
 * Rules: one order everywhere (newest first, then eventId); a page of the cache is cut from one
 * pinned view, so a walk's pages agree (its durations count back from the walk's first page); a
 * page of the history is read from the database at request time and carries no snapshot token,
 * but says which of its rows have expired (PageInfo.expiredRows; HTTP: X-Expired-Rows).
 */
import type { Reply, ValidInput } from '../../../src-shared/contract/define';
import type { EventRecord } from '../../../src-shared/contract/models';
import type { Operations } from '../../../src-shared/contract/operations';
import { serialisedPage } from '../pagination';
import { eventNamespaces } from './access';
import { durationsEnd } from './clock';
import { eventRecord } from './entries';
import { eventRows } from './filter';
import { formatRanges, type HistoryRow } from './history/filter';
import type { EventHistory } from './history/index';
import { resolveEventFilter } from './query';
import { eventsSource, liveCache } from './source';
import type { EventsTarget } from './target';

export type ListEventsQuery = ValidInput<Operations['listEvents']>['query'];

/** A page of recorded events, with the positions of the expired ones on it. */
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

export async function listEvents(
  target: EventsTarget,
  history: EventHistory,
  query: ListEventsQuery,
  signal: AbortSignal,
  now: () => number = Date.now,
): Promise<Reply<EventRecord[]>> {
  const allowed = await eventNamespaces(target, query.namespace, signal);
  const source = await eventsSource(target, history, query.includeExpired, signal);
  const { cluster, flags } = source;
  const { workspaceId } = target;
  if (source.recorded) {
    const f = resolveEventFilter(query, durationsEnd(cluster, now()), flags, allowed);
    const found = await history.page(cluster, f, query.limit, query.offset);
    if (found) return historyPage(found.rows, found.total, query, workspaceId, source.staleSince);
  }
  const read = liveCache(source).read(query.snapshot);
  // A duration counts back from the walk's first page, so every page agrees on the cut.
  const asOf = durationsEnd(cluster, read.asOf);
  const rows = eventRows(read.view, resolveEventFilter(query, asOf, flags, allowed));
  return serialisedPage<(typeof rows)[number], EventRecord>(
    rows,
    query.limit,
    query.offset,
    { text: (e) => JSON.stringify(eventRecord(e, workspaceId)), variant: workspaceId },
    read,
  );
}
