import { z } from 'zod';
import { defineOperation, streamBody } from './define';
import {
  EVENT_WATCH_MEDIA_TYPES,
  eventWatchBookmark,
  eventWatchError,
  eventWatchHeartbeat,
  eventWatchReset,
  eventWatchStatus,
  eventWatchSynced,
  NDJSON_WATCH,
  SSE,
} from './event-watch-operations';
import { sinceParam, untilParam } from './events-query';
import { kubeObject } from './models';
import {
  anyResourceType,
  booleanParam,
  checkNameForKind,
  documented,
  idParam,
  namespacedResourceType,
  namespaceParam,
  objectNameParam,
  pageQuery,
} from './params';
import { DURATION_RANGE, durationRefusal, INSTANT_RANGE, instantRefusal, unlessRefused } from './time-range';

/**
 * What Skiff recorded of a cluster's objects (issue 27, docs/api.md "Change history"): an object's
 * history (`…/history/…`), the object as it was at an instant (`…/history/…?at=TIME`, the same
 * path, selected by `at` as the event watch is by `watch=true`), the cluster-wide feed of changes
 * (`…/changes`) and its watch (`…/changes?watch=true`, the event watch's framing and records).
 * Rules: the item shapes are what the issue names, exactly (`time`, `change`, `resourceVersion`,
 * `patch`, `summary`; the feed adds `ref` and `id`); no Secret value is ever in a patch or a summary
 * (the recorder keeps only keys and sizes); time parameters are the events' (time-range.ts).
 */

const cluster = { workspaceId: idParam('workspaceId'), clusterId: idParam('clusterId') };
const BASE = '/v1/workspaces/:workspaceId/observability/:clusterId';

export const changeType = z.enum(['created', 'updated', 'deleted']).meta({
  id: 'ChangeType',
  description:
    '`created`: the object appeared while it was recorded; `updated`: it changed; `deleted`: it was removed (its last version is kept). An object already there when recording began has no `created`.',
});
export type ChangeType = z.infer<typeof changeType>;

export const jsonPatchOperation = z
  .looseObject({
    op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
    path: z.string().meta({ description: 'An RFC 6901 JSON Pointer; `""` is the whole object.' }),
    value: z.unknown().optional(),
    from: z.string().optional(),
  })
  .meta({ id: 'JsonPatchOperation', description: 'One RFC 6902 JSON Patch operation.' });
export type JsonPatchOperation = z.infer<typeof jsonPatchOperation>;

const changeFields = {
  time: z.string().meta({ description: 'RFC 3339, UTC: when Skiff saw the change.' }),
  change: changeType,
  resourceVersion: z.string().meta({ description: "The object's resourceVersion after the change." }),
  patch: z.array(jsonPatchOperation).meta({
    description:
      'RFC 6902 JSON Patch from the previous recorded version to this one, without metadata.managedFields and metadata.resourceVersion. `created`: one `add` of the whole object at the root (`""`). `deleted`: what changed since the previous version (often nothing). A Secret carries no values: only its `keys` (name and size).',
  }),
  summary: z.string().meta({
    description:
      'Short and human: `image app: 1.4.1 → 1.4.2`, `replicas 3 → 5`, `data changed: key1, key2`, `condition Ready True → False`, `created`, `deleted`, else the changed paths.',
  }),
};

/** One change of one object, newest first in its history. */
export const objectChange = z.strictObject(changeFields).meta({ id: 'ObjectChange' });
export type ObjectChange = z.infer<typeof objectChange>;

export const changeRef = z
  .strictObject({
    kind: z.string().meta({ description: 'The Kind, e.g. Deployment.' }),
    resourceType: z.string().meta({
      description:
        'The kind as `GET …/kinds` and the paths name it: `deployment`, `certificate.cert-manager.io`.',
    }),
    namespace: z.string().optional().meta({ description: 'Absent for a cluster-scoped kind.' }),
    name: z.string(),
    uid: z.string(),
  })
  .meta({ id: 'ChangeRef', description: 'The object a change is of.' });
export type ChangeRef = z.infer<typeof changeRef>;

const feedId = z.string().regex(/^\d{1,20}$/);

/** One change in the cluster-wide feed: an object change, which object, and its place in the feed. */
export const clusterChange = z
  .strictObject({
    id: feedId.meta({
      description:
        "The change's position in the cluster's feed (decimal, increasing): the watch's SSE id, and what `lastEventId` resumes after.",
    }),
    ref: changeRef,
    ...changeFields,
  })
  .meta({ id: 'ClusterChange' });
export type ClusterChange = z.infer<typeof clusterChange>;

/** `at`: an instant, or a duration back from now (from a snapshot's takenAt), as `since` takes it. */
const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
export const atParam = documented(
  z.string().transform((raw, ctx): { instant: number } | { durationMs: number } => {
    const d = DURATION.exec(raw);
    if (d) {
      const durationMs = Number(d[1]) * UNIT_MS[d[2] as keyof typeof UNIT_MS];
      return unlessRefused(ctx, durationRefusal('at', durationMs), { durationMs });
    }
    const isoLike = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;
    const t = Date.parse(raw);
    if (!isoLike.test(raw) || Number.isNaN(t)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'at must be an ISO 8601 instant (2026-01-31T12:00:00Z) or a duration such as 30s, 15m, 2h, 7d',
      });
      return z.NEVER;
    }
    return unlessRefused(ctx, instantRefusal('at', t), { instant: t });
  }),
  {
    type: 'string',
    description: `The instant to rebuild the object at: an ISO 8601 instant ${INSTANT_RANGE}, or a duration back from now (30s, 15m, 2h, 7d) of ${DURATION_RANGE}; on a snapshot cluster, back from its takenAt.`,
    examples: ['2026-01-31T02:09:00Z', '2h'],
  },
);

/** The feed's `kind`: a Kind (`Deployment`) or a resourceType (`deployment`, `certificate.cert-manager.io`). */
const kindFilter = documented(
  z
    .string()
    .regex(
      /^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*$/,
      'kind must be a Kubernetes kind such as Deployment, or a resourceType such as certificate.cert-manager.io',
    )
    .max(317)
    .optional(),
  {
    type: 'string',
    description:
      'Only changes of this kind: a Kind (`Deployment`, any case) or a resourceType (`certificate.cert-manager.io`), resolved against the cluster as the paths’ resourceType is (404 resource_not_found for a kind it does not serve).',
    examples: ['Deployment', 'configmap'],
  },
);

export const changesQuery = {
  namespace: namespaceParam.optional(),
  kind: kindFilter,
  since: sinceParam,
  until: untilParam,
};

const historyQuery = z.strictObject({ since: sinceParam, until: untilParam, ...pageQuery });
const atQuery = z.strictObject({ at: atParam });

const objectParams = z
  .strictObject({ ...cluster, resourceType: anyResourceType(), resourceName: objectNameParam })
  .superRefine(checkNameForKind);
const namespacedObjectParams = z
  .strictObject({
    ...cluster,
    namespace: namespaceParam,
    resourceType: namespacedResourceType(),
    resourceName: objectNameParam,
  })
  .superRefine(checkNameForKind);

/** The resume point of the changes watch; any other text is answered with RESET, as the event watch does. */
export const changeWatchQuery = z.strictObject({
  ...changesQuery,
  watch: z.literal('true'),
  lastEventId: z.string().optional(),
  sendInitialEvents: booleanParam('sendInitialEvents'),
});
export type ChangeWatchQueryInput = z.input<typeof changeWatchQuery>;

/** A new change in the feed: always ADDED (the feed only grows), with its feed id. */
export const changeWatchAdded = z
  .strictObject({ type: z.literal('ADDED'), id: feedId, change: clusterChange })
  .meta({ id: 'ChangeWatchAdded' });

export const changeWatchRecord = z
  .discriminatedUnion('type', [
    changeWatchAdded,
    eventWatchSynced,
    eventWatchReset,
    eventWatchBookmark,
    eventWatchHeartbeat,
    eventWatchStatus,
    eventWatchError,
  ])
  .meta({
    id: 'ChangeWatchRecord',
    description:
      'One record of the changes watch, the same JSON in both framings: a new change (ADDED) or a control record (SYNCED, RESET, BOOKMARK, HEARTBEAT, STATUS, ERROR) as the event watch sends them.',
  });
export type ChangeWatchRecord = z.infer<typeof changeWatchRecord>;

const HISTORY_SUMMARY =
  'The recorded changes of one object, newest first (`since`, `until` by the change’s time; paged like events). A recorded object that no longer exists is still answered; nothing recorded is an empty list.';
const AT_SUMMARY =
  'The object as it was at `at` (at=TIME selects this read on the history path), rebuilt from its recorded versions; 404 resource_not_found when it was not recorded then (before its first recorded version, or deleted).';

export const changeOperations = {
  objectHistory: defineOperation({
    method: 'GET',
    path: `${BASE}/history/:resourceType/:resourceName`,
    summary: `${HISTORY_SUMMARY} A namespaced kind is looked up across namespaces (409 when several hold the name).`,
    auth: 'credential',
    params: objectParams,
    query: historyQuery,
    body: z.undefined(),
    result: z.array(objectChange),
    paginated: true,
  }),
  objectAt: defineOperation({
    method: 'GET',
    path: `${BASE}/history/:resourceType/:resourceName`,
    when: { query: 'at' },
    summary: AT_SUMMARY,
    auth: 'credential',
    params: objectParams,
    query: atQuery,
    body: z.undefined(),
    result: kubeObject,
    paginated: false,
  }),
  namespacedObjectHistory: defineOperation({
    method: 'GET',
    path: `${BASE}/history/namespaces/:namespace/:resourceType/:resourceName`,
    summary: HISTORY_SUMMARY,
    auth: 'credential',
    params: namespacedObjectParams,
    query: historyQuery,
    body: z.undefined(),
    result: z.array(objectChange),
    paginated: true,
  }),
  namespacedObjectAt: defineOperation({
    method: 'GET',
    path: `${BASE}/history/namespaces/:namespace/:resourceType/:resourceName`,
    when: { query: 'at' },
    summary: AT_SUMMARY,
    auth: 'credential',
    params: namespacedObjectParams,
    query: atQuery,
    body: z.undefined(),
    result: kubeObject,
    paginated: false,
  }),
  listChanges: defineOperation({
    method: 'GET',
    path: `${BASE}/changes`,
    summary:
      'The cluster-wide feed of recorded changes, newest first, filtered by `namespace`, `kind`, `since` and `until` and paged like events (watch=true is the changes watch).',
    auth: 'credential',
    params: z.strictObject(cluster),
    query: z.strictObject({ ...changesQuery, watch: booleanParam('watch'), ...pageQuery }),
    body: z.undefined(),
    result: z.array(clusterChange),
    paginated: true,
  }),
  watchChanges: defineOperation({
    method: 'GET',
    path: `${BASE}/changes`,
    when: { query: 'watch', equals: 'true' },
    headerQuery: { 'last-event-id': 'lastEventId' },
    summary:
      'New changes as they are recorded (watch=true): text/event-stream or application/x-ndjson records {type: ADDED, id, change}, with the event watch’s control records, heartbeats and Last-Event-ID resume.',
    auth: 'credential',
    params: z.strictObject(cluster),
    query: changeWatchQuery,
    body: z.undefined(),
    result: streamBody(),
    paginated: false,
    streaming: true,
    produces: EVENT_WATCH_MEDIA_TYPES,
    records: { [SSE]: changeWatchRecord, [NDJSON_WATCH]: changeWatchRecord },
  }),
} as const;
