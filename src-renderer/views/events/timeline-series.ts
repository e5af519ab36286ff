import type { EventTimeline } from '../../../src-shared/contract/event-history-models';

/**
 * The timeline's buckets as the chart's columns. uPlot takes x in seconds and one array per
 * series; the bars are stacked by drawing the total (in the warning colour) first and the normals
 * over its lower part, so `totals` is what the warning series plots.
 */
export interface TimelineSeries {
  /** Bucket starts, seconds since the epoch, ascending. */
  xs: number[];
  normals: number[];
  warnings: number[];
  totals: number[];
  /** The x range the chart spans: the timeline's from..until, so empty ends still show. */
  fromSec: number;
  untilSec: number;
  bucketSec: number;
  totalNormal: number;
  totalWarning: number;
}

export function timelineSeries(t: EventTimeline): TimelineSeries {
  // The service answers the buckets in time order; sorting here keeps the chart right if one day it does not.
  const buckets = [...t.buckets].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  const xs = buckets.map((b) => Date.parse(b.start) / 1000);
  const normals = buckets.map((b) => b.normal);
  const warnings = buckets.map((b) => b.warning);
  const bucketSec = t.bucketMs / 1000;
  const fromSec = Date.parse(t.from) / 1000;
  const lastEnd = xs.length > 0 ? xs[xs.length - 1]! + bucketSec : fromSec;
  return {
    xs,
    normals,
    warnings,
    totals: buckets.map((b) => b.normal + b.warning),
    fromSec: Math.min(fromSec, xs[0] ?? fromSec),
    untilSec: Math.max(Date.parse(t.until) / 1000, lastEnd),
    bucketSec,
    totalNormal: normals.reduce((a, b) => a + b, 0),
    totalWarning: warnings.reduce((a, b) => a + b, 0),
  };
}

/** How many bars have something to draw: the chart reports it so a test (and a person) can tell. */
export const nonEmptyBuckets = (s: TimelineSeries): number => s.totals.filter((n) => n > 0).length;
