/**
 * `…/explanations/…`: why an object of any kind is broken (src-shared/guidance/explain-object.ts).
 * The kind resolves as endpoints 1–4 resolve it (ClusterConnection.kind: 400 invalid_resource_type
 * with the canonical name as the hint); the object and everything its explanation looks up come
 * from the watch caches (explain/cache-context.ts). A namespaced kind named without a namespace is
 * looked up across namespaces as endpoint 2 does: one match is explained, several are a 409 naming
 * them. An answer read from a stale cache carries x-Stale-Since. With `--authorize rbac` it
 * follows `get` of the object where it is (403 naming the permission otherwise), checked before
 * the lookup; named without a namespace, it is looked for only where the caller may get it.
 */
import type { Reply } from '../../../src-shared/contract/define';
import type { Explanation } from '../../../src-shared/contract/explain-operations';
import { explainObject } from '../../../src-shared/guidance/explain-object';
import type { ObjectLike } from '../../../src-shared/guidance/findings';
import type { ReadAccess } from '../auth/rbac/access';
import { locateReadable } from '../auth/read-scope';
import type { ResourceEntry } from '../cache/entries';
import { resourceRows } from '../cache/list-queries';
import type { ClusterConnection } from '../clusters/cluster';
import type { KindInfo } from '../clusters/kind-info';
import type { ClusterRegistry } from '../clusters/registry';
import type { CallContext, OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { cacheExplainContext } from '../explain/cache-context';

function located(
  kind: KindInfo,
  rows: readonly ResourceEntry[],
  name: string,
  namespace: string | undefined,
) {
  const matches = rows.filter((r) => r.name === name);
  if (matches.length === 0) {
    const where = namespace === undefined ? '' : ` in namespace ${namespace}`;
    throw new ProblemError('resource_not_found', `${kind.resourceType} "${name}"${where} not found`);
  }
  if (matches.length > 1) {
    const namespaces = matches.map((r) => r.namespace);
    throw new ProblemError(
      'conflict',
      `${kind.resourceType} "${name}" exists in several namespaces (${namespaces.join(', ')}); use /namespaces/{namespace}/${kind.resourceType}/${name}`,
      { namespaces },
    );
  }
  return matches[0] as ResourceEntry;
}

async function explain(
  cluster: ClusterConnection,
  kind: KindInfo,
  namespace: string | undefined,
  name: string,
  ctx: CallContext,
  access: ReadAccess,
): Promise<Reply<Explanation>> {
  if (!access.open) {
    // Named without a namespace: looked for only where the caller may get it (auth/read-scope.ts).
    if (kind.namespaced && namespace === undefined)
      namespace = await locateReadable(access, cluster, kind, name, ctx.signal);
    const get = { verb: 'get', group: kind.group, resource: kind.plural, name } as const;
    await access.require({ ...get, ...(namespace !== undefined ? { namespace } : {}) });
  }
  const cache = cluster.resources(kind);
  await cache.acquire(ctx.signal);
  const read = cache.read();
  // A namespaced kind without a namespace: every namespace's objects of that name.
  const scope = kind.namespaced ? namespace : '';
  const entry = located(kind, resourceRows(read.view, scope, undefined), name, namespace);
  // As the API serves it: metadata is always there.
  const object = JSON.parse(entry.json) as ObjectLike & { metadata: { uid?: string } };
  const where = kind.namespaced ? entry.namespace : undefined;
  const context = await cacheExplainContext(cluster, { kind, namespace: where, name }, ctx.signal);
  const findings = await explainObject(object, context);
  const uid = object.metadata.uid;
  const data: Explanation = {
    object: {
      resourceType: kind.resourceType,
      ...(where ? { namespace: where } : {}),
      name,
      ...(uid ? { uid } : {}),
    },
    findings,
  };
  return read.staleSince ? { data, staleSince: read.staleSince } : { data };
}

export function explainHandlers(
  registry: ClusterRegistry,
): Pick<OperationHandlers, 'explainResource' | 'explainNamespacedResource'> {
  return {
    async explainResource({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal);
      const access = registry.access(cluster, ctx.principal);
      return explain(cluster, kind, undefined, params.resourceName, ctx, access);
    },
    async explainNamespacedResource({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal, { namespaced: true });
      const access = registry.access(cluster, ctx.principal);
      return explain(cluster, kind, params.namespace, params.resourceName, ctx, access);
    },
  };
}
