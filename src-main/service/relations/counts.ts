/**
 * How many objects each kind has, for the tree, without starting a watch of every kind:
 * - a kind whose cache runs is counted from it, as of now (`cache`); one whose first list has not
 *   succeeded yet is counted as any other;
 * - any other kind by one list of `limit=1`: the page's items plus its
 *   `metadata.remainingItemCount`, which the apiserver gives for a list with no selector (a list
 *   with more to come and no count is a lower bound, `exact: false`); the answer is kept COUNT_TTL_MS
 *   and at most LIST_CONCURRENCY such lists run at once per cluster (`list`);
 * - a snapshot counts from its file (`snapshot`): the same one-row read of the kind's rows, or,
 *   in a namespace, its kind's cache, which reads the file and never a network.
 * A kind that cannot be counted has no count and says why; it never fails the others. A count in
 * some namespaces only (countIn) is the sum of each one's, kept and asked as above.
 */

import type { KindCount } from '../../../src-shared/contract/relations-operations';
import type { CollectionView } from '../cache/collection';
import type { ResourceEntry } from '../cache/entries';
import { resourceRows } from '../cache/list-queries';
import type { KindRef } from './model';
import { problemDetail } from './problem-text';

export const COUNT_TTL_MS = 15_000;
/** A failed count is asked again sooner. */
export const FAILED_TTL_MS = 3_000;
export const LIST_CONCURRENCY = 4;
/** Past this many kept counts, the expired ones are dropped. */
export const KEPT_MAX = 1_000;

/** One page of at most one object, as a ListerWatcher answers it (cache/source.ts). */
export interface OnePage {
  items: readonly unknown[];
  continue?: string | undefined;
  remainingItemCount?: number | undefined;
}

export interface CountSource {
  /**
   * The view of the kind's cache when it runs (a live cluster's: a read that starts nothing);
   * else undefined.
   */
  running(kind: KindRef, namespace: string | undefined): Promise<CollectionView<ResourceEntry> | undefined>;
  /** One list of at most one object of the kind, in a namespace or all. */
  listOne(kind: KindRef, namespace: string | undefined): Promise<OnePage>;
  /** `snapshot` for an opened snapshot, `list` for a live cluster. */
  readonly listSource: 'list' | 'snapshot';
  readonly now: () => number;
}

/** The count a page of at most one object gives. */
export function countOfPage(page: OnePage): { count: number; exact: boolean } {
  const more = page.continue !== undefined && page.continue !== '';
  if (!more) return { count: page.items.length, exact: true };
  if (page.remainingItemCount !== undefined)
    return { count: page.items.length + page.remainingItemCount, exact: true };
  return { count: page.items.length, exact: false };
}

interface Kept {
  at: number;
  ttl: number;
  value: Promise<KindCount>;
}

/** The kept list counts of one cluster, and the lists it has running. */
export class CountKeeper {
  private readonly kept = new Map<string, Kept>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly source: CountSource) {}

  /** How many list counts are kept now. */
  get keptCount(): number {
    return this.kept.size;
  }

  async count(kind: KindRef, namespace: string | undefined): Promise<KindCount> {
    // A running cache that cannot list yet (its first list failing) leaves the count to a list.
    const view = await this.source.running(kind, namespace).catch(() => undefined);
    if (view) {
      return {
        resourceType: kind.resourceType,
        count: resourceRows(view, namespace, undefined).length,
        exact: true,
        source: this.viewSource(),
      };
    }
    const key = `${kind.resourceType}\u0000${namespace ?? ''}`;
    const now = this.source.now();
    const hit = this.kept.get(key);
    if (hit && now - hit.at < hit.ttl) return hit.value;
    if (this.kept.size >= KEPT_MAX) this.forget(now);
    const kept: Kept = {
      at: now,
      ttl: COUNT_TTL_MS,
      value: this.listCount(kind, namespace, () => {
        kept.ttl = FAILED_TTL_MS;
      }),
    };
    this.kept.set(key, kept);
    return kept.value;
  }

  /**
   * The kind's count in these namespaces only (`--authorize rbac` across namespaces: those where
   * the caller may list it), the sum of each namespace's count, so each is kept as one asked for
   * in that namespace is. None is 0. One that fails makes the sum unknown, and says why.
   */
  async countIn(kind: KindRef, namespaces: ReadonlySet<string>): Promise<KindCount> {
    const counts = await Promise.all([...namespaces].map((ns) => this.count(kind, ns)));
    const failed = counts.find((c) => c.error !== undefined);
    if (failed) return failed;
    return {
      resourceType: kind.resourceType,
      count: counts.reduce((sum, c) => sum + (c.count ?? 0), 0),
      exact: counts.every((c) => c.exact),
      source: counts.some((c) => c.source === 'list') ? 'list' : this.viewSource(),
    };
  }

  private viewSource(): KindCount['source'] {
    return this.source.listSource === 'snapshot' ? 'snapshot' : 'cache';
  }

  /** Drops the counts past their time, so kinds × namespaces asked once are not kept for good. */
  private forget(now: number): void {
    for (const [key, kept] of this.kept) if (now - kept.at >= kept.ttl) this.kept.delete(key);
  }

  private async listCount(
    kind: KindRef,
    namespace: string | undefined,
    failed: () => void,
  ): Promise<KindCount> {
    await this.slot();
    try {
      const page = await this.source.listOne(kind, namespace);
      return { resourceType: kind.resourceType, ...countOfPage(page), source: this.source.listSource };
    } catch (err) {
      failed();
      return {
        resourceType: kind.resourceType,
        exact: false,
        source: this.source.listSource,
        error: problemDetail(err),
      };
    } finally {
      this.release();
    }
  }

  private slot(): Promise<void> {
    if (this.running < LIST_CONCURRENCY) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
