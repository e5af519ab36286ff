import { z } from 'zod';
import { eventType, involvedObject } from './models';

/** Shapes of the event history's aggregate reads: the timeline and the groups. */

/** One time bucket of the timeline: how many events had their lastTimestamp in it, by type. */
export const eventTimelineBucket = z
  .strictObject({
    start: z.string().meta({
      description: 'ISO 8601 UTC start of the bucket (inclusive); the bucket ends where the next one starts.',
    }),
    normal: z.number().int(),
    warning: z.number().int(),
  })
  .meta({ id: 'EventTimelineBucket' });
export type EventTimelineBucket = z.infer<typeof eventTimelineBucket>;

export const eventTimeline = z
  .strictObject({
    from: z.string().meta({
      description: 'Start of the range the buckets cover, ISO 8601 UTC: `since`, or the oldest event.',
    }),
    until: z.string().meta({ description: 'End of the range, ISO 8601 UTC: `until`, or now.' }),
    bucketMs: z.number().int(),
    buckets: z.array(eventTimelineBucket),
  })
  .meta({ id: 'EventTimeline' });
export type EventTimeline = z.infer<typeof eventTimeline>;

/** Events of one object with one reason, summed: the grouped view of the events list. */
export const eventGroup = z
  .strictObject({
    involvedObject,
    reason: z.string(),
    type: eventType,
    count: z.number().int().meta({ description: "Sum of the events' counts (occurrences)." }),
    events: z.number().int().meta({ description: 'How many event records the group holds.' }),
    firstTimestamp: z.string(),
    lastTimestamp: z.string(),
    message: z.string().meta({ description: "The latest event's message." }),
  })
  .meta({ id: 'EventGroup' });
export type EventGroup = z.infer<typeof eventGroup>;
