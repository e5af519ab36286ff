import type { KindCount, SearchHit } from '../../../src-shared/contract/relations-operations';
import type { ReadAccess } from '../auth/rbac/access';
import { locateReadable, readableIn } from '../auth/read-scope';
import type { ClusterConnection } from '../clusters/cluster';
import { isEventKind, type KindInfo, TAILORED_KINDS } from '../clusters/kind-info';
import type { ClusterRegistry } from '../clusters/registry';
import type { CallContext, OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { paginate } from '../pagination';
import { clusterSource, countKeeperOf } from '../relations/cluster-source';
import { readableRelations } from '../relations/readable';
import { compareText } from '../relations/refs';
import { type RelationsAnswer, relationsOf } from '../relations/relations';
import { type SearchCache, searchCaches, searchHit } from '../relations/search';

/**
 * `…/relations/…`, `…/counts` and `…/search`: kinds resolve as endpoints 1–4 resolve them
 * (ClusterConnection.kind: 400 invalid_resource_type with the canonical name as the hint), the
 * work is the relations modules'. Answers built from stale caches carry `x-Stale-Since`. With
 * `--authorize rbac` each answer holds only what the caller may read: the object needs `get`, its
 * related objects are cut to the readable ones, search and counts need `list` where they look.
 */

/** What search reads besides the running caches: the nine and the kinds people jump to next. */
export const SEARCHED_KINDS: readonly { group: string; kind: string }[] = [
  ...TAILORED_KINDS,
  { group: '', kind: 'ConfigMap' },
  { group: '', kind: 'Secret' },
  { group: '', kind: 'PersistentVolumeClaim' },
  { group: 'networking.k8s.io', kind: 'Ingress' },
];

/** The kinds a comma-separated `resourceTypes` names, each resolved (or refused) as a path's is. */
async function named(
  cluster: ClusterConnection,
  list: string,
  namespaced: boolean,
  signal: AbortSignal,
): Promise<KindInfo[]> {
  const out = new Map<string, KindInfo>();
  for (const raw of list.split(',')) {
    if (raw === '') continue;
    const kind = await cluster.kind(raw, signal, namespaced ? { namespaced } : {});
    out.set(kind.resourceType, kind);
  }
  return [...out.values()];
}

const byType = (a: KindInfo, b: KindInfo) => compareText(a.resourceType, b.resourceType);

/** The kinds search reads: the ones named, else the common ones the cluster serves and the running ones. */
async function searchKinds(
  cluster: ClusterConnection,
  resourceTypes: string | undefined,
  signal: AbortSignal,
): Promise<KindInfo[]> {
  if (resourceTypes !== undefined) return named(cluster, resourceTypes, false, signal);
  const served = await cluster.kinds(signal);
  const kinds = new Map<string, KindInfo>();
  for (const k of served)
    if (SEARCHED_KINDS.some((s) => s.group === k.group && s.kind === k.kind)) kinds.set(k.resourceType, k);
  for (const k of cluster.runningKinds()) if (!isEventKind(k)) kinds.set(k.resourceType, k);
  return [...kinds.values()];
}

/**
 * `--authorize rbac`: the object needs `get` of its kind where it is, checked before the answer is
 * built (named without a namespace, it is looked for only where the caller may get it), and the
 * answer keeps only the related objects the caller may read (relations/readable.ts). Open access
 * asks nothing.
 */
async function authorizedRelations(
  registry: ClusterRegistry,
  cluster: ClusterConnection,
  kind: KindInfo,
  namespace: string | undefined,
  name: string,
  ctx: CallContext,
): Promise<RelationsAnswer> {
  const access = registry.access(cluster, ctx.principal);
  if (access.open) return relationsOf(clusterSource(cluster, ctx.signal), kind, namespace, name);
  // Named without a namespace: looked for only where the caller may get it (auth/read-scope.ts).
  const where =
    kind.namespaced && namespace === undefined
      ? await locateReadable(access, cluster, kind, name, ctx.signal)
      : namespace;
  const get = { verb: 'get', group: kind.group, resource: kind.plural, name } as const;
  await access.require({ ...get, ...(where !== undefined ? { namespace: where } : {}) });
  const answer = await relationsOf(clusterSource(cluster, ctx.signal), kind, where, name);
  const kinds = new Map((await cluster.kinds(ctx.signal)).map((k) => [k.resourceType, k]));
  const relations = await readableRelations(answer.relations, access, (t) => kinds.get(t));
  return { ...answer, relations };
}

/**
 * `--authorize rbac`: a kind's count needs `list` of it where it is counted. In a namespace asked
 * (and for a cluster-scoped kind, at the cluster scope) without it the count is absent and `error`
 * says which permission. Across namespaces it counts, as a list's x-Total does, only the
 * namespaces where the caller may list the kind (0 when none): the tree's "All namespaces".
 */
async function authorizedCount(
  access: ReadAccess,
  cluster: ClusterConnection,
  kind: KindInfo,
  namespace: string | undefined,
  signal: AbortSignal,
): Promise<KindCount> {
  const keeper = countKeeperOf(cluster);
  if (kind.namespaced && namespace === undefined && !access.open) {
    const attrs = { verb: 'list', group: kind.group, resource: kind.plural } as const;
    const allowed = await readableIn(access, cluster, attrs, signal);
    return allowed === undefined ? keeper.count(kind, undefined) : keeper.countIn(kind, allowed);
  }
  const refused = await countAllowed(access, kind, namespace);
  if (refused === undefined) return keeper.count(kind, namespace);
  return { resourceType: kind.resourceType, exact: true, source: 'cache', error: refused };
}

/** A kind's `list` where it is counted; the refusal's words when not allowed. */
async function countAllowed(
  access: ReadAccess,
  kind: KindInfo,
  namespace: string | undefined,
): Promise<string | undefined> {
  if (access.open) return undefined;
  try {
    await access.require({
      verb: 'list',
      group: kind.group,
      resource: kind.plural,
      ...(namespace !== undefined ? { namespace } : {}),
    });
    return undefined;
  } catch (err) {
    if (err instanceof ProblemError && err.code === 'forbidden') return err.message;
    throw err;
  }
}

/** `--authorize rbac`: search finds only objects the caller may `list` (their kind in their namespace). */
async function searchable(
  access: ReadAccess,
  cluster: ClusterConnection,
  caches: readonly SearchCache[],
  signal: AbortSignal,
): Promise<SearchCache[]> {
  if (access.open) return [...caches];
  const out: SearchCache[] = [];
  for (const c of caches) {
    const kind = c.kind as KindInfo;
    const attrs = { verb: 'list', group: kind.group, resource: kind.plural } as const;
    const allowed = await readableIn(access, cluster, attrs, signal);
    if (allowed === undefined) out.push(c);
    else if (allowed.size > 0) out.push({ kind, view: narrowed(c.view, allowed) });
  }
  return out;
}

/** A view with only the rows of some namespaces (search reads `all` and namespace slices of it). */
function narrowed(view: SearchCache['view'], namespaces: ReadonlySet<string>): SearchCache['view'] {
  const all = view.all.filter((e) => namespaces.has(e.namespace));
  return {
    version: view.version,
    all,
    by: (name, value) => view.by(name, value).filter((e) => namespaces.has(e.namespace)),
  };
}

export function relationsHandlers(
  registry: ClusterRegistry,
): Pick<OperationHandlers, 'getRelations' | 'getNamespacedRelations' | 'listCounts' | 'searchObjects'> {
  return {
    async getRelations({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal);
      const answer = await authorizedRelations(registry, cluster, kind, undefined, params.resourceName, ctx);
      return { data: answer.relations, ...(answer.staleSince ? { staleSince: answer.staleSince } : {}) };
    },
    async getNamespacedRelations({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal, { namespaced: true });
      const { namespace, resourceName } = params;
      const answer = await authorizedRelations(registry, cluster, kind, namespace, resourceName, ctx);
      return { data: answer.relations, ...(answer.staleSince ? { staleSince: answer.staleSince } : {}) };
    },
    async listCounts({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const inNamespace = query.namespace !== undefined;
      const kinds =
        query.resourceTypes !== undefined
          ? await named(cluster, query.resourceTypes, inNamespace, ctx.signal)
          : (await cluster.kinds(ctx.signal)).filter(
              (k) => !isEventKind(k) && (k.namespaced || !inNamespace),
            );
      const { items, page } = paginate([...kinds].sort(byType), query.limit, query.offset);
      const access = registry.access(cluster, ctx.principal);
      const data: KindCount[] = await Promise.all(
        items.map((k) => authorizedCount(access, cluster, k, query.namespace, ctx.signal)),
      );
      return { data, page };
    },
    async searchObjects({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kinds = await searchKinds(cluster, query.resourceTypes, ctx.signal);
      const source = clusterSource(cluster, ctx.signal);
      const caches: SearchCache[] = [];
      let staleSince: string | undefined;
      // A kind that cannot be read is left out, so the palette still finds what the others hold;
      // unless the caller named the kinds: then its problem is the answer.
      const reads = await Promise.allSettled(kinds.map((k) => source.read(k)));
      reads.forEach((read, i) => {
        if (read.status !== 'fulfilled') {
          if (query.resourceTypes !== undefined) throw read.reason;
          return;
        }
        caches.push({ kind: kinds[i]!, view: read.value.view });
        const stale = read.value.staleSince;
        if (stale && (staleSince === undefined || stale < staleSince)) staleSince = stale;
      });
      const access = registry.access(cluster, ctx.principal);
      const allowed = await searchable(access, cluster, caches, ctx.signal);
      const { items, page } = paginate(
        searchCaches(allowed, query.q, query.namespace),
        query.limit,
        query.offset,
      );
      const data: SearchHit[] = items.map(searchHit);
      return { data, page, ...(staleSince ? { staleSince } : {}) };
    },
  };
}
