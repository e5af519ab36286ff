/**
 * The event feed's rules, called directly: numbering, the resume ring and its floor, the gap a
 * stopped cache leaves, feeds whose ids never resume on one another (replicas, restarts), and the
 * order in which both observers hear a change.
 */
import { describe, expect, it } from 'vitest';
import type { CacheObserver } from '../cache/resource-cache';
import type { EventEntry } from './entries';
import { bothObservers, EventFeed, FEED_OFFSET_SPACE, type FeedChange, firstFeedId } from './feed';

const entry = (key: string, message = ''): EventEntry =>
  ({ key, eventId: key, lastMs: 0, message, type: 'WARNING' }) as unknown as EventEntry;

function feedOf(capacity: number) {
  const feed = new EventFeed({ capacity, start: 1_000 });
  const obs = feed.observer();
  obs.listed([]);
  return { feed, obs };
}

describe('EventFeed', () => {
  it('numbers changes consecutively and resumes after any id it still keeps', () => {
    const { feed, obs } = feedOf(3);
    const start = feed.head;
    obs.upserted(entry('a'));
    obs.upserted(entry('a', 'x'), entry('a'));
    obs.removed('a', entry('a', 'x'));
    expect(feed.since(start)?.map((c) => [c.seq - start, c.type])).toEqual([
      [1, 'ADDED'],
      [2, 'MODIFIED'],
      [3, 'DELETED'],
    ]);
    expect(feed.since(start + 2)?.map((c) => c.type)).toEqual(['DELETED']);
    expect(feed.since(feed.head)).toEqual([]);
  });

  it('an id older than the ring, or ahead of the feed, cannot be resumed', () => {
    const { feed, obs } = feedOf(2);
    const start = feed.head;
    for (const k of ['a', 'b', 'c']) obs.upserted(entry(k));
    expect(feed.since(start)).toBeUndefined();
    expect(feed.since(start + 1)?.map((c) => c.entry.key)).toEqual(['b', 'c']);
    expect(feed.since(feed.head + 1)).toBeUndefined();
  });

  it('a modification that changes nothing the record shows is no change', () => {
    const { feed, obs } = feedOf(4);
    const start = feed.head;
    obs.upserted(entry('a', 'same'), entry('a', 'same'));
    expect(feed.since(start)).toEqual([]);
  });

  it('ignores the first list, and after the cache stopped nothing before resumes', () => {
    const feed = new EventFeed({ capacity: 4, now: () => 1 });
    const obs = feed.observer();
    const start = feed.head;
    obs.upserted(entry('listed'));
    obs.listed([]);
    expect(feed.since(start)).toEqual([]);
    obs.upserted(entry('b'));
    const gaps: number[] = [];
    feed.subscribe({ change() {}, gap: () => gaps.push(1) });
    obs.stopped();
    expect(gaps).toEqual([1]);
    expect(feed.since(start)).toBeUndefined();
    expect(feed.since(feed.head)).toEqual([]);
  });

  it('starts at a given start, else at the clock in microseconds plus a random offset under 4e15', () => {
    expect(new EventFeed({ capacity: 4, start: 42 }).head).toBe(42);
    const nowMs = 1_700_000_000_000;
    const offsets = Array.from(
      { length: 200 },
      () => new EventFeed({ capacity: 4, now: () => nowMs }).head - nowMs * 1000,
    );
    for (const o of offsets) {
      expect(Number.isSafeInteger(o)).toBe(true);
      expect(o).toBeGreaterThanOrEqual(0);
      expect(o).toBeLessThan(FEED_OFFSET_SPACE);
    }
    expect(new Set(offsets).size).toBe(offsets.length);
    // Spread over the whole space, in its high and its low digits (each fails with odds 2^-200 or less).
    expect(offsets.some((o) => o < FEED_OFFSET_SPACE / 2)).toBe(true);
    expect(offsets.some((o) => o >= FEED_OFFSET_SPACE / 2)).toBe(true);
    expect(new Set(offsets.map((o) => o % 1e8)).size).toBeGreaterThan(1);
    // A clock with a fraction of a microsecond still gives a whole id.
    expect(Number.isSafeInteger(firstFeedId(1_700_000_000_000.0005))).toBe(true);
  });

  it("an id of one replica's feed is never resumed on another's, even for feeds made in the same millisecond", () => {
    // Two replicas (or a restart) whose feeds start on the same clock reading: each numbers changes,
    // then a client holding any id of one reconnects to the other, which must answer RESET.
    const replicas = (make: () => EventFeed) => {
      const feeds = [make(), make()];
      const ids = feeds.map((feed) => {
        const obs = feed.observer();
        obs.listed([]);
        const ids = [feed.head];
        for (let i = 0; i < 5; i++) {
          obs.upserted(entry(`e${i}`));
          ids.push(feed.head);
        }
        return ids;
      });
      expect(feeds[0]!.since(ids[0]![0]!)).toHaveLength(5);
      expect(ids[0]!.filter((id) => feeds[1]!.since(id) !== undefined)).toEqual([]);
      expect(ids[1]!.filter((id) => feeds[0]!.since(id) !== undefined)).toEqual([]);
    };
    for (let i = 0; i < 50; i++) {
      replicas(() => new EventFeed({ capacity: 16, now: () => 1_795_000_000_000 }));
      replicas(() => new EventFeed({ capacity: 16 }));
    }
  });

  it('keeps ids safe integers with room to spare, in the year 2100 at the largest offset', () => {
    const in2100 = Date.UTC(2100, 0, 1);
    for (let i = 0; i < 200; i++) {
      const feed = new EventFeed({ capacity: 4, now: () => in2100 });
      const obs = feed.observer();
      obs.listed([]);
      obs.upserted(entry('a'));
      expect(Number.isSafeInteger(feed.head)).toBe(true);
    }
    const largest = in2100 * 1000 + FEED_OFFSET_SPACE - 1;
    expect(Number.isSafeInteger(largest + 9e14)).toBe(true);
  });

  it('tells each listener every numbered change, a modification with the record before, until it unsubscribes', () => {
    const { feed, obs } = feedOf(4);
    const seen: FeedChange[] = [];
    const unsubscribe = feed.subscribe({ change: (c) => seen.push(c), gap() {} });
    expect(feed.listenerCount).toBe(1);
    obs.upserted(entry('a'));
    obs.upserted(entry('a', 'x'), entry('a'));
    expect(seen.map((c) => [c.seq, c.type])).toEqual([
      [feed.head - 1, 'ADDED'],
      [feed.head, 'MODIFIED'],
    ]);
    expect(seen[0]!.previous).toBeUndefined();
    expect(seen[1]!.previous).toEqual(entry('a'));
    expect(feed.since(feed.head - 1)?.[0]?.previous).toEqual(entry('a'));
    unsubscribe();
    expect(feed.listenerCount).toBe(0);
    obs.upserted(entry('b'));
    expect(seen).toHaveLength(2);
  });

  it('numbers no removal before the first list, nor one of a record it never held', () => {
    const feed = new EventFeed({ capacity: 4, now: () => 1 });
    const obs = feed.observer();
    const start = feed.head;
    obs.removed('early', entry('early'));
    obs.listed([]);
    obs.removed('unknown');
    expect(feed.since(start)).toEqual([]);
    expect(feed.head).toBe(start);
  });

  it('after the cache stopped, numbers nothing until its next first list', () => {
    const { feed, obs } = feedOf(4);
    obs.stopped();
    const afterGap = feed.head;
    obs.upserted(entry('while-stopped'));
    obs.removed('gone', entry('gone'));
    expect(feed.head).toBe(afterGap);
    obs.listed([]);
    obs.upserted(entry('relisted'));
    expect(feed.since(afterGap)?.map((c) => c.entry.key)).toEqual(['relisted']);
  });
});

describe('bothObservers', () => {
  function recorder(name: string, log: string[]): CacheObserver<EventEntry> {
    return {
      upserted: (e, previous) => log.push(`${name} upserted ${e.key} ${previous?.key ?? '-'}`),
      removed: (key, previous) => log.push(`${name} removed ${key} ${previous?.key ?? '-'}`),
      listed: (entries) => log.push(`${name} listed ${entries.length}`),
      stopped: () => log.push(`${name} stopped`),
    };
  }

  it('is the second observer alone when there is no first', () => {
    const b = recorder('b', []);
    expect(bothObservers(undefined, b)).toBe(b);
  });

  it('tells the first observer of every hook before the second, with the same arguments', () => {
    const log: string[] = [];
    const both = bothObservers(recorder('a', log), recorder('b', log));
    both.listed([entry('x'), entry('y')]);
    both.upserted(entry('x', 'm'), entry('x'));
    both.removed('y', entry('y'));
    both.stopped();
    expect(log).toEqual([
      'a listed 2',
      'b listed 2',
      'a upserted x x',
      'b upserted x x',
      'a removed y y',
      'b removed y y',
      'a stopped',
      'b stopped',
    ]);
  });
});
