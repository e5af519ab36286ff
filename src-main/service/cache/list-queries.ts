/**
 * The rows a filtered resource list answers, cut from a collection view through its indexes (a
 * selector is answered from the shortest index list of its equality requirements, a namespace by
 * bisection). Rules: the rows are in the view's order; a result is remembered with its view (at
 * most 32 per view), so the pages of one walk filter once.
 */
import { formatSelector, matchesSelector, type Selector } from '../../../src-shared/kube/selector';
import type { CollectionView } from './collection';
import type { ResourceEntry } from './entries';

/**
 * A memo of rows per view: `compute` runs once per view and key, and at most `perView` keys are
 * kept for one view (the oldest is dropped first). The view is a WeakMap key, so a superseded view
 * and its rows go with it. Each memo has its own maps (the events groups keep fewer: aggregates.ts).
 */
export function viewMemo<T>(perView: number) {
  const memo = new WeakMap<object, Map<string, readonly T[]>>();
  return (view: object, key: string, compute: () => readonly T[]): readonly T[] => {
    let results = memo.get(view);
    if (!results) {
      results = new Map();
      memo.set(view, results);
    }
    const hit = results.get(key);
    if (hit) return hit;
    const rows = compute();
    if (results.size >= perView) results.delete(results.keys().next().value as string);
    results.set(key, rows);
    return rows;
  };
}

const rememberedRows = viewMemo<unknown>(32);

/**
 * The rows a filtered list answers, cut from a view through its indexes, kept with its view (32
 * per view), so the pages of one walk filter once, not once per page. The events list shares it
 * (events/filter.ts).
 */
export const remembered = <T>(view: object, key: string, compute: () => readonly T[]): readonly T[] =>
  rememberedRows(view, key, compute) as readonly T[];

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
    const base = candidates ?? (namespace === undefined ? view.all : namespaceSlice(view.all, namespace));
    return base.filter(
      (r) => (namespace === undefined || r.namespace === namespace) && matchesSelector(selector, r.labels),
    );
  });
}
