import { z } from 'zod';
import { authOperations } from './auth-operations';
import { changeOperations } from './change-operations';
import { defineOperation } from './define';
import { diagnosisOperations } from './diagnosis-operations';
import { eventHistoryOperations } from './event-history-operations';
import { eventWatchOperations } from './event-watch-operations';
import { eventsQuery } from './events-query';
import { explainOperations } from './explain-operations';
import { guidanceOperations } from './guidance-operations';
import { keptLogOperations } from './kept-log-operations';
import { kindsOperations } from './kinds-operations';
import { logOperations } from './log-operations';
import {
  cluster as clusterRecord,
  eventRecord,
  resourceWrapper,
  workspace as workspaceRecord,
} from './models';
import { oidcOperations } from './oidc-operations';
import {
  anyResourceType,
  booleanParam,
  checkNameForKind,
  idParam,
  labelSelectorParam,
  namespacedResourceType,
  namespaceParam,
  objectNameParam,
  pageQuery,
  snapshotParam,
} from './params';
import { relationsOperations } from './relations-operations';
import { settingsOperations } from './settings-operations';
import { snapshotOperations } from './snapshot-operations';
import { usageOperations } from './usage-operations';

/**
 * Every operation of the service, described once. The HTTP router, the IPC handlers, the preload
 * bridge and the renderer's client are all derived from this table.
 */

const none = z.strictObject({});
const noBody = z.undefined();
const workspace = { workspaceId: idParam('workspaceId') };
const cluster = { ...workspace, clusterId: idParam('clusterId') };
const PROXY = '/v1/workspaces/:workspaceId/observability/:clusterId/kubernetes-proxy';

export const monitoringPatch = z.strictObject({
  clusterAgent: z.strictObject({
    monitoring: z.strictObject({
      resourceEventsEnabled: z.boolean().optional(),
      systemEventsEnabled: z.boolean().optional(),
    }),
  }),
});

export const operations = {
  health: defineOperation({
    method: 'GET',
    path: '/v1/health',
    summary:
      'Liveness of the service; needs no credentials. Names this replica (`replica`) and the clusters whose event history it records (`recording`: it holds their recorder lease).',
    auth: 'public',
    params: none,
    query: none,
    body: noBody,
    result: z.strictObject({
      status: z.literal('ok'),
      version: z.string(),
      replica: z.string().meta({
        description: 'This replica (--replica-id; default host name and process id).',
      }),
      recording: z.array(z.string()).meta({
        description:
          'Cluster ids whose event history this replica records: it holds their recorder lease, one replica per cluster across all replicas sharing the database. Sorted.',
      }),
    }),
    paginated: false,
  }),

  healthReady: defineOperation({
    method: 'GET',
    path: '/v1/health/ready',
    summary:
      'Readiness of the service: 200 when the database is reachable and migrated and the service is not shutting down, else 503 service_not_ready naming each failed check; needs no credentials. Liveness is /v1/health.',
    auth: 'public',
    params: none,
    query: none,
    body: noBody,
    result: z.strictObject({
      status: z.literal('ready'),
      checks: z.array(z.strictObject({ name: z.string(), ok: z.boolean(), reason: z.string().optional() })),
    }),
    paginated: false,
  }),

  listWorkspaces: defineOperation({
    method: 'GET',
    path: '/v1/workspaces',
    summary:
      'Workspaces the caller can see, with their identity-provider member groups: all of them for an administrator, only its own for anyone else.',
    auth: 'credential',
    params: none,
    query: z.strictObject({ ...pageQuery }),
    body: noBody,
    result: z.array(workspaceRecord),
    paginated: true,
  }),

  listClusters: defineOperation({
    method: 'GET',
    path: '/v1/workspaces/:workspaceId/clusters',
    summary: 'Clusters of a workspace with their connection status and monitoring flags.',
    auth: 'credential',
    params: z.strictObject(workspace),
    query: z.strictObject({ ...pageQuery }),
    body: noBody,
    result: z.array(clusterRecord),
    paginated: true,
  }),

  updateCluster: defineOperation({
    method: 'PATCH',
    path: '/v1/workspaces/:workspaceId/clusters/:clusterId',
    summary: 'Change the monitoring flags of a cluster.',
    auth: 'credential',
    params: z.strictObject(cluster),
    query: none,
    body: monitoringPatch,
    result: clusterRecord,
    paginated: false,
  }),

  listResources: defineOperation({
    method: 'GET',
    path: `${PROXY}/:resourceType`,
    summary:
      'Objects of any kind the cluster serves (spec endpoint 1): a namespaced kind across all namespaces, or a cluster-scoped kind.',
    auth: 'credential',
    params: z.strictObject({ ...cluster, resourceType: anyResourceType() }),
    query: z.strictObject({ labelSelector: labelSelectorParam, snapshot: snapshotParam, ...pageQuery }),
    body: noBody,
    result: z.array(resourceWrapper),
    paginated: true,
  }),

  getResource: defineOperation({
    method: 'GET',
    path: `${PROXY}/:resourceType/:resourceName`,
    summary:
      'One object of any kind by name (spec endpoint 2); a namespaced kind is looked up across namespaces (409 when several hold the name).',
    auth: 'credential',
    params: z
      .strictObject({ ...cluster, resourceType: anyResourceType(), resourceName: objectNameParam })
      .superRefine(checkNameForKind),
    query: none,
    body: noBody,
    result: resourceWrapper,
    paginated: false,
  }),

  listNamespacedResources: defineOperation({
    method: 'GET',
    path: `${PROXY}/namespaces/:namespace/:resourceType`,
    summary: 'Objects of any namespaced kind in one namespace (spec endpoint 3).',
    auth: 'credential',
    params: z.strictObject({ ...cluster, namespace: namespaceParam, resourceType: namespacedResourceType() }),
    query: z.strictObject({ labelSelector: labelSelectorParam, snapshot: snapshotParam, ...pageQuery }),
    body: noBody,
    result: z.array(resourceWrapper),
    paginated: true,
  }),

  getNamespacedResource: defineOperation({
    method: 'GET',
    path: `${PROXY}/namespaces/:namespace/:resourceType/:resourceName`,
    summary: 'One object of any namespaced kind (spec endpoint 4); a pod also carries its usage.',
    auth: 'credential',
    params: z
      .strictObject({
        ...cluster,
        namespace: namespaceParam,
        resourceType: namespacedResourceType(),
        resourceName: objectNameParam,
      })
      .superRefine(checkNameForKind),
    query: none,
    body: noBody,
    result: resourceWrapper,
    paginated: false,
  }),

  listEvents: defineOperation({
    method: 'GET',
    path: '/v1/workspaces/:workspaceId/observability/:clusterId/kubernetes-events',
    summary: 'Cluster-wide Kubernetes events, newest first.',
    auth: 'credential',
    params: z.strictObject(cluster),
    // watch=true is the event watch (watchEvents); watch=false is the list, as kubectl has it.
    query: z.strictObject({
      ...eventsQuery,
      watch: booleanParam('watch'),
      snapshot: snapshotParam,
      ...pageQuery,
    }),
    body: noBody,
    result: z.array(eventRecord),
    paginated: true,
  }),

  ...eventWatchOperations,
  ...eventHistoryOperations,
  ...authOperations,
  ...oidcOperations,
  ...logOperations,
  ...settingsOperations,
  ...guidanceOperations,
  ...explainOperations,
  ...snapshotOperations,
  ...kindsOperations,
  ...relationsOperations,
  ...keptLogOperations,
  ...usageOperations,
  ...changeOperations,
  ...diagnosisOperations,
} as const;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export const operationNames = Object.keys(operations) as OperationName[];
