/**
 * Where a read across namespaces may look, under `--authorize rbac` (issue 26 §2): the events, the
 * relations and the snapshot capture ask here which namespaces a principal may read a resource in.
 * Rules:
 * - The answer is ReadAccess.namespaces' (auth/rbac/access.ts): `undefined` means every namespace
 *   (authorization off, a snapshot, or the verb allowed cluster-wide), else the set it allows.
 * - The candidates are the namespaces the cluster has now (its Namespace cache): RBAC grants in a
 *   namespace live in that namespace's RoleBindings, so a namespace that is gone grants nothing
 *   beyond what cluster-wide grants do, and those answer 'all' before any candidate is asked.
 * - Open access asks nothing, not even the Namespace cache: without the flag nothing changes.
 */
import { RESOURCE_KINDS } from '../../../src-shared/kube/kinds';
import type { ClusterConnection } from '../clusters/cluster';
import type { ReadAccess, ResourceAttributes } from './rbac/access';

/** What a cross-namespace read asks of a resource: the attributes without namespace and name. */
export type ScopeAttributes = Omit<ResourceAttributes, 'namespace' | 'name'>;

/** The names of the namespaces the cluster has now, from its Namespace watch cache. */
export async function clusterNamespaces(cluster: ClusterConnection, signal: AbortSignal): Promise<string[]> {
  const cache = cluster.resources(RESOURCE_KINDS.namespace);
  await cache.acquire(signal);
  return cache.read().view.all.map((e) => e.name);
}

/** The namespaces `attrs` is allowed in; undefined when it is allowed in every namespace. */
export async function readableNamespaces(
  access: ReadAccess,
  attrs: ScopeAttributes,
  candidates: () => Promise<Iterable<string>>,
): Promise<ReadonlySet<string> | undefined> {
  if (access.open) return undefined;
  const allowed = await access.namespaces(attrs, await candidates());
  return allowed === 'all' ? undefined : allowed;
}

/** The same, for one cluster: its namespaces are the candidates. */
export function readableIn(
  access: ReadAccess,
  cluster: ClusterConnection,
  attrs: ScopeAttributes,
  signal: AbortSignal,
): Promise<ReadonlySet<string> | undefined> {
  return readableNamespaces(access, attrs, () => clusterNamespaces(cluster, signal));
}
