/** Shapes of the event history's aggregate reads: the timeline and the groups. */

import type { EventRecord } from './models';

/** One time bucket of the timeline: how many events had their lastTimestamp in it, by type. */
export interface EventTimelineBucket {
  /** ISO 8601 UTC start of the bucket (inclusive); the bucket ends where the next one starts. */
  start: string;
  normal: number;
  warning: number;
}

export interface EventTimeline {
  /** The range the buckets cover, ISO 8601 UTC: `since` (or the oldest event) to `until` (or now). */
  from: string;
  until: string;
  bucketMs: number;
  buckets: EventTimelineBucket[];
}

/** Events of one object with one reason, summed: the grouped view of the events list. */
export interface EventGroup {
  involvedObject: EventRecord['involvedObject'];
  reason: string;
  type: EventRecord['type'];
  /** Sum of the events' counts (occurrences). */
  count: number;
  /** How many event records the group holds. */
  events: number;
  firstTimestamp: string;
  lastTimestamp: string;
  /** The latest event's message. */
  message: string;
}
