/**
 * The change history's operations (src-shared/contract/change-operations.ts): route -> operation ->
 * feature. The reads live in history/changes/reads*.ts, the watch in history/changes/reads-watch.ts.
 *
 * Rules: no logic here beyond resolving the cluster and the kind as every object read does
 * (ClusterConnection.kind: an unknown kind 404, a plural 400 with the hint; a cluster-scoped kind
 * refused on the namespaced path) and handing over. The changes watch takes its slot before it
 * resolves anything, so a 429 costs no lookup, and shares the event watch's bounds and timings.
 */
import type { ClusterRegistry } from '../clusters/registry';
import type { CallContext, OperationHandlers } from '../context';
import type { EventWatchOptions } from '../events/watch/options';
import { ChangeReads, type ObjectQuery } from '../history/changes/reads-api';
import { ChangeWatches } from '../history/changes/reads-watch';
import type { Recorded } from '../history/index';

type ChangeOperations =
  | 'objectHistory'
  | 'namespacedObjectHistory'
  | 'objectAt'
  | 'namespacedObjectAt'
  | 'listChanges'
  | 'watchChanges';

interface ObjectParams {
  workspaceId: string;
  clusterId: string;
  resourceType: string;
  resourceName: string;
  namespace?: string;
}

export function changeHandlers(
  registry: ClusterRegistry,
  recorded: Recorded | undefined,
  watchOptions: EventWatchOptions = {},
  now: () => number = Date.now,
): Pick<OperationHandlers, ChangeOperations> {
  const reads = new ChangeReads({
    backend: recorded?.deps.backend ?? EMPTY_DB,
    writer: () => recorded?.changes,
    signals: recorded?.deps.backend,
    now,
  });
  const watches = new ChangeWatches(recorded?.deps.backend, watchOptions);

  async function object(params: ObjectParams, ctx: CallContext): Promise<ObjectQuery> {
    const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
    const namespaced = params.namespace !== undefined;
    const kind = await cluster.kind(params.resourceType, ctx.signal, namespaced ? { namespaced } : {});
    const access = registry.access(cluster, ctx.principal);
    return { cluster, kind, access, namespace: params.namespace, name: params.resourceName };
  }

  async function feed(
    params: { workspaceId: string; clusterId: string },
    query: { kind?: string | undefined; namespace?: string | undefined },
    ctx: CallContext,
  ) {
    const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
    const kind = query.kind === undefined ? undefined : await cluster.kind(query.kind, ctx.signal);
    const access = registry.access(cluster, ctx.principal);
    return { cluster, kind, access };
  }

  const history = async (
    params: ObjectParams,
    query: {
      since: Parameters<ChangeReads['range']>[1];
      until: Parameters<ChangeReads['range']>[2];
      limit: number;
      offset: number;
    },
    ctx: CallContext,
  ) => {
    const { items, total } = await reads.history(
      await object(params, ctx),
      query.since,
      query.until,
      query.limit,
      query.offset,
    );
    return { data: items, page: { total, limit: query.limit, offset: query.offset } };
  };

  return {
    objectHistory: ({ params, query }, ctx) => history(params, query, ctx),
    namespacedObjectHistory: ({ params, query }, ctx) => history(params, query, ctx),
    objectAt: async ({ params, query }, ctx) => ({
      data: await reads.at(await object(params, ctx), query.at),
    }),
    namespacedObjectAt: async ({ params, query }, ctx) => ({
      data: await reads.at(await object(params, ctx), query.at),
    }),
    async listChanges({ params, query }, ctx) {
      const { cluster, kind, access } = await feed(params, query, ctx);
      const q = { kind, namespace: query.namespace, since: query.since, until: query.until };
      const { items, total } = await reads.changes(cluster, access, q, query.limit, query.offset, ctx.signal);
      return { data: items, page: { total, limit: query.limit, offset: query.offset } };
    },
    async watchChanges({ params, query }, ctx) {
      const resolve = async () => {
        const { cluster, kind, access } = await feed(params, query, ctx);
        const q = { kind, namespace: query.namespace, since: query.since, until: query.until };
        const filter = await reads.feedFilter(cluster, access, q, ctx.signal);
        return {
          source: await reads.source(cluster),
          filter,
          refilter: access.open ? undefined : () => reads.feedFilter(cluster, access, q, ctx.signal),
        };
      };
      return { data: await watches.watch(resolve, query, ctx) };
    },
  };
}

/** Without the recorded features (a bare createHandlers in tests): nothing was ever recorded. */
const EMPTY_DB = {
  all: async () => [],
  get: async () => undefined,
  run: async () => 0,
};
