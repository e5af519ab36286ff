import type { Reply } from '../../../src-shared/contract/define';
import type { ResourceUsage, ResourceWrapper } from '../../../src-shared/contract/models';
import type { ResourceKindInfo } from '../../../src-shared/kube/kinds';
import type { Selector } from '../../../src-shared/kube/selector';
import type { ClusterConnection } from '../clusters/cluster';
import { cleanObject, type ResourceEntry } from '../clusters/entries';
import { resourceRows } from '../clusters/list-queries';
import type { ClusterRegistry } from '../clusters/registry';
import type { CallContext, OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { serialisedPage } from '../pagination';

async function listPage(
  cluster: ClusterConnection,
  kind: ResourceKindInfo,
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
  const rows = resourceRows(read.snapshot, namespace, query.labelSelector?.selector);
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
  kind: ResourceKindInfo,
  name: string,
  ctx: CallContext,
): Promise<string> {
  const cache = cluster.resources(kind);
  await cache.acquire(ctx.signal);
  const namespaces = cache
    .read()
    .snapshot.all.filter((r) => r.name === name)
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
): Promise<Reply<ResourceWrapper>> {
  if (kind.namespaced && namespace === undefined) {
    namespace = await locateNamespace(cluster, kind, name, ctx);
  }
  const usage =
    kind.singular === 'pod' && namespace ? cluster.podUsage(namespace, name) : Promise.resolve(undefined);
  const cached = cluster.cachedObject(kind.singular, name, namespace);
  if (cached !== undefined) return wrapperJson(cluster.clusterId, workspaceId, cached, await usage);
  const [raw, found] = await Promise.all([
    cluster.getObject(kind.singular, name, namespace, ctx.signal),
    usage,
  ]);
  const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
  const resource = cleanObject(raw, apiVersion, kind.kind);
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
      return listPage(cluster, params.resourceType, undefined, query, params.workspaceId, ctx);
    },
    async listNamespacedResources({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      return listPage(cluster, params.resourceType, params.namespace, query, params.workspaceId, ctx);
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
