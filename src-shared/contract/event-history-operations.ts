import { z } from 'zod';
import { defineOperation } from './define';
import { eventGroup, eventTimeline } from './event-history-models';
import { eventsQuery } from './events-query';
import { idParam, pageQuery, wholeNumber } from './params';

/**
 * Aggregate reads of a cluster's events (live, and with includeExpired=true the recorded history
 * too): the timeline chart's buckets and the list grouped by object and reason. They take the
 * same filters as the events list.
 */

const cluster = { workspaceId: idParam('workspaceId'), clusterId: idParam('clusterId') };
const EVENTS = '/v1/workspaces/:workspaceId/observability/:clusterId/kubernetes-events';

export const MAX_TIMELINE_BUCKETS = 500;

export const eventHistoryOperations = {
  eventTimeline: defineOperation({
    method: 'GET',
    path: `${EVENTS}/timeline`,
    summary: 'Warnings and normals per time bucket, by lastTimestamp, over the filtered events.',
    auth: 'credential',
    params: z.strictObject(cluster),
    query: z.strictObject({
      ...eventsQuery,
      buckets: wholeNumber('buckets', 1, MAX_TIMELINE_BUCKETS, 60),
    }),
    body: z.undefined(),
    result: eventTimeline,
    paginated: false,
  }),

  eventGroups: defineOperation({
    method: 'GET',
    path: `${EVENTS}/groups`,
    summary: 'The filtered events grouped by involved object and reason, newest group first.',
    auth: 'credential',
    params: z.strictObject(cluster),
    query: z.strictObject({ ...eventsQuery, ...pageQuery }),
    body: z.undefined(),
    result: z.array(eventGroup),
    paginated: true,
  }),
} as const;
