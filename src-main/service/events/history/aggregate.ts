/**
 * The timeline's buckets and the groups of events, built the same way from live rows and from the
 * history's SQL counts.
 *
 * Rules: buckets are whole seconds and cover exactly the rows the list answers for the same
 * filters; groups are ordered newest first, then by (kind, namespace, name, uid, reason, type).
 */
import type { EventGroup, EventTimeline } from '../../../../src-shared/contract/event-history-models';
import type { EventEntry } from '../entries';
import type { GroupRow } from './store';

/**
 * The two aggregate reads, computed the same way whatever holds the rows: the timeline's
 * buckets and the groups. The live cache hands over its rows; the history's SQL hands over its
 * counts and groups, and both end in the shapes built here.
 */

export interface TimelineRange {
  from: number;
  until: number;
  bucketMs: number;
  /** How many buckets cover the range: at most the number asked for. */
  count: number;
}

/**
 * `from` to `until` (inclusive) in `wanted` buckets at most, each a whole number of seconds long:
 * bucketMs = ceil(range / wanted) rounded up to a second. An empty range is one bucket of a second.
 */
export function timelineRange(from: number, until: number, wanted: number): TimelineRange {
  const span = Math.max(0, until - from);
  const bucketMs = Math.max(1_000, Math.ceil(Math.ceil(span / wanted) / 1_000) * 1_000);
  const count = Math.max(1, Math.ceil(span / bucketMs));
  return { from, until: Math.max(from, until), bucketMs, count };
}

/** The bucket of an instant; the range's end belongs to the last bucket. */
export function bucketOf(range: TimelineRange, ms: number): number {
  return Math.min(range.count - 1, Math.max(0, Math.floor((ms - range.from) / range.bucketMs)));
}

export function emptyTimeline(range: TimelineRange): EventTimeline {
  return {
    from: new Date(range.from).toISOString(),
    until: new Date(range.until).toISOString(),
    bucketMs: range.bucketMs,
    buckets: Array.from({ length: range.count }, (_, i) => ({
      start: new Date(range.from + i * range.bucketMs).toISOString(),
      normal: 0,
      warning: 0,
    })),
  };
}

export function addToTimeline(
  timeline: EventTimeline,
  range: TimelineRange,
  bucket: number,
  type: 'NORMAL' | 'WARNING',
  n: number,
): void {
  const b = timeline.buckets[Math.min(range.count - 1, Math.max(0, bucket))]!;
  if (type === 'WARNING') b.warning += n;
  else b.normal += n;
}

/** Rows in the list's order (newest first): the timeline of the live events. */
export function liveTimeline(
  rows: readonly EventEntry[],
  bounds: { sinceMs?: number; untilMs?: number; now: number },
  wanted: number,
): EventTimeline {
  const newest = rows[0]?.lastMs;
  const oldest = rows.at(-1)?.lastMs;
  const range = timelineRange(...rangeOf(bounds, oldest, newest), wanted);
  const timeline = emptyTimeline(range);
  for (const e of rows) addToTimeline(timeline, range, bucketOf(range, e.lastMs), e.type, 1);
  return timeline;
}

/**
 * `from` is since, else the oldest matching event; `until` is until, else now (or the newest event
 * when a cluster's clock runs ahead of ours, so that every listed event falls in a bucket).
 */
export function rangeOf(
  bounds: { sinceMs?: number; untilMs?: number; now: number },
  oldest: number | undefined,
  newest: number | undefined,
): [number, number] {
  const until = bounds.untilMs ?? Math.max(bounds.now, newest ?? bounds.now);
  const from = bounds.sinceMs ?? Math.min(oldest ?? until, until);
  return [from, until];
}

const groupKeyOf = (e: Pick<EventEntry, 'kind' | 'namespace' | 'name' | 'resourceId' | 'reason' | 'type'>) =>
  [e.kind, e.namespace, e.name, e.resourceId, e.reason, e.type] as const;

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! < b[i]!) return -1;
    if (a[i]! > b[i]!) return 1;
  }
  return 0;
}

/** Rows in the list's order: their groups, newest first, then by (kind, namespace, name, uid, reason, type). */
export function liveGroups(rows: readonly EventEntry[]): GroupRow[] {
  const groups = new Map<string, GroupRow & { key: readonly string[] }>();
  for (const e of rows) {
    const key = groupKeyOf(e);
    const id = key.join('\u0000');
    const firstMs =
      e.firstTimestamp === e.lastTimestamp ? e.lastMs : Date.parse(e.firstTimestamp) || e.lastMs;
    const g = groups.get(id);
    if (!g) {
      // The first row of a group in newest-first order is its latest event.
      groups.set(id, {
        key,
        kind: e.kind,
        namespace: e.namespace,
        name: e.name,
        resourceId: e.resourceId,
        reason: e.reason,
        type: e.type,
        count: e.count,
        events: 1,
        firstMs,
        lastMs: e.lastMs,
        firstTimestamp: e.firstTimestamp,
        lastTimestamp: e.lastTimestamp,
        message: e.message,
      });
      continue;
    }
    g.count += e.count;
    g.events++;
    if (firstMs < g.firstMs) {
      g.firstMs = firstMs;
      g.firstTimestamp = e.firstTimestamp;
    }
  }
  return [...groups.values()].sort((a, b) => b.lastMs - a.lastMs || compareKeys(a.key, b.key));
}

export function toEventGroup(g: GroupRow): EventGroup {
  return {
    involvedObject: { kind: g.kind, name: g.name, uid: g.resourceId, namespace: g.namespace },
    reason: g.reason,
    type: g.type,
    count: g.count,
    events: g.events,
    firstTimestamp: g.firstTimestamp,
    lastTimestamp: g.lastTimestamp,
    message: g.message,
  };
}
