import type { EventRecord } from '../../../src-shared/contract/models';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { type ClusterEvent, toRecord } from '../events/normalise';
import { paginate } from '../pagination';

export function eventHandlers(
  registry: ClusterRegistry,
  now: () => number,
): Pick<OperationHandlers, 'listEvents'> {
  return {
    async listEvents({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const flags = registry.monitoring(cluster.clusterId);
      const cache = cluster.events();
      await cache.acquire(ctx.signal);
      const since =
        query.since === undefined
          ? undefined
          : 'instant' in query.since
            ? query.since.instant
            : now() - query.since.durationMs;
      const kind = query.kind?.toLowerCase();
      const keep = (e: ClusterEvent) =>
        (e.category === 'resource' ? flags.resourceEventsEnabled : flags.systemEventsEnabled) &&
        (query.type === undefined || e.type === query.type) &&
        (query.reason === undefined || e.reason === query.reason) &&
        (query.namespace === undefined || e.involvedObject.namespace === query.namespace) &&
        (kind === undefined || e.involvedObject.kind.toLowerCase() === kind) &&
        (query.name === undefined || e.involvedObject.name === query.name) &&
        (since === undefined || e.lastMs >= since);
      const all = cache.snapshot();
      const filtered = all.filter(keep);
      const { items, page } = paginate(filtered, query.limit, query.offset);
      const data: EventRecord[] = items.map((e) => toRecord(e, params.workspaceId));
      return { data, page };
    },
  };
}
