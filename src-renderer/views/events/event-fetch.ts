import type { EventGroup } from '../../../src-shared/contract/event-history-models';
import type { EventRecord } from '../../../src-shared/contract/models';
import { MAX_PAGE_LIMIT } from '../../../src-shared/contract/params';
import { oldestStaleSince, type Scope } from '../../api/queries';
import { api } from '../../state/connection';
import { expiredIds } from './expired-rows';

export interface Loaded<T> {
  items: T[];
  total: number;
  /** Set when the service answered from a cache whose watch is broken. */
  staleSince?: string;
}

export interface LoadedEvents extends Loaded<EventRecord> {
  /** Events the cluster no longer has (recorded history), by eventId; empty unless includeExpired. */
  expired: Set<string>;
}

interface PageReply<T> {
  data: T[];
  page?: { total: number; expiredRows?: string };
  staleSince?: string;
}

/**
 * The first `count` rows of a paged list. The service pages at most MAX_PAGE_LIMIT, and what is on
 * screen is re-read from the top on each refresh, so new events push the rest down as they come.
 */
async function firstRows<T>(
  count: number,
  page: (limit: number, offset: number) => Promise<PageReply<T>>,
): Promise<{ items: T[]; total: number; replies: PageReply<T>[] }> {
  const items: T[] = [];
  const replies: PageReply<T>[] = [];
  let total = 0;
  for (let offset = 0; offset < count; offset += MAX_PAGE_LIMIT) {
    const limit = Math.min(MAX_PAGE_LIMIT, count - offset);
    const r = await page(limit, offset);
    items.push(...r.data);
    replies.push(r);
    total = r.page?.total ?? items.length;
    if (r.data.length < limit) break;
  }
  return { items, total, replies };
}

const pageWindow = (limit: number, offset: number) => ({ limit: String(limit), offset: String(offset) });

export async function fetchEvents(
  scope: Scope,
  query: Record<string, string>,
  count: number,
  signal: AbortSignal,
): Promise<LoadedEvents> {
  const { items, total, replies } = await firstRows(count, async (limit, offset) => {
    const r = await api().call(
      'listEvents',
      { params: scope, query: { ...query, ...pageWindow(limit, offset) } },
      { signal },
    );
    return r;
  });
  const expired = new Set<string>();
  for (const r of replies) for (const id of expiredIds(r.data, r.page?.expiredRows)) expired.add(id);
  const staleSince = oldestStaleSince(replies);
  return { items, total, expired, ...(staleSince ? { staleSince } : {}) };
}

export async function fetchGroups(
  scope: Scope,
  query: Record<string, string>,
  count: number,
  signal: AbortSignal,
): Promise<Loaded<EventGroup>> {
  const { items, total, replies } = await firstRows(count, (limit, offset) =>
    api().call(
      'eventGroups',
      { params: scope, query: { ...query, ...pageWindow(limit, offset) } },
      { signal },
    ),
  );
  const staleSince = oldestStaleSince(replies);
  return { items, total, ...(staleSince ? { staleSince } : {}) };
}
