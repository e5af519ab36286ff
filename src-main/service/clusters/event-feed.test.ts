import { describe, expect, it } from 'vitest';
import type { EventEntry } from './entries';
import { EventFeed } from './event-feed';

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
});
