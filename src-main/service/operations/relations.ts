import type { KindCount, SearchHit } from '../../../src-shared/contract/relations-operations';
import type { ClusterConnection } from '../clusters/cluster';
import { isEventKind, type KindInfo, TAILORED_KINDS } from '../clusters/kind-info';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { paginate } from '../pagination';
import { clusterSource, countKeeperOf } from '../relations/cluster-source';
import { compareText } from '../relations/refs';
import { relationsOf } from '../relations/relations';
import { type SearchCache, searchCaches, searchHit } from '../relations/search';

/**
 * `…/relations/…`, `…/counts` and `…/search`: kinds resolve as endpoints 1–4 resolve them
 * (ClusterConnection.kind: 400 invalid_resource_type with the canonical name as the hint), the
 * work is the relations modules'. Answers built from stale caches carry `x-Stale-Since`.
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

export function relationsHandlers(
  registry: ClusterRegistry,
): Pick<OperationHandlers, 'getRelations' | 'getNamespacedRelations' | 'listCounts' | 'searchObjects'> {
  return {
    async getRelations({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal);
      const answer = await relationsOf(
        clusterSource(cluster, ctx.signal),
        kind,
        undefined,
        params.resourceName,
      );
      return { data: answer.relations, ...(answer.staleSince ? { staleSince: answer.staleSince } : {}) };
    },
    async getNamespacedRelations({ params }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const kind = await cluster.kind(params.resourceType, ctx.signal, { namespaced: true });
      const source = clusterSource(cluster, ctx.signal);
      const answer = await relationsOf(source, kind, params.namespace, params.resourceName);
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
      const keeper = countKeeperOf(cluster);
      const data: KindCount[] = await Promise.all(items.map((k) => keeper.count(k, query.namespace)));
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
      const { items, page } = paginate(
        searchCaches(caches, query.q, query.namespace),
        query.limit,
        query.offset,
      );
      const data: SearchHit[] = items.map(searchHit);
      return { data, page, ...(staleSince ? { staleSince } : {}) };
    },
  };
}
