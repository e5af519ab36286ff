/**
 * The timeline's range and buckets and the groups, as the live list and the history both compute
 * them: pure functions, called directly.
 */
import { describe, expect, it } from 'vitest';
import {
  addToTimeline,
  bucketOf,
  emptyTimeline,
  liveGroups,
  liveTimeline,
  rangeOf,
  timelineRange,
  toEventGroup,
} from './aggregate';
import { DAY, entry, iso, MIN, SEC, T0, webGroup } from './history.test-support';

describe('timeline range', () => {
  it('splits the range into at most the buckets asked for, each a whole number of seconds', () => {
    expect(timelineRange(T0, T0 + 60 * SEC, 60)).toEqual({
      from: T0,
      until: T0 + 60 * SEC,
      bucketMs: SEC,
      count: 60,
    });
    // 61 s in 60 buckets: 1,017 ms each, rounded up to 2 s: 31 buckets.
    expect(timelineRange(T0, T0 + 61 * SEC, 60)).toMatchObject({ bucketMs: 2 * SEC, count: 31 });
    expect(timelineRange(T0, T0 + 120 * SEC, 60)).toMatchObject({ bucketMs: 2 * SEC, count: 60 });
    expect(timelineRange(T0, T0 + 120 * SEC + 1, 60)).toMatchObject({ bucketMs: 3 * SEC, count: 41 });
    expect(timelineRange(T0, T0 + DAY, 24)).toMatchObject({ bucketMs: 3_600_000, count: 24 });
  });

  it('a bucket is never shorter than a second', () => {
    expect(timelineRange(T0, T0 + 500, 10)).toEqual({ from: T0, until: T0 + 500, bucketMs: SEC, count: 1 });
    expect(timelineRange(T0, T0 + 2_500, 100)).toMatchObject({ bucketMs: SEC, count: 3 });
  });

  it('an empty range, or one that ends before it starts, is one bucket of a second', () => {
    expect(timelineRange(T0, T0, 60)).toEqual({ from: T0, until: T0, bucketMs: SEC, count: 1 });
    expect(timelineRange(T0, T0 - MIN, 60)).toEqual({ from: T0, until: T0, bucketMs: SEC, count: 1 });
  });
});

describe('buckets of instants', () => {
  const range = timelineRange(T0, T0 + 60 * SEC, 60);

  it('a bucket holds its start, and the instant before the next start', () => {
    expect(bucketOf(range, T0)).toBe(0);
    expect(bucketOf(range, T0 + SEC - 1)).toBe(0);
    expect(bucketOf(range, T0 + SEC)).toBe(1);
    expect(bucketOf(range, T0 + 30 * SEC + 500)).toBe(30);
  });

  it("the range's end belongs to the last bucket, and instants outside the range to the nearest", () => {
    expect(bucketOf(range, T0 + 60 * SEC)).toBe(59);
    expect(bucketOf(range, T0 + DAY)).toBe(59);
    expect(bucketOf(range, T0 - 1)).toBe(0);
  });

  it('an empty timeline has a zero bucket at every bucket start of the range', () => {
    const r = timelineRange(T0, T0 + 5 * SEC + 1, 3);
    expect(emptyTimeline(r)).toEqual({
      from: iso(T0),
      until: iso(T0 + 5 * SEC + 1),
      bucketMs: 2 * SEC,
      buckets: [0, 2, 4].map((s) => ({ start: iso(T0 + s * SEC), normal: 0, warning: 0 })),
    });
  });

  it('counts add to their type, and a bucket outside the range counts in the nearest one', () => {
    const r = timelineRange(T0, T0 + 3 * SEC, 3);
    const t = emptyTimeline(r);
    addToTimeline(t, r, 1, 'WARNING', 4);
    addToTimeline(t, r, 1, 'NORMAL', 2);
    addToTimeline(t, r, 1, 'WARNING', 1);
    addToTimeline(t, r, 7, 'NORMAL', 5);
    addToTimeline(t, r, -1, 'WARNING', 3);
    expect(t.buckets.map((b) => [b.normal, b.warning])).toEqual([
      [0, 3],
      [2, 5],
      [5, 0],
    ]);
  });
});

describe('the range of a timeline', () => {
  it('runs from since to until when both are given', () => {
    expect(rangeOf({ sinceMs: T0, untilMs: T0 + MIN, now: T0 + DAY }, T0 - DAY, T0 + 2 * DAY)).toEqual([
      T0,
      T0 + MIN,
    ]);
  });

  it('runs from the oldest matching event to now otherwise', () => {
    expect(rangeOf({ now: T0 + MIN }, T0 - DAY, T0)).toEqual([T0 - DAY, T0 + MIN]);
    expect(rangeOf({ now: T0 + MIN, sinceMs: T0 - 5 * MIN }, T0 - DAY, T0)).toEqual([T0 - 5 * MIN, T0 + MIN]);
  });

  it('ends at the newest event when the cluster runs ahead of our clock', () => {
    expect(rangeOf({ now: T0 }, T0 - MIN, T0 + 5 * MIN)).toEqual([T0 - MIN, T0 + 5 * MIN]);
  });

  it('is the instant now when nothing matches', () => {
    expect(rangeOf({ now: T0 }, undefined, undefined)).toEqual([T0, T0]);
  });

  it('never starts after its end', () => {
    expect(rangeOf({ now: T0 + DAY, untilMs: T0 }, T0 + MIN, T0 + 2 * MIN)).toEqual([T0, T0]);
  });
});

describe('the live timeline', () => {
  it('counts each event by type in the bucket of its lastTimestamp, from the oldest to now', () => {
    const rows = [
      entry('e', T0 + 4 * SEC + 999, { type: 'WARNING' }),
      entry('d', T0 + 2 * SEC),
      entry('c', T0 + 2 * SEC, { type: 'WARNING' }),
      entry('b', T0 + 1),
      entry('a', T0),
    ];
    const t = liveTimeline(rows, { now: T0 + 6 * SEC }, 60);
    expect([t.from, t.until, t.bucketMs]).toEqual([iso(T0), iso(T0 + 6 * SEC), SEC]);
    expect(t.buckets.map((b) => [b.normal, b.warning])).toEqual([
      [2, 0],
      [0, 0],
      [1, 1],
      [0, 0],
      [0, 1],
      [0, 0],
    ]);
  });

  it('is one empty bucket at now when there are no events', () => {
    expect(liveTimeline([], { now: T0 }, 60)).toEqual({
      from: iso(T0),
      until: iso(T0),
      bucketMs: SEC,
      buckets: [{ start: iso(T0), normal: 0, warning: 0 }],
    });
  });
});

describe('live groups', () => {
  it('a group is the events of one object, reason and type: counts summed, its earliest start, its latest message', () => {
    // The list's order: newest first.
    const rows = [
      entry('w3', T0 + 3 * MIN, { count: 2, message: 'latest' }),
      entry('other-type', T0 + 2 * MIN, { type: 'WARNING' }),
      entry('w2', T0 + 2 * MIN, { firstTimestamp: iso(T0 - DAY) }),
      entry('w1', T0 + MIN, { firstTimestamp: iso(T0 - 2 * DAY), count: 5 }),
      entry('w0', T0, { firstTimestamp: iso(T0 - DAY) }),
    ];
    const [web, warning] = liveGroups(rows);
    expect(web).toMatchObject(
      webGroup({ count: 9, events: 4, firstMs: T0 - 2 * DAY, lastMs: T0 + 3 * MIN, message: 'latest' }),
    );
    expect(warning).toMatchObject({ type: 'WARNING', count: 1, events: 1, firstMs: T0 + 2 * MIN });
  });

  it('an event whose firstTimestamp cannot be read starts at its lastTimestamp', () => {
    const [g] = liveGroups([entry('b', T0 + MIN), entry('a', T0, { firstTimestamp: 'garbled' })]);
    expect(g).toMatchObject({ firstMs: T0, firstTimestamp: 'garbled', events: 2 });
  });

  it('groups come newest first, then by kind, namespace, name, uid, reason and type', () => {
    const tied = T0 + MIN;
    const rows = [
      entry('newest', T0 + DAY, { name: 'zzz' }),
      entry('type', tied, { type: 'WARNING' }),
      entry('reason', tied, { reason: 'Pulled' }),
      entry('uid', tied, { resourceId: 'uid-web-2' }),
      entry('plain', tied),
      entry('name', tied, { name: 'api' }),
      entry('namespace', tied, { namespace: 'ops' }),
      entry('kind', tied, { kind: 'Job' }),
      entry('oldest', T0, { kind: 'Deployment' }),
    ];
    const keys = liveGroups(rows).map((g) =>
      [g.kind, g.namespace, g.name, g.resourceId, g.reason, g.type].join(' '),
    );
    expect(keys).toEqual([
      'Pod shop zzz uid-web Started NORMAL',
      'Job shop web uid-web Started NORMAL',
      'Pod ops web uid-web Started NORMAL',
      'Pod shop api uid-web Started NORMAL',
      'Pod shop web uid-web Pulled NORMAL',
      'Pod shop web uid-web Started NORMAL',
      'Pod shop web uid-web Started WARNING',
      'Pod shop web uid-web-2 Started NORMAL',
      'Deployment shop web uid-web Started NORMAL',
    ]);
  });

  it('a group reads as the involved object with its counts and times', () => {
    const [g] = liveGroups([entry('b', T0 + MIN, { count: 2, message: 'm' }), entry('a', T0)]);
    expect(toEventGroup(g!)).toEqual({
      involvedObject: { kind: 'Pod', name: 'web', uid: 'uid-web', namespace: 'shop' },
      reason: 'Started',
      type: 'NORMAL',
      count: 3,
      events: 2,
      firstTimestamp: iso(T0),
      lastTimestamp: iso(T0 + MIN),
      message: 'm',
    });
  });
});
