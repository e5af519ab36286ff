import type { ResourceWrapper } from '../../../src-shared/contract/models';
import type { ResourceKindInfo } from '../../../src-shared/kube/kinds';
import { matchesSelector, type Selector } from '../../../src-shared/kube/selector';
import type { CachedResource, ClusterConnection } from '../clusters/cluster';
import type { ClusterRegistry } from '../clusters/registry';
import { cleanObject } from '../clusters/resource-cache';
import type { CallContext, OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { paginate } from '../pagination';

/** The rows of one namespace are contiguous in a (namespace, name) ordered snapshot: find them by bisection. */
function namespaceSlice(all: readonly CachedResource[], namespace: string): readonly CachedResource[] {
  const bound = (strict: boolean) => {
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const ns = all[mid]!.namespace;
      if (ns < namespace || (strict && ns === namespace)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return all.slice(bound(false), bound(true));
}

async function listPage(
  cluster: ClusterConnection,
  kind: ResourceKindInfo,
  namespace: string | undefined,
  selector: Selector | undefined,
  page: { limit: number; offset: number },
  workspaceId: string,
  ctx: CallContext,
) {
  const cache = cluster.resources(kind);
  await cache.acquire(ctx.signal);
  let rows = cache.snapshot();
  if (namespace !== undefined) rows = namespaceSlice(rows, namespace);
  if (selector) rows = rows.filter((r) => matchesSelector(selector, r.labels));
  const { items, page: info } = paginate(rows, page.limit, page.offset);
  const data: ResourceWrapper[] = items.map((r) => ({
    clusterId: cluster.clusterId,
    workspaceId,
    resource: r.object,
  }));
  return { data, page: info };
}

/**
 * Endpoint 2 with a namespaced type names no namespace. The name is looked up across namespaces:
 * one match is served, several are a 409 that lists them, so a script never gets an arbitrary one.
 */
async function locateNamespace(
  cluster: ClusterConnection,
  kind: ResourceKindInfo,
  name: string,
  ctx: CallContext,
): Promise<string> {
  const cache = cluster.resources(kind);
  await cache.acquire(ctx.signal);
  const namespaces = cache
    .snapshot()
    .filter((r) => r.name === name)
    .map((r) => r.namespace);
  if (namespaces.length === 0)
    throw new ProblemError('resource_not_found', `${kind.singular} "${name}" not found`);
  if (namespaces.length > 1) {
    throw new ProblemError(
      'conflict',
      `${kind.singular} "${name}" exists in several namespaces (${namespaces.join(', ')}); use /namespaces/{namespace}/${kind.singular}/${name}`,
      { namespaces },
    );
  }
  return namespaces[0]!;
}

async function getOne(
  cluster: ClusterConnection,
  kind: ResourceKindInfo,
  name: string,
  namespace: string | undefined,
  workspaceId: string,
  ctx: CallContext,
): Promise<{ data: ResourceWrapper }> {
  if (kind.namespaced && namespace === undefined) {
    namespace = await locateNamespace(cluster, kind, name, ctx);
  }
  const isPod = kind.singular === 'pod';
  const [raw, usage] = await Promise.all([
    cluster.getObject(kind.singular, name, namespace, ctx.signal),
    isPod && namespace ? cluster.podUsage(namespace, name, ctx.signal) : Promise.resolve(undefined),
  ]);
  const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
  const resource = cleanObject(raw, apiVersion, kind.kind);
  return { data: { clusterId: cluster.clusterId, workspaceId, resource, ...(usage ? { usage } : {}) } };
}

export function resourceHandlers(
  registry: ClusterRegistry,
): Pick<
  OperationHandlers,
  'listResources' | 'getResource' | 'listNamespacedResources' | 'getNamespacedResource'
> {
  return {
    async listResources({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      return listPage(
        cluster,
        params.resourceType,
        undefined,
        query.labelSelector?.selector,
        query,
        params.workspaceId,
        ctx,
      );
    },
    async listNamespacedResources({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const selector = query.labelSelector?.selector;
      return listPage(
        cluster,
        params.resourceType,
        params.namespace,
        selector,
        query,
        params.workspaceId,
        ctx,
      );
    },
    async getResource({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      return getOne(cluster, params.resourceType, params.resourceName, undefined, params.workspaceId, ctx);
    },
    async getNamespacedResource({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      return getOne(
        cluster,
        params.resourceType,
        params.resourceName,
        params.namespace,
        params.workspaceId,
        ctx,
      );
    },
  };
}
