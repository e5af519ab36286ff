/**
 * Deep pages of recorded rows without walking an OFFSET through the index (issue 27 §1 "Paging"):
 * the API stays offset-based (`limit`, `offset`, x-Total, Link), and a page is read from the
 * nearest point whose place in the list is known, by its sort key, skipping only the rows between.
 *
 * Known points, per walk (a cluster, a filter and the table's version): the list's head, its tail
 * (the total is known: a page past the middle is read backwards from the end, so the last page of a
 * million rows skips nothing), and the first and last rows of every page this walk served (the next
 * page of a walk starts one row after the previous one's last, a page asked again starts at its own
 * first row).
 *
 * Rules: a plan never skips more rows than a plain OFFSET would; anchors are trusted only within
 * their walk, so a caller puts in the walk key whatever changes the rows' positions (the table's
 * version, the filter, the cluster) and passes no walk at all when it cannot know that (another
 * replica writes the rows): head and tail still hold. Memory is bounded (walks and anchors per walk).
 */

/** A row whose position in the list is known, by its sort key. */
interface Anchor<K> {
  position: number;
  key: K;
}

/**
 * How to read the rows at [offset, offset + take): `forward` in the list's order, `backward` in its
 * reverse (the caller puts the rows back in the list's order). `from` is the sort key of the row
 * the read starts at, inclusive; absent: the list's head (forward) or tail (backward). `skip` rows
 * are passed over from there.
 */
export interface PagePlan<K> {
  direction: 'forward' | 'backward';
  from?: K;
  skip: number;
  take: number;
}

export const DEFAULT_MAX_WALKS = 64;
export const DEFAULT_MAX_ANCHORS = 256;

export class PageBoundaries<K> {
  /** Anchors by walk, least recently used walk first. */
  private readonly walks = new Map<string, Anchor<K>[]>();

  constructor(
    private readonly maxWalks = DEFAULT_MAX_WALKS,
    private readonly maxAnchors = DEFAULT_MAX_ANCHORS,
  ) {}

  /**
   * The cheapest read of the page at `offset` of a list of `total` rows. The caller answers an empty
   * page without reading when `offset >= total`; here `take` is at least 1 then.
   */
  plan(walk: string | undefined, offset: number, limit: number, total: number): PagePlan<K> {
    const end = Math.min(offset + limit, total);
    const take = Math.max(end - offset, 0);
    let best: PagePlan<K> = { direction: 'forward', skip: offset, take };
    const consider = (p: PagePlan<K>) => {
      if (p.skip < best.skip) best = p;
    };
    consider({ direction: 'backward', skip: total - end, take });
    if (walk === undefined) return best;
    // A row past the list's end (the list shrank) is never cheaper than the tail: it needs no test.
    for (const a of this.touch(walk)) {
      if (a.position <= offset)
        consider({ direction: 'forward', from: a.key, skip: offset - a.position, take });
      else if (a.position >= end - 1)
        consider({ direction: 'backward', from: a.key, skip: a.position - (end - 1), take });
    }
    return best;
  }

  /** The page at `offset` held `count` rows, the first keyed `first` and the last `last`. */
  remember(walk: string | undefined, offset: number, count: number, first: K, last: K): void {
    if (walk === undefined || count === 0) return;
    const anchors = this.touch(walk);
    this.add(anchors, { position: offset, key: first });
    this.add(anchors, { position: offset + count - 1, key: last });
    if (this.walks.size > this.maxWalks) this.walks.delete(this.walks.keys().next().value as string);
  }

  /** How many walks are held (tests check the bound). */
  get size(): number {
    return this.walks.size;
  }

  private touch(walk: string): Anchor<K>[] {
    const anchors = this.walks.get(walk) ?? [];
    this.walks.delete(walk);
    this.walks.set(walk, anchors);
    return anchors;
  }

  private add(anchors: Anchor<K>[], anchor: Anchor<K>): void {
    if (anchors.some((a) => a.position === anchor.position)) return;
    // The oldest goes first: a walk moves on, and what it passed long ago is asked for least.
    if (anchors.length >= this.maxAnchors) anchors.shift();
    anchors.push(anchor);
  }
}
