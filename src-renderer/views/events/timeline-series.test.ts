import { describe, expect, it } from 'vitest';
import { nonEmptyBuckets, timelineSeries } from './timeline-series';

const T0 = Date.parse('2026-03-04T05:00:00.000Z') / 1000;

describe('timelineSeries', () => {
  const timeline = {
    from: '2026-03-04T05:00:00.000Z',
    until: '2026-03-04T05:03:00.000Z',
    bucketMs: 60_000,
    // Out of order on purpose: the chart needs ascending x.
    buckets: [
      { start: '2026-03-04T05:02:00.000Z', normal: 0, warning: 4 },
      { start: '2026-03-04T05:00:00.000Z', normal: 2, warning: 1 },
      { start: '2026-03-04T05:01:00.000Z', normal: 0, warning: 0 },
    ],
  };

  it('turns buckets into ascending columns in seconds, with stacked totals', () => {
    const s = timelineSeries(timeline);
    expect(s.xs).toEqual([T0, T0 + 60, T0 + 120]);
    expect(s.normals).toEqual([2, 0, 0]);
    expect(s.warnings).toEqual([1, 0, 4]);
    expect(s.totals).toEqual([3, 0, 4]);
    expect(s.bucketSec).toBe(60);
    expect([s.totalNormal, s.totalWarning]).toEqual([2, 5]);
    expect(nonEmptyBuckets(s)).toBe(2);
  });

  it('spans from..until, widened to the last bucket’s end', () => {
    expect(timelineSeries(timeline)).toMatchObject({ fromSec: T0, untilSec: T0 + 180 });
    const short = { ...timeline, until: '2026-03-04T05:02:30.000Z' };
    expect(timelineSeries(short).untilSec).toBe(T0 + 180);
  });

  it('handles a timeline with no buckets', () => {
    const s = timelineSeries({ ...timeline, buckets: [] });
    expect(s.xs).toEqual([]);
    expect([s.fromSec, s.untilSec]).toEqual([T0, T0 + 180]);
    expect(nonEmptyBuckets(s)).toBe(0);
  });
});
