/**
 * The event feed's rules, called directly: numbering, the resume ring and its floor, the gap a
 * stopped cache leaves, and the order in which both observers hear a change.
 */
import { describe, expect, it } from 'vitest';
import type { CacheObserver } from '../cache/resource-cache';
import type { EventEntry } from './entries';
import { bothObservers, EventFeed, type FeedChange } from './feed';

const entry = (key: string, message = ''): EventEntry =>
  ({ key, eventId: key, lastMs: 0, message, type: 'WARNING' }) as unknown as EventEntry;

function feedOf(capacity: number) {
  const feed = new EventFeed({ capacity, now: () => 1 });
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

  it('numbers from the clock in microseconds, so a later start numbers above an earlier one', () => {
    const earlier = new EventFeed({ capacity: 4, now: () => 1_700_000_000_000 });
    const later = new EventFeed({ capacity: 4, now: () => 1_700_000_000_001 });
    expect(earlier.head).toBe(1_700_000_000_000_000);
    expect(later.head).toBe(1_700_000_000_001_000);
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
