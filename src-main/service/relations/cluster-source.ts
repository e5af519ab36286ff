/**
 * Relations, counts and search in the service: what they read of a cluster connection.
 * - Relations read its kinds (its discovery, or a snapshot's fixed kinds) and its watch caches of
 *   any kind, started on first read like any list's and read once per answer. A cache's first list
 *   is waited for as a list waits for it (503 cluster_syncing while pages arrive, the cluster's
 *   problem when it fails); the caller's signal ends the wait.
 * - Counts read a cache only when it already runs; otherwise one `limit=1` list, asking the
 *   apiserver for metadata only (PartialObjectMetadataList, so a Secret's values are not even
 *   sent), or a snapshot's rows through its frozen collection. A snapshot's count in a namespace
 *   reads the kind's cache, which pages through the file.
 * - Search reads the caches of the common kinds (started if need be) and of every running kind.
 */

import type { ClusterConnection } from '../clusters/cluster';
import type { KindInfo } from '../clusters/kind-info';
import { toProblem } from '../kube/kube-client';
import { CountKeeper, type CountSource, type OnePage } from './counts';
import type { KindRead, KindRef, RelationSource } from './model';

export function clusterSource(cluster: ClusterConnection, signal?: AbortSignal): RelationSource {
  return {
    kinds: () => cluster.kinds(signal),
    async read(kind: KindRef): Promise<KindRead> {
      // Every kind relations name comes from cluster.kinds(): a KindInfo.
      const cache = cluster.resources(kind as KindInfo);
      await cache.acquire(signal);
      const read = cache.read();
      return {
        collection: cache,
        view: read.view,
        ...(read.staleSince ? { staleSince: read.staleSince } : {}),
      };
    },
  };
}

/** Metadata only where the apiserver can (any 1.15+), the plain list where it cannot. */
export const METADATA_ONLY =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

interface ListBody {
  metadata?: { continue?: string; remainingItemCount?: number };
  items?: unknown[];
}

function countSource(cluster: ClusterConnection): CountSource {
  const frozen = cluster.frozen;
  return {
    listSource: frozen ? 'snapshot' : 'list',
    now: Date.now,
    async running(kind, namespace) {
      const info = kind as KindInfo;
      const started = cluster.runningCache(info);
      // A snapshot's cache reads its file, never a network: in a namespace, it is the count.
      const cache = started ?? (frozen && namespace !== undefined ? cluster.resources(info) : undefined);
      if (!cache) return undefined;
      await cache.acquire();
      return cache.read().view;
    },
    async listOne(kind, namespace): Promise<OnePage> {
      const info = kind as KindInfo;
      if (frozen) {
        // In a namespace a snapshot counts from its cache (running); this read is of all rows.
        if (namespace !== undefined) throw new Error(`the snapshot's ${info.resourceType} could not be read`);
        return frozen.collection(info).list({
          limit: 1,
          timeoutMs: cluster.timeoutMs,
          signal: AbortSignal.timeout(cluster.timeoutMs),
        });
      }
      const ns = namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : '';
      const path = `${info.apiPath}${ns}/${info.plural}`;
      // The cluster's refusal as the API's problem, as every other read reports it.
      const body = await cluster.client
        .getJson<ListBody>(path, {
          query: { limit: '1' },
          accept: METADATA_ONLY,
          timeoutMs: cluster.timeoutMs,
        })
        .catch((err: unknown) => {
          throw toProblem(err, path);
        });
      const { continue: next, remainingItemCount } = body.metadata ?? {};
      return { items: body.items ?? [], continue: next, remainingItemCount };
    },
  };
}

const keepers = new WeakMap<ClusterConnection, CountKeeper>();

/** The counts kept for a cluster connection (a new connection starts afresh). */
export function countKeeperOf(cluster: ClusterConnection): CountKeeper {
  let keeper = keepers.get(cluster);
  if (!keeper) {
    keeper = new CountKeeper(countSource(cluster));
    keepers.set(cluster, keeper);
  }
  return keeper;
}
