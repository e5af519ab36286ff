import { z } from 'zod';
import { snapshotGap } from './snapshot-models';

/**
 * Data shapes returned by the operations, as zod schemas with their TypeScript types inferred from
 * them. Shared by the service, the preload bridge and the renderer. Objects are strict: a field the
 * schema does not name fails the test suites' response checks, so the API document (generated from
 * these schemas) and the behaviour cannot drift apart. The service never validates its answers at
 * run time (cost); the tests do. An `id` names the schema in the OpenAPI document's components.
 */

export const workspace = z
  .strictObject({
    workspaceId: z.string(),
    name: z.string(),
    groups: z.array(z.string()).meta({
      description:
        "Identity-provider groups whose members belong to the workspace, as the provider's groups claim names them; re-read at every sign-in and recheck. An administrator's session is answered every one; any other caller (an API key included) only those among its own groups, the ones that make it a member, so a member learns no other team's group names.",
    }),
  })
  .meta({ id: 'Workspace' });
export type Workspace = z.infer<typeof workspace>;

/** `snapshot`: a read-only cluster opened from a `.skiff` file; it never connects anywhere. */
export const clusterStatus = z
  .enum(['connected', 'unreachable', 'unauthorized', 'snapshot'])
  .meta({ id: 'ClusterStatus' });
export type ClusterStatus = z.infer<typeof clusterStatus>;

export const monitoringFlags = z
  .strictObject({ resourceEventsEnabled: z.boolean(), systemEventsEnabled: z.boolean() })
  .meta({ id: 'MonitoringFlags' });
export type MonitoringFlags = z.infer<typeof monitoringFlags>;

export const cluster = z
  .strictObject({
    clusterId: z.string(),
    workspaceId: z.string(),
    name: z.string(),
    context: z.string(),
    server: z.string(),
    status: clusterStatus,
    kubernetesVersion: z.string().optional(),
    lastSyncedAt: z.string().optional().meta({
      description:
        'Present while some cached collection of this cluster is stale (its watch is broken): the RFC 3339 time its data was last known to match the cluster.',
    }),
    takenAt: z
      .string()
      .optional()
      .meta({ description: 'Snapshots only: the RFC 3339 time the snapshot was taken.' }),
    missing: z.array(snapshotGap).optional().meta({
      description:
        'Snapshots only, when the file lacks something: the parts its capture could not take (the first 20; a last `gaps` entry counts the rest), then its event rows that cannot be read and are left out (`events`).',
    }),
    monitoring: z.strictObject({ clusterAgent: z.strictObject({ monitoring: monitoringFlags }) }),
  })
  .meta({ id: 'Cluster' });
export type Cluster = z.infer<typeof cluster>;

const ownerReference = z.looseObject({
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
});

/**
 * A Kubernetes object as the apiserver returned it, minus metadata.managedFields. The one open
 * shape in the contract: its fields are the apiserver's, not ours.
 */
export const kubeObject = z
  .looseObject({
    apiVersion: z.string().optional(),
    kind: z.string().optional(),
    metadata: z.looseObject({
      name: z.string(),
      namespace: z.string().optional(),
      uid: z.string().optional(),
      resourceVersion: z.string().optional(),
      creationTimestamp: z.string().optional(),
      labels: z.record(z.string(), z.string()).optional(),
      annotations: z.record(z.string(), z.string()).optional(),
      ownerReferences: z.array(ownerReference).optional(),
    }),
    spec: z.record(z.string(), z.unknown()).optional(),
    status: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({
    id: 'KubeObject',
    description:
      'The object exactly as the apiserver returned it (its own fields, unknown ones kept), with metadata.managedFields removed and apiVersion/kind filled in. A Secret never carries its values: no `data`, `stringData` or last-applied-configuration annotation, and instead `keys: [{name, bytes}]`, each key with its decoded size in bytes, ordered by name.',
  });
export type KubeObject = z.infer<typeof kubeObject>;

export const resourceUsage = z
  .strictObject({
    cpu: z.string().meta({ description: 'Kubernetes quantity, as metrics.k8s.io reports it (e.g. "12m").' }),
    memory: z.string().meta({ description: 'Kubernetes quantity (e.g. "48Mi").' }),
  })
  .meta({ id: 'ResourceUsage' });
export type ResourceUsage = z.infer<typeof resourceUsage>;

export const resourceWrapper = z
  .strictObject({
    clusterId: z.string(),
    workspaceId: z.string(),
    resource: kubeObject,
    usage: resourceUsage
      .optional()
      .meta({ description: 'Pods only, and only when metrics.k8s.io answered.' }),
  })
  .meta({ id: 'ResourceWrapper' });
export type ResourceWrapper = z.infer<typeof resourceWrapper>;

export const eventType = z.enum(['NORMAL', 'WARNING']).meta({ id: 'EventType' });
export type EventType = z.infer<typeof eventType>;

export const involvedObject = z
  .strictObject({ kind: z.string(), name: z.string(), uid: z.string(), namespace: z.string() })
  .meta({ id: 'InvolvedObject' });

/** The spec's event record: exactly these 12 fields. */
export const eventRecord = z
  .strictObject({
    workspaceId: z.string(),
    clusterId: z.string(),
    resourceId: z.string().meta({ description: 'involvedObject.uid' }),
    eventId: z.string().meta({ description: "The event's uid." }),
    firstTimestamp: z.string(),
    lastTimestamp: z.string(),
    count: z.number().int(),
    message: z.string(),
    reason: z.string(),
    type: eventType,
    involvedObject,
    source: z.strictObject({ component: z.string(), host: z.string() }),
  })
  .meta({ id: 'EventRecord' });
export type EventRecord = z.infer<typeof eventRecord>;

/** Pagination facts that HTTP carries in x-Total/x-Limit/x-Offset and Link; IPC carries them as data. */
export interface PageInfo {
  total: number;
  limit: number;
  offset: number;
  /** Cluster lists: the token pinning the snapshot this page was cut from; pass it back to page on. */
  snapshot?: string;
  /**
   * Events with includeExpired=true: the 0-based positions on this page of the events the cluster
   * no longer has, as ranges (`3,10-12`); absent when there are none. HTTP: `X-Expired-Rows`.
   */
  expiredRows?: string;
  /**
   * The cluster's kinds: the group versions whose discovery could not be read, comma-separated
   * (`metrics.k8s.io/v1beta1`); absent when there are none. HTTP: `x-Discovery-Gaps`.
   */
  discoveryGaps?: string;
}
