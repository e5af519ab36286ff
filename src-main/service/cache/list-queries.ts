import { formatSelector, matchesSelector, type Selector } from '../../../src-shared/kube/selector';
import type { ResourceEntry } from '../clusters/entries';
import type { EventEntry } from '../events/entries';
import type { CollectionView } from './collection';

/**
 * The rows a filtered list answers, cut from a view through its indexes. A result is kept with
 * its view (a few per view), so the pages of one walk filter once, not once per page.
 */
const memo = new WeakMap<object, Map<string, readonly unknown[]>>();
const MEMO_PER_VIEW = 32;

function remembered<T>(view: object, key: string, compute: () => readonly T[]): readonly T[] {
  let results = memo.get(view);
  if (!results) {
    results = new Map();
    memo.set(view, results);
  }
  const hit = results.get(key);
  if (hit) return hit as readonly T[];
  const rows = compute();
  if (results.size >= MEMO_PER_VIEW) results.delete(results.keys().next().value as string);
  results.set(key, rows);
  return rows;
}

/** The rows of one namespace are contiguous in a (namespace, name) order: found by bisection. */
function namespaceSlice(all: readonly ResourceEntry[], namespace: string): readonly ResourceEntry[] {
  const bound = (strict: boolean) => {
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const ns = all[mid]!.namespace;
      if (ns < namespace || (strict && ns === namespace)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return all.slice(bound(false), bound(true));
}

/** The shortest index list among a selector's single-value equality requirements, if any. */
function labelCandidates(
  view: CollectionView<ResourceEntry>,
  selector: Selector,
): readonly ResourceEntry[] | undefined {
  let best: readonly ResourceEntry[] | undefined;
  for (const r of selector) {
    const exact = r.op === '=' || (r.op === 'in' && r.values.length === 1);
    if (!exact) continue;
    const list = view.by('label', `${r.key}=${r.values[0]}`);
    if (!best || list.length < best.length) best = list;
  }
  return best;
}

export function resourceRows(
  view: CollectionView<ResourceEntry>,
  namespace: string | undefined,
  selector: Selector | undefined,
): readonly ResourceEntry[] {
  if (!selector || selector.length === 0) {
    return namespace === undefined
      ? view.all
      : remembered(view, `ns:${namespace}`, () => namespaceSlice(view.all, namespace));
  }
  return remembered(view, `sel:${namespace ?? ''}:${formatSelector(selector)}`, () => {
    const candidates = labelCandidates(view, selector);
    const base =
      candidates ?? (namespace === undefined ? view.all : namespaceSlice(view.all, namespace));
    return base.filter(
      (r) => (namespace === undefined || r.namespace === namespace) && matchesSelector(selector, r.labels),
    );
  });
}

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
}

/** Whether one event passes the list's filters: eventRows for one entry (the event watch's changes). */
export function matchesEvent(e: EventEntry, f: EventFilter): boolean {
  return (
    (e.category === 'resource' ? f.resourceEvents : f.systemEvents) &&
    (f.type === undefined || e.type === f.type) &&
    (f.reason === undefined || e.reason === f.reason) &&
    (f.namespace === undefined || e.namespace === f.namespace) &&
    (f.kind === undefined || e.kindKey === f.kind) &&
    (f.name === undefined || e.name === f.name) &&
    (f.sinceMs === undefined || e.lastMs >= f.sinceMs) &&
    (f.untilMs === undefined || e.lastMs <= f.untilMs)
  );
}

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
  const key = JSON.stringify([indexed, f.name ?? null, f.sinceMs ?? null, f.untilMs ?? null]);
  return remembered(view, key, () => {
    let rows = view.all;
    for (const [name, value] of indexed) {
      const list = view.by(name, value);
      if (list.length < rows.length) rows = list;
    }
    if (f.sinceMs !== undefined) rows = rows.slice(0, sincePrefix(rows, f.sinceMs));
    // The events after `until` (lastMs ≥ until + 1) are a prefix too: cut off.
    if (f.untilMs !== undefined) rows = rows.slice(sincePrefix(rows, f.untilMs + 1));
    const extra = indexed.length > 1 || f.name !== undefined;
    if (!extra) return rows;
    // The time bounds already hold (the slices above); matchesEvent checks them again, cheaply.
    return rows.filter((e) => matchesEvent(e, f));
  });
}
