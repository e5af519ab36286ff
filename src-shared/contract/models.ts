/** Data shapes returned by the operations. Shared by the service, the preload bridge and the renderer. */

export interface Workspace {
  workspaceId: string;
  name: string;
}

/** `snapshot`: a read-only cluster opened from a `.skiff` file; it never connects anywhere. */
export type ClusterStatus = 'connected' | 'unreachable' | 'unauthorized' | 'snapshot';

export interface MonitoringFlags {
  resourceEventsEnabled: boolean;
  systemEventsEnabled: boolean;
}

export interface Cluster {
  clusterId: string;
  workspaceId: string;
  name: string;
  context: string;
  server: string;
  status: ClusterStatus;
  kubernetesVersion?: string;
  /**
   * Present while some cached collection of this cluster is stale (its watch is broken): the RFC
   * 3339 time its data was last known to match the cluster. Absent while everything is live.
   */
  lastSyncedAt?: string;
  /** Snapshots only: the RFC 3339 time the snapshot was taken. */
  takenAt?: string;
  monitoring: { clusterAgent: { monitoring: MonitoringFlags } };
}

/** A Kubernetes object as the apiserver returned it, minus metadata.managedFields. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    creationTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: Array<{ kind: string; name: string; uid: string; controller?: boolean }>;
    [key: string]: unknown;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ResourceUsage {
  /** Kubernetes quantity, as metrics.k8s.io reports it (e.g. "12m"). */
  cpu: string;
  /** Kubernetes quantity (e.g. "48Mi"). */
  memory: string;
}

export interface ResourceWrapper {
  clusterId: string;
  workspaceId: string;
  resource: KubeObject;
  /** Pods only, and only when metrics.k8s.io answered. */
  usage?: ResourceUsage;
}

export type EventType = 'NORMAL' | 'WARNING';

export interface EventRecord {
  workspaceId: string;
  clusterId: string;
  resourceId: string;
  eventId: string;
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
  message: string;
  reason: string;
  type: EventType;
  involvedObject: { kind: string; name: string; uid: string; namespace: string };
  source: { component: string; host: string };
}

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
}
