/**
 * Which of a list's columns fit beside the detail pane. The name and the status always stay; the
 * others go, least useful first, when the list is too narrow for their minimum widths. Age goes
 * last of them: every list shows it, as kubectl does, since how new an object is says at a glance
 * whether it is the one just rolled out or restarted (the namespace is in the pane's header). The fit
 * uses VirtualTable's own measure (each track's rem minimum plus 1.2rem per column), so a list
 * that fits never scrolls sideways and the status never slides off the right edge.
 */

export interface FitColumn {
  id: string;
  /** A CSS grid track such as "minmax(14rem, 3fr)" or "6rem". */
  width: string;
}

/** The name column's track when even name and status do not fit at its usual minimum. */
export const NARROW_NAME_WIDTH = 'minmax(9rem, 3fr)';

const minRem = (c: FitColumn) => Number(/([\d.]+)rem/.exec(c.width)?.[1] ?? 6);
const needed = (cols: readonly FitColumn[]) => cols.reduce((sum, c) => sum + minRem(c) + 1.2, 0);

/** The column that says whether an object is fine: "status", else "ready", else the kind's first. */
function statusId(columns: readonly FitColumn[]): string | undefined {
  const own = columns.filter((c) => c.id !== 'name' && c.id !== 'namespace' && c.id !== 'age');
  return (own.find((c) => c.id === 'status') ?? own.find((c) => c.id === 'ready') ?? own[0])?.id;
}

/**
 * Columns by how much they matter when space is short: name, status, age, namespace, the kind's
 * other columns in their own order. Answers the columns that fit, in their original order;
 * the name column narrows (to NARROW_NAME_WIDTH) only when name and status would not fit otherwise.
 */
export function fitColumns<C extends FitColumn>(columns: readonly C[], widthRem: number): C[] {
  const status = statusId(columns);
  const rank = (c: C) =>
    c.id === 'name' ? 0 : c.id === status ? 1 : c.id === 'age' ? 2 : c.id === 'namespace' ? 3 : 4;
  const byPriority = columns.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i);
  const essential = byPriority.filter(({ c }) => rank(c) < 2).map(({ c }) => c);
  let narrowName = false;
  if (needed(essential) > widthRem) narrowName = true;
  const kept = new Set<C>(essential);
  let used = needed(
    essential.map((c) => (narrowName && c.id === 'name' ? { ...c, width: NARROW_NAME_WIDTH } : c)),
  );
  for (const { c } of byPriority) {
    if (kept.has(c)) continue;
    const more = minRem(c) + 1.2;
    // Lower-priority columns are dropped from the end only: once one does not fit, none after it is shown.
    if (used + more > widthRem) break;
    kept.add(c);
    used += more;
  }
  return columns
    .filter((c) => kept.has(c))
    .map((c) => (narrowName && c.id === 'name' ? { ...c, width: NARROW_NAME_WIDTH } : c));
}
