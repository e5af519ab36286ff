import type { EventRecord } from '../../../src-shared/contract/models';
import { eventRecord } from '../clusters/entries';
import { eventRows } from '../clusters/list-queries';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { serialisedPage } from '../pagination';

export function eventHandlers(registry: ClusterRegistry): Pick<OperationHandlers, 'listEvents'> {
  return {
    async listEvents({ params, query }, ctx) {
      const cluster = registry.cluster(params.workspaceId, params.clusterId, ctx.principal);
      const flags = registry.monitoring(cluster.clusterId);
      const cache = cluster.events();
      await cache.acquire(ctx.signal);
      const read = cache.read(query.snapshot);
      // A duration counts back from the walk's first page, so every page agrees on the cut.
      const sinceMs =
        query.since === undefined
          ? undefined
          : 'instant' in query.since
            ? query.since.instant
            : read.asOf - query.since.durationMs;
      const rows = eventRows(read.snapshot, {
        ...(query.type !== undefined ? { type: query.type } : {}),
        ...(query.reason !== undefined ? { reason: query.reason } : {}),
        ...(query.namespace !== undefined ? { namespace: query.namespace } : {}),
        ...(query.kind !== undefined ? { kind: query.kind.toLowerCase() } : {}),
        ...(query.name !== undefined ? { name: query.name } : {}),
        ...(sinceMs !== undefined ? { sinceMs } : {}),
        resourceEvents: flags.resourceEventsEnabled,
        systemEvents: flags.systemEventsEnabled,
      });
      return serialisedPage<(typeof rows)[number], EventRecord>(
        rows,
        query.limit,
        query.offset,
        (e) => JSON.stringify(eventRecord(e, params.workspaceId)),
        read,
      );
    },
  };
}
