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
 * - An object of a namespaced kind named without a namespace is looked for only where the caller
 *   may `get` it, as the resource read does (operations/resources.ts): a name held only elsewhere
 *   is a 403 at the cluster scope, which says neither where it is nor what it holds.
 */
import { RESOURCE_KINDS } from '../../../src-shared/kube/kinds';
import type { ClusterConnection } from '../clusters/cluster';
import type { KindInfo } from '../clusters/kind-info';
import { ProblemError } from '../errors';
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

/**
 * Where a namespaced object named without a namespace is, among the namespaces the caller may
 * `get` it in (access not open): one is the answer, none a 404 (or a 403 at the cluster scope when
 * it is held only elsewhere), several a 409 naming the readable ones.
 */
export async function locateReadable(
  access: ReadAccess,
  cluster: ClusterConnection,
  kind: KindInfo,
  name: string,
  signal: AbortSignal,
): Promise<string> {
  const cache = cluster.resources(kind);
  await cache.acquire(signal);
  const holding = cache
    .read()
    .view.all.filter((r) => r.name === name)
    .map((r) => r.namespace);
  const get: ResourceAttributes = { verb: 'get', group: kind.group, resource: kind.plural, name };
  const readable = await access.namespaces(get, holding);
  const namespaces = readable === 'all' ? holding : holding.filter((ns) => readable.has(ns));
  if (namespaces.length === 0 && holding.length > 0) await access.require(get);
  if (namespaces.length === 0)
    throw new ProblemError('resource_not_found', `${kind.resourceType} "${name}" not found`);
  if (namespaces.length > 1) {
    throw new ProblemError(
      'conflict',
      `${kind.resourceType} "${name}" exists in several namespaces (${namespaces.join(', ')}); name the namespace in the path`,
      { namespaces },
    );
  }
  return namespaces[0]!;
}
