import { z } from 'zod';
import { defineOperation, streamBody } from './define';
import { eventsQuery } from './events-query';
import { eventRecord } from './models';
import { booleanParam, idParam } from './params';
import { problem } from './problem';

/**
 * The live event watch: `GET …/kubernetes-events?watch=true`, like `kubectl get events --watch`.
 * It shares the list's path and filters; `watch=true` selects it (see OperationSpec.when), and its
 * answer is a stream of records, not a page. Documented in docs/api.md, "The event watch".
 */

export const SSE = 'text/event-stream';
export const NDJSON_WATCH = 'application/x-ndjson';
/** Media types of the watch; the first is the default when Accept says nothing. */
export const EVENT_WATCH_MEDIA_TYPES = [SSE, NDJSON_WATCH] as const;

const changeId = z.string().regex(/^\d{1,20}$/);

export const eventChangeType = z.enum(['ADDED', 'MODIFIED', 'DELETED']).meta({ id: 'EventChangeType' });
export type EventChangeType = z.infer<typeof eventChangeType>;

/**
 * One changed event. `id` is the change's position in the cluster's change feed (a decimal
 * integer, increasing; the SSE `id`), absent on the records that replay the current state.
 */
export const eventChange = z
  .strictObject({
    type: eventChangeType,
    id: changeId.optional().meta({
      description:
        "The change's position in the cluster's change feed (decimal, increasing; the SSE id); absent on the records that replay the current state.",
    }),
    event: eventRecord,
  })
  .meta({ id: 'EventChange' });
export type EventChange = z.infer<typeof eventChange>;

/** The control records of the watch, each its own strict schema (see eventWatchRecord). */
export const eventWatchSynced = z.strictObject({ type: z.literal('SYNCED'), id: changeId }).meta({
  id: 'EventWatchSynced',
  description: 'The current state has been sent; `id` is where the client now stands.',
});
export const eventWatchReset = z.strictObject({ type: z.literal('RESET'), reason: z.string() }).meta({
  id: 'EventWatchReset',
  description:
    'The Last-Event-ID given can no longer be resumed from: drop what you hold; the current state follows as ADDED, then SYNCED.',
});
export const eventWatchBookmark = z
  .strictObject({ type: z.literal('BOOKMARK'), id: changeId })
  .meta({ id: 'EventWatchBookmark', description: 'No matching change, but the feed moved on to `id`.' });
export const eventWatchHeartbeat = z.strictObject({ type: z.literal('HEARTBEAT') }).meta({
  id: 'EventWatchHeartbeat',
  description: 'NDJSON only; SSE sends a `: heartbeat` comment instead.',
});
export const eventWatchStatus = z
  .strictObject({
    type: z.literal('STATUS'),
    stale: z.boolean(),
    staleSince: z
      .string()
      .optional()
      .meta({ description: 'RFC 3339: when the data last matched the cluster.' }),
    problem: problem.optional().meta({ description: 'Why the watch broke, when known.' }),
  })
  .meta({ id: 'EventWatchStatus', description: "The cluster's watch broke (stale: true) or recovered." });
export const eventWatchError = z.strictObject({ type: z.literal('ERROR'), problem }).meta({
  id: 'EventWatchError',
  description: 'The stream ends; `problem` says why (credential ended, client too slow, shutdown).',
});

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
export const eventWatchRecord = z
  .discriminatedUnion('type', [
    eventChange,
    eventWatchSynced,
    eventWatchReset,
    eventWatchBookmark,
    eventWatchHeartbeat,
    eventWatchStatus,
    eventWatchError,
  ])
  .meta({
    id: 'EventWatchRecord',
    description:
      'One record of the event watch, the same JSON in both framings: a change (ADDED, MODIFIED, DELETED) or a control record (SYNCED, RESET, BOOKMARK, HEARTBEAT, STATUS, ERROR).',
  });
export type EventWatchRecord = z.infer<typeof eventWatchRecord>;

/**
 * The SSE `event:` name of each record type; a change has none, so it is a plain `message` to
 * EventSource. HEARTBEAT is never a record over SSE (a `: heartbeat` comment instead).
 */
export const SSE_EVENT_NAMES = {
  SYNCED: 'synced',
  RESET: 'reset',
  BOOKMARK: 'bookmark',
  STATUS: 'status',
  ERROR: 'error',
} as const satisfies Partial<Record<EventWatchRecord['type'], string>>;

/**
 * The resume point: a change id from this watch (decimal digits). Any other value, not an id at
 * all included, is no error: the watch answers it with RESET and the current state, as it does an
 * id too old to resume from, so an EventSource holding a stale or foreign id recovers on its own.
 */
const lastEventIdParam = z.string().optional();

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
    records: { [SSE]: eventWatchRecord, [NDJSON_WATCH]: eventWatchRecord },
  }),
} as const;
