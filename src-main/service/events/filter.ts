/**
 * The event list's filters over the event cache: which events pass (matchesEvent, for the watch's
 * changes one at a time) and the rows of a view that pass (eventRows, for the list, the timeline,
 * the groups and the watch's replay).
 *
 * Rules: both answer exactly the same filter, and the history answers it too (history/filter.ts);
 * rows come in the list's order, cut through the view's indexes, and are kept with their view
 * (cache/list-queries.ts), so the pages of one walk filter once.
 */
import type { CollectionView } from '../cache/collection';
import { remembered } from '../cache/list-queries';
import type { EventEntry } from './entries';

export interface EventFilter {
  type?: 'NORMAL' | 'WARNING';
  reason?: string;
  namespace?: string;
  /** Lower-cased. */
  kind?: string;
  name?: string;
  /** Epoch ms: events whose lastTimestamp is at or after it. */
  sinceMs?: number;
  /** Epoch ms: events whose lastTimestamp is at or before it. */
  untilMs?: number;
  resourceEvents: boolean;
  systemEvents: boolean;
  /**
   * `--authorize rbac`: only events in these namespaces (the caller may `list events` there);
   * absent: every namespace. System events (no namespace) never pass a set (events/access.ts).
   */
  namespaces?: ReadonlySet<string>;
}

/** Whether one event passes the list's filters: eventRows for one entry (the event watch's changes). */
export function matchesEvent(e: EventEntry, f: EventFilter): boolean {
  return (
    (e.category === 'resource' ? f.resourceEvents : f.systemEvents) &&
    (f.type === undefined || e.type === f.type) &&
    (f.reason === undefined || e.reason === f.reason) &&
    (f.namespace === undefined || e.namespace === f.namespace) &&
    (f.namespaces === undefined || f.namespaces.has(e.namespace)) &&
    (f.kind === undefined || e.kindKey === f.kind) &&
    (f.name === undefined || e.name === f.name) &&
    (f.sinceMs === undefined || e.lastMs >= f.sinceMs) &&
    (f.untilMs === undefined || e.lastMs <= f.untilMs)
  );
}

/** The allowed namespaces as part of a memo key: sorted, or null for every namespace. */
export const allowedKey = (f: EventFilter): string[] | null =>
  f.namespaces === undefined ? null : [...f.namespaces].sort();

/** Index name and value for each indexed filter the request sets. */
function indexedFilters(f: EventFilter): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (f.type !== undefined) out.push(['type', f.type]);
  if (f.reason !== undefined) out.push(['reason', f.reason]);
  if (f.namespace !== undefined) out.push(['namespace', f.namespace]);
  if (f.kind !== undefined) out.push(['kind', f.kind]);
  if (f.resourceEvents !== f.systemEvents) out.push(['category', f.resourceEvents ? 'resource' : 'system']);
  return out;
}

/** In newest-first order the events at or after an instant are a prefix: its length, by bisection. */
function sincePrefix(rows: readonly EventEntry[], sinceMs: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.lastMs >= sinceMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function eventRows(view: CollectionView<EventEntry>, f: EventFilter): readonly EventEntry[] {
  if (!f.resourceEvents && !f.systemEvents) return [];
  const indexed = indexedFilters(f);
  const key = JSON.stringify([indexed, f.name ?? null, f.sinceMs ?? null, f.untilMs ?? null, allowedKey(f)]);
  return remembered(view, key, () => {
    let rows = view.all;
    for (const [name, value] of indexed) {
      const list = view.by(name, value);
      if (list.length < rows.length) rows = list;
    }
    if (f.sinceMs !== undefined) rows = rows.slice(0, sincePrefix(rows, f.sinceMs));
    // The events after `until` (lastMs ≥ until + 1) are a prefix too: cut off.
    if (f.untilMs !== undefined) rows = rows.slice(sincePrefix(rows, f.untilMs + 1));
    const extra = indexed.length > 1 || f.name !== undefined || f.namespaces !== undefined;
    if (!extra) return rows;
    // The time bounds already hold (the slices above); matchesEvent checks them again, cheaply.
    return rows.filter((e) => matchesEvent(e, f));
  });
}
