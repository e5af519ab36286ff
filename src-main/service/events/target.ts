/**
 * What an events request is about, resolved once at its edge and passed down: the list, the
 * timeline, the groups and the watch never look their cluster up again, and neither does the
 * history they read (it takes the connection: a snapshot brings its own).
 *
 * Rules: this is the only place the events feature asks the registry anything. The cluster is
 * resolved with the caller's principal (404 for a cluster outside the caller's workspaces, as every
 * cluster read), the monitoring flags read at the same moment, and what the caller may read of it
 * (the registry's ReadAccess, applied by access.ts); only the watch, which outlives
 * requests, reads the flags again as they change.
 */
import type { MonitoringFlags } from '../../../src-shared/contract/models';
import type { ReadAccess } from '../auth/rbac/access';
import type { ClusterConnection } from '../clusters/cluster';
import type { ClusterRegistry } from '../clusters/registry';
import type { Principal } from '../context';

export interface EventsTarget {
  readonly workspaceId: string;
  readonly cluster: ClusterConnection;
  /** The monitoring flags as the request found them. */
  readonly flags: MonitoringFlags;
  /** The flags as they are now: a watch applies a change made while it is open. */
  readonly currentFlags: () => MonitoringFlags;
  /** What the caller may read of the cluster (`--authorize rbac`; open otherwise): events/access.ts. */
  readonly access: ReadAccess;
}

/** The registry as the events feature uses it, and nothing more. */
export type EventsRegistry = Pick<ClusterRegistry, 'cluster' | 'monitoring' | 'access'>;

export function eventsTarget(
  registry: EventsRegistry,
  params: { workspaceId: string; clusterId: string },
  principal: Principal,
): EventsTarget {
  const cluster = registry.cluster(params.workspaceId, params.clusterId, principal);
  const currentFlags = () => registry.monitoring(cluster.clusterId);
  const access = registry.access(cluster, principal);
  return { workspaceId: params.workspaceId, cluster, flags: currentFlags(), currentFlags, access };
}
