/**
 * Endpoints 1–4 for every kind the cluster serves: the resourceType is resolved against the
 * cluster's kinds first (clusters/resolve-kind.ts), then every kind is served alike from its watch
 * cache: the same wrappers, labelSelector, paging, Link, ETag and x-Stale-Since as the nine. A
 * single object comes from the cache while it is live, else from the apiserver. Only a pod adds
 * something of its own (its usage).
 */
import type { Reply } from '../../../src-shared/contract/define';
import type { ResourceUsage, ResourceWrapper } from '../../../src-shared/contract/models';
import type { Selector } from '../../../src-shared/kube/selector';
import { cleanObject, type ResourceEntry } from '../cache/entries';
import { resourceRows } from '../cache/list-queries';
import type { ClusterConnection } from '../clusters/cluster';
import { apiVersionOf, type KindInfo } from '../clusters/kind-info';
import type { ClusterRegistry } from '../clusters/registry';
import type { CallContext, OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { serialisedPage } from '../pagination';

async function listPage(
  cluster: ClusterConnection,
  kind: KindInfo,
  namespace: string | undefined,
  query: {
    labelSelector?: { selector: Selector } | undefined;
    snapshot?: string | undefined;
    limit: number;
    offset: number;
  },
  workspaceId: string,
  ctx: CallContext,
): Promise<Reply<ResourceWrapper[]>> {
  const cache = cluster.resources(kind);
  await cache.acquire(ctx.signal);
  const read = cache.read(query.snapshot);
  const rows = resourceRows(read.view, namespace, query.labelSelector?.selector);
  const head = `{"clusterId":${JSON.stringify(cluster.clusterId)},"workspaceId":${JSON.stringify(workspaceId)},"resource":`;
  return serialisedPage<ResourceEntry, ResourceWrapper>(
    rows,
    query.limit,
    query.offset,
    { text: (r) => r.json, jsonWrap: { prefix: head, suffix: '}' }, variant: '' },
    read,
  );
}

/**
 * Endpoint 2 with a namespaced type names no namespace. The name is looked up across namespaces:
 * one match is served, several are a 409 that lists them, so a script never gets an arbitrary one.
 */
async function locateNamespace(
  cluster: ClusterConnection,
  kind: KindInfo,
  name: string,
  ctx: CallContext,
): Promise<string> {
  const cache = cluster.resources(kind);
  await cache.acquire(ctx.signal);
  const namespaces = cache
    .read()
    .view.all.filter((r) => r.name === name)
    .map((r) => r.namespace);
  if (namespaces.length === 0)
    throw new ProblemError('resource_not_found', `${kind.resourceType} "${name}" not found`);
  if (namespaces.length > 1) {
    throw new ProblemError(
      'conflict',
      `${kind.resourceType} "${name}" exists in several namespaces (${namespaces.join(', ')}); use /namespaces/{namespace}/${kind.resourceType}/${name}`,
      { namespaces },
    );
  }
  return namespaces[0]!;
}

async function getOne(
  cluster: ClusterConnection,
  kind: KindInfo,
  name: string,
  namespace: string | undefined,
  workspaceId: string,
  ctx: CallContext,
): Promise<Reply<ResourceWrapper>> {
  if (kind.namespaced && namespace === undefined) {
    namespace = await locateNamespace(cluster, kind, name, ctx);
  }
  const isPod = kind.group === '' && kind.plural === 'pods';
  const usage = isPod && namespace ? cluster.podUsage(namespace, name) : Promise.resolve(undefined);
  const cached = cluster.cachedObject(kind, name, namespace);
  if (cached !== undefined) return wrapperJson(cluster.clusterId, workspaceId, cached, await usage);
  const [raw, found] = await Promise.all([cluster.getObject(kind, name, namespace, ctx.signal), usage]);
  const resource = cleanObject(raw, apiVersionOf(kind), kind.kind);
  return {
    data: { clusterId: cluster.clusterId, workspaceId, resource, ...(found ? { usage: found } : {}) },
  };
}

/** A wrapper around an object already held as JSON text: sent as is, parsed only for IPC. */
function wrapperJson(
  clusterId: string,
  workspaceId: string,
  resourceJson: string,
  usage: ResourceUsage | undefined,
): Reply<ResourceWrapper> {
  const json = `{"clusterId":${JSON.stringify(clusterId)},"workspaceId":${JSON.stringify(workspaceId)},"resource":${resourceJson}${usage ? `,"usage":${JSON.stringify(usage)}` : ''}}`;
  return {
    get data() {
      return JSON.parse(json) as ResourceWrapper;
    },
    json,
  };
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
      const kind = await cluster.kind(params.resourceType, ctx.signal);
      return listPage(cluster, kind, undefined, query, params.workspaceId, ctx);
    },
    async listNamespacedResources({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal, { namespaced: true });
      return listPage(cluster, kind, params.namespace, query, params.workspaceId, ctx);
    },
    async getResource({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal);
      return getOne(cluster, kind, params.resourceName, undefined, params.workspaceId, ctx);
    },
    async getNamespacedResource({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal, { namespaced: true });
      return getOne(cluster, kind, params.resourceName, params.namespace, params.workspaceId, ctx);
    },
  };
}
