/**
 * Endpoints 1–4 for every kind the cluster serves: the resourceType is resolved against the
 * cluster's kinds first (clusters/resolve-kind.ts), then every kind is served alike from its watch
 * cache: the same wrappers, labelSelector, paging, Link, ETag and x-Stale-Since as the nine. A
 * single object comes from the cache while it is live, else from the apiserver. Only a pod adds
 * something of its own (its usage).
 * Every read asks the cluster's ReadAccess first (auth/rbac): a list in one namespace needs `list`
 * there, a list across namespaces answers only the namespaces where the caller may `list` (cut by
 * the namespace index, so x-Total counts only those), an object needs `get`, the namespace list
 * shows the namespaces the caller may see (rbac/visibility.ts). Open access skips all of it.
 */
import type { Reply } from '../../../src-shared/contract/define';
import type { ResourceUsage, ResourceWrapper } from '../../../src-shared/contract/models';
import type { Selector } from '../../../src-shared/kube/selector';
import type { ReadAccess, ResourceAttributes } from '../auth/rbac/access';
import { visibleNamespaces } from '../auth/rbac/visibility';
import type { CollectionView } from '../cache/collection';
import { cleanObject, type ResourceEntry } from '../cache/entries';
import { remembered, resourceRows } from '../cache/list-queries';
import type { ClusterConnection } from '../clusters/cluster';
import { apiVersionOf, type KindInfo } from '../clusters/kind-info';
import type { ClusterRegistry } from '../clusters/registry';
import type { CallContext, OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { serialisedPage } from '../pagination';

const isNamespaceKind = (kind: KindInfo) => kind.group === '' && kind.plural === 'namespaces';

/** The namespaces a view holds rows in, in order (rows are in (namespace, name) order); once per view. */
function namespacesIn(view: CollectionView<ResourceEntry>): readonly string[] {
  return remembered<string>(view, 'rbac-namespaces', () => {
    const out: string[] = [];
    for (const r of view.all) if (out[out.length - 1] !== r.namespace) out.push(r.namespace);
    return out;
  });
}

/**
 * The rows of the allowed namespaces: each namespace's slice from the namespace index, joined in
 * namespace order, which is the view's order; kept with the view so a walk's pages cut once.
 */
function rowsIn(
  view: CollectionView<ResourceEntry>,
  allowed: ReadonlySet<string>,
  selector: Selector | undefined,
): readonly ResourceEntry[] {
  const namespaces = [...allowed].sort();
  const key = `rbac:${JSON.stringify(namespaces)}:${selector ? JSON.stringify(selector) : ''}`;
  return remembered(view, key, () => namespaces.flatMap((ns) => resourceRows(view, ns, selector)));
}

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
  access: ReadAccess,
  ctx: CallContext,
): Promise<Reply<ResourceWrapper[]>> {
  const list: ResourceAttributes = { verb: 'list', group: kind.group, resource: kind.plural };
  const crossNamespaces = kind.namespaced && namespace === undefined;
  if (!access.open && !crossNamespaces && !isNamespaceKind(kind)) {
    await access.require(namespace === undefined ? list : { ...list, namespace });
  }
  const cache = cluster.resources(kind);
  await cache.acquire(ctx.signal);
  const read = cache.read(query.snapshot);
  const selector = query.labelSelector?.selector;
  let rows = resourceRows(read.view, namespace, selector);
  if (!access.open && crossNamespaces) {
    // Iterated only when the caller may not list cluster-wide: the admin's read walks no rows.
    const view = read.view;
    const allowed = await access.namespaces(list, {
      [Symbol.iterator]: () => namespacesIn(view)[Symbol.iterator](),
    });
    if (allowed !== 'all') rows = rowsIn(read.view, allowed, selector);
  } else if (!access.open && isNamespaceKind(kind)) {
    const visible = await visibleNamespaces(
      access,
      rows.map((r) => r.name),
    );
    if (visible !== 'all') rows = rows.filter((r) => visible.has(r.name));
  }
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
  access: ReadAccess,
  ctx: CallContext,
): Promise<string> {
  const cache = cluster.resources(kind);
  await cache.acquire(ctx.signal);
  const holding = cache
    .read()
    .view.all.filter((r) => r.name === name)
    .map((r) => r.namespace);
  // Only namespaces the caller may read are searched; a name held only where it may not is a 403
  // at the cluster scope, which says neither where it is nor what it holds.
  const get: ResourceAttributes = { verb: 'get', group: kind.group, resource: kind.plural, name };
  const readable = access.open ? 'all' : await access.namespaces(get, holding);
  const namespaces = readable === 'all' ? holding : holding.filter((ns) => readable.has(ns));
  if (namespaces.length === 0 && holding.length > 0) await access.require(get);
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
  access: ReadAccess,
  ctx: CallContext,
): Promise<Reply<ResourceWrapper>> {
  if (kind.namespaced && namespace === undefined) {
    namespace = await locateNamespace(cluster, kind, name, access, ctx);
  } else if (!access.open) {
    // A Namespace is filed under itself, as the apiserver files it, so a Role in it can grant it.
    const where = isNamespaceKind(kind) ? { namespace: name } : namespace === undefined ? {} : { namespace };
    await access.require({ verb: 'get', group: kind.group, resource: kind.plural, name, ...where });
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
      const access = registry.access(cluster, ctx.principal);
      return listPage(cluster, kind, undefined, query, params.workspaceId, access, ctx);
    },
    async listNamespacedResources({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal, { namespaced: true });
      const access = registry.access(cluster, ctx.principal);
      return listPage(cluster, kind, params.namespace, query, params.workspaceId, access, ctx);
    },
    async getResource({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal);
      const access = registry.access(cluster, ctx.principal);
      return getOne(cluster, kind, params.resourceName, undefined, params.workspaceId, access, ctx);
    },
    async getNamespacedResource({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal, { namespaced: true });
      const access = registry.access(cluster, ctx.principal);
      return getOne(cluster, kind, params.resourceName, params.namespace, params.workspaceId, access, ctx);
    },
  };
}
