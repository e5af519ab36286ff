/**
 * Which of a list's columns fit beside the detail pane. The name and the status always stay; the
 * others go, least useful first, when the list is too narrow for their minimum widths: first the
 * kind's later columns (a pod's node and IP), then the namespace (the header's selector and the
 * pane's header name it), then the kind's first two columns after its status (a pod's Ready and
 * Restarts: whether it works, and how often it fell over), and Age last of them: every list shows
 * it, as kubectl does, since how new an object is says at a glance whether it is the one just
 * rolled out or restarted. The name narrows (NARROW_NAME_WIDTH, its full text in a tooltip) when
 * that keeps more columns. The fit uses VirtualTable's own measure (the sum of the tracks' rem
 * minimums: a cell and its padding sit inside its track), so a list that fits never scrolls
 * sideways and the status never slides off the right edge.
 */

export interface FitColumn {
  id: string;
  /** A CSS grid track such as "minmax(14rem, 3fr)" or "6rem". */
  width: string;
}

/** The name column's track when the full one would cost a column or the status. */
export const NARROW_NAME_WIDTH = 'minmax(8rem, 3fr)';

/** A cell's horizontal padding, both sides, in rem (table.css: 0.45rem each side), inside its track. */
export const CELL_PAD_REM = 0.9;

/** The narrowest a track gets: its first rem figure ("minmax(9rem, 1fr)" → 9), 6 without one. */
export const minRem = (c: FitColumn) => Number(/([\d.]+)rem/.exec(c.width)?.[1] ?? 6);
/** The room columns need at their narrowest (each track holds its cell's padding). */
export const neededRem = (cols: readonly FitColumn[]) => cols.reduce((sum, c) => sum + minRem(c), 0);

/** The column that says whether an object is fine: "status", else "ready", else the kind's first. */
function statusId(columns: readonly FitColumn[]): string | undefined {
  const own = columns.filter((c) => c.id !== 'name' && c.id !== 'namespace' && c.id !== 'age');
  return (own.find((c) => c.id === 'status') ?? own.find((c) => c.id === 'ready') ?? own[0])?.id;
}

/** The columns kept at `widthRem` with the name's track as given; lower ranks first. */
function keep<C extends FitColumn>(byPriority: readonly { c: C; rank: number }[], widthRem: number, name: C) {
  const kept = new Set<string>();
  let used = 0;
  for (const { c, rank } of byPriority) {
    const more = minRem(c.id === 'name' ? name : c);
    // Name and status always stay; the others are dropped from the end only: once one does not
    // fit, none after it is shown.
    if (rank >= 2 && used + more > widthRem) break;
    kept.add(c.id);
    used += more;
  }
  return { kept, fits: used <= widthRem };
}

/**
 * Columns by how much they matter when space is short: name, status, age, the kind's first two
 * columns after the status, namespace, the kind's other columns in their own order. Answers the
 * columns that fit, in their original order.
 */
export function fitColumns<C extends FitColumn>(columns: readonly C[], widthRem: number): C[] {
  const status = statusId(columns);
  const own = columns.filter(
    (c) => c.id !== 'name' && c.id !== 'namespace' && c.id !== 'age' && c.id !== status,
  );
  const rank = (c: C) => {
    if (c.id === 'name') return 0;
    if (c.id === status) return 1;
    if (c.id === 'age') return 2;
    const i = own.indexOf(c);
    if (i >= 0 && i < 2) return 3;
    return c.id === 'namespace' ? 4 : 5;
  };
  const byPriority = columns
    .map((c, i) => ({ c, i, rank: rank(c) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i);
  const name = columns.find((c) => c.id === 'name');
  if (!name) return [...columns];
  const narrowName = { ...name, width: NARROW_NAME_WIDTH };
  const full = keep(byPriority, widthRem, name);
  const narrow = keep(byPriority, widthRem, narrowName);
  const useNarrow = !full.fits || narrow.kept.size > full.kept.size;
  const kept = useNarrow ? narrow.kept : full.kept;
  return columns.filter((c) => kept.has(c.id)).map((c) => (useNarrow && c.id === 'name' ? narrowName : c));
}
