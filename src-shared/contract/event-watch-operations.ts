import { z } from 'zod';
import { defineOperation, streamBody } from './define';
import { eventsQuery } from './events-query';
import type { EventRecord } from './models';
import { booleanParam, idParam } from './params';
import type { Problem } from './problem';

/**
 * The live event watch: `GET …/kubernetes-events?watch=true`, like `kubectl get events --watch`.
 * It shares the list's path and filters; `watch=true` selects it (see OperationSpec.when), and its
 * answer is a stream of records, not a page. Documented in the README's "Event watch" section.
 */

export const SSE = 'text/event-stream';
export const NDJSON_WATCH = 'application/x-ndjson';
/** Media types of the watch; the first is the default when Accept says nothing. */
export const EVENT_WATCH_MEDIA_TYPES = [SSE, NDJSON_WATCH] as const;

export type EventChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/**
 * One changed event. `id` is the change's position in the cluster's change feed (a decimal
 * integer, increasing; the SSE `id`), absent on the records that replay the current state.
 */
export interface EventChange {
  type: EventChangeType;
  id?: string;
  event: EventRecord;
}

/**
 * Everything the watch sends, the same JSON in both framings (SSE `data:`, or one NDJSON line).
 * - SYNCED: the current state has been sent (after the replay, or at once on a resume); `id` is
 *   where the client now stands.
 * - RESET: the Last-Event-ID given can no longer be resumed from (too old, or from another run):
 *   drop what you hold; the current state follows as ADDED, then SYNCED.
 * - BOOKMARK: no matching change, but the feed moved on to `id` (so a resume stays cheap).
 * - HEARTBEAT: NDJSON only (SSE sends a `: heartbeat` comment).
 * - STATUS: the cluster's watch broke (`stale: true`, with since when and why) or recovered.
 * - ERROR: the stream ends; `problem` says why (credential ended, client too slow, shutdown).
 */
export type EventWatchRecord =
  | EventChange
  | { type: 'SYNCED'; id: string }
  | { type: 'RESET'; reason: string }
  | { type: 'BOOKMARK'; id: string }
  | { type: 'HEARTBEAT' }
  | { type: 'STATUS'; stale: boolean; staleSince?: string; problem?: Problem }
  | { type: 'ERROR'; problem: Problem };

/** The resume point: a change id from this watch (decimal digits). */
const lastEventIdParam = z
  .string()
  .regex(/^\d{1,20}$/, 'lastEventId (or the Last-Event-ID header) must be an id this watch sent')
  .optional();

export const eventWatchQuery = z.strictObject({
  ...eventsQuery,
  watch: z.literal('true'),
  /** Resume after this change; HTTP also takes it from the Last-Event-ID header, which wins. */
  lastEventId: lastEventIdParam,
  /** false: start at the current end of the feed, without replaying the current state first. */
  sendInitialEvents: booleanParam('sendInitialEvents'),
});

export type EventWatchQueryInput = z.input<typeof eventWatchQuery>;

export const eventWatchOperations = {
  watchEvents: defineOperation({
    method: 'GET',
    path: '/v1/workspaces/:workspaceId/observability/:clusterId/kubernetes-events',
    when: { query: 'watch', equals: 'true' },
    headerQuery: { 'last-event-id': 'lastEventId' },
    summary:
      'Live changes of the cluster events (watch=true): text/event-stream or application/x-ndjson records {type, id, event}, with heartbeats and Last-Event-ID resume.',
    auth: 'credential',
    params: z.strictObject({ workspaceId: idParam('workspaceId'), clusterId: idParam('clusterId') }),
    query: eventWatchQuery,
    body: z.undefined(),
    result: streamBody(),
    paginated: false,
    streaming: true,
    produces: EVENT_WATCH_MEDIA_TYPES,
  }),
} as const;
