/**
 * The numbered change feed of one cluster's event cache, read by the event watch (watch/).
 *
 * Rules: every change the cache applies gets the next number, once; a bounded ring keeps the last
 * changes for Last-Event-ID resume, and anything older (or from another run or another replica)
 * is never resumed from; the history observes a change before the feed does.
 *
 * Ids hold across replicas and restarts because no two feeds share a range: a feed's first id is
 * the clock in microseconds plus a random offset in [0, 4e15) from node:crypto. A foreign id is
 * resumable only if it falls in this feed's window [floor, head], at most capacity + 1 ids wide:
 * with the default capacity that is about 1e4 / 4e15 = 2.5e-12 per attempt; and two feeds that
 * each number a billion changes overlap at all with odds of about 2e9 / 4e15 = 5e-7. Every id
 * stays a safe integer (below 2^53 ≈ 9.007e15): today's clock (≈ 1.8e15 µs) plus the offset is
 * under 5.8e15, and in the year 2100 (≈ 4.1e15 µs) a feed still has over 9e14 ids to go; the
 * room runs out around 2128. Ids stay plain decimal integers, so clients change nothing.
 */
import { randomInt } from 'node:crypto';
import type { CacheObserver } from '../cache/resource-cache';
import type { EventEntry } from './entries';
import { eventFingerprint } from './entries';

export type FeedChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change the event cache applied, numbered in the feed. */
export interface FeedChange {
  readonly seq: number;
  readonly type: FeedChangeType;
  /** The record now (ADDED, MODIFIED) or as it was last (DELETED). */
  readonly entry: EventEntry;
  /** MODIFIED: the record before, so a filtered reader can tell an event that entered or left it. */
  readonly previous?: EventEntry;
}

/** Told of each change once it is numbered; also of a gap, after which nothing before resumes. */
export interface FeedListener {
  change(change: FeedChange): void;
  /** The cache stopped: the feed cannot vouch for what follows; readers end. */
  gap(): void;
}

export interface EventFeedOptions {
  /** Changes kept for Last-Event-ID resume; older ids get a reset. */
  capacity: number;
  /** The clock in milliseconds; the random offset is added to it all the same. */
  now?: () => number;
  /** Tests only: the first id, fixed, instead of the clock plus a random offset. */
  start?: number;
}

export const DEFAULT_FEED_CAPACITY = 10_000;

/** The first ids' random offsets are drawn from [0, FEED_OFFSET_SPACE). */
export const FEED_OFFSET_SPACE = 4e15;
/** randomInt spans at most 2^48 - 1, so the offset is drawn as two parts: high and low. */
const LOW_SPACE = 1e8;

/** A feed's first id: the clock in microseconds plus a random offset (why: the opening comment). */
export function firstFeedId(nowMs: number): number {
  const offset = randomInt(0, FEED_OFFSET_SPACE / LOW_SPACE) * LOW_SPACE + randomInt(0, LOW_SPACE);
  return Math.floor(nowMs * 1000) + offset;
}

/**
 * The change feed of one cluster's event cache, for the event watch. Every change gets the next
 * sequence number; the last `capacity` changes are kept in a ring so a client that lost its
 * connection resumes after the last id it saw, with no duplicates and no gaps.
 *
 * Numbers start at the clock in microseconds plus a random offset when the feed is made, so every
 * feed, on any replica and after any restart, numbers in a range of its own: an id of another feed
 * lies outside this one's ring and gets a reset, never a wrong resume. The cache's first list is the state, not a change: it is not
 * numbered. A relist after a broken watch is applied as its differences by the cache, so it
 * arrives here as the ADDED, MODIFIED and DELETED it amounts to. When the cache stops (nobody used
 * it for its idle time), the feed skips a number and forgets its ring: whatever happened while
 * nothing watched cannot be resumed across.
 */
export class EventFeed {
  private readonly ring: Array<FeedChange | undefined>;
  private start = 0;
  private count = 0;
  private headSeq: number;
  /** Resume is possible from any id in [floor, head]. */
  private floor: number;
  private live = false;
  private readonly listeners = new Set<FeedListener>();

  constructor(opts: EventFeedOptions) {
    this.ring = new Array<FeedChange | undefined>(Math.max(1, opts.capacity));
    this.headSeq = opts.start ?? firstFeedId((opts.now ?? Date.now)());
    this.floor = this.headSeq;
  }

  /** The id of the latest change (where a reader that has the current state stands). */
  get head(): number {
    return this.headSeq;
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Registers a listener; returns the function that removes it. */
  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The changes after `seq`, oldest first; undefined when `seq` cannot be resumed from. */
  since(seq: number): FeedChange[] | undefined {
    if (!Number.isSafeInteger(seq) || seq < this.floor || seq > this.headSeq) return undefined;
    const out: FeedChange[] = [];
    // Changes are numbered consecutively, so the one after `seq` sits at a known place in the ring.
    const skip = this.count - (this.headSeq - seq);
    for (let i = Math.max(0, skip); i < this.count; i++) out.push(this.at(i));
    return out;
  }

  /** The hooks the event cache calls (combined with the history's in cluster.ts). */
  observer(): CacheObserver<EventEntry> {
    return {
      upserted: (entry, previous) => {
        if (!this.live) return;
        if (previous === undefined) this.push('ADDED', entry);
        else if (eventFingerprint(previous) !== eventFingerprint(entry))
          this.push('MODIFIED', entry, previous);
      },
      removed: (_key, previous) => {
        if (this.live && previous !== undefined) this.push('DELETED', previous);
      },
      listed: () => {
        this.live = true;
      },
      stopped: () => {
        this.live = false;
        this.headSeq += 1;
        this.floor = this.headSeq;
        this.ring.fill(undefined);
        this.start = 0;
        this.count = 0;
        for (const l of [...this.listeners]) l.gap();
      },
    };
  }

  private at(i: number): FeedChange {
    return this.ring[(this.start + i) % this.ring.length]!;
  }

  private push(type: FeedChangeType, entry: EventEntry, previous?: EventEntry): void {
    const change: FeedChange = { seq: ++this.headSeq, type, entry, ...(previous ? { previous } : {}) };
    const capacity = this.ring.length;
    if (this.count < capacity) {
      this.ring[(this.start + this.count) % capacity] = change;
      this.count++;
    } else {
      this.ring[this.start] = change;
      this.start = (this.start + 1) % capacity;
      // The oldest change is gone: a reader standing before it can no longer resume.
      this.floor = this.at(0).seq - 1;
    }
    for (const l of this.listeners) l.change(change);
  }
}

/** Both observers, in order: the history's first (it must see a change before anyone reads it). */
export function bothObservers<E>(a: CacheObserver<E> | undefined, b: CacheObserver<E>): CacheObserver<E> {
  if (!a) return b;
  return {
    upserted: (entry, previous) => {
      a.upserted(entry, previous);
      b.upserted(entry, previous);
    },
    removed: (key, previous) => {
      a.removed(key, previous);
      b.removed(key, previous);
    },
    listed: (entries) => {
      a.listed(entries);
      b.listed(entries);
    },
    stopped: () => {
      a.stopped();
      b.stopped();
    },
  };
}
