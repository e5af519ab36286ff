import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { framingFor } from '../events/watch/framing';
import { type EventWatchOptions, resolveWatchOptions } from '../events/watch/options';
import { WatchSlots } from '../events/watch/slots';
import { watchStream } from '../events/watch/stream';
import { durationsEnd } from '../events/clock';
import { resolveEventFilter, syncedEvents } from './events';

export interface EventWatchHandlers extends Pick<OperationHandlers, 'watchEvents'> {
  /** Open watches, all credentials together (tests check that ended streams gave theirs back). */
  readonly openWatches: () => number;
}

/**
 * The event watch (watchEvents): the same filters as the list, answered as a stream of changes
 * from the cluster's event feed (events/feed.ts; framing, resume and bounds in
 * events/watch/). Its slot is taken before anything else so a 429 costs no cluster work.
 */
export function eventWatchHandlers(
  registry: ClusterRegistry,
  options: EventWatchOptions = {},
  now: () => number = Date.now,
): EventWatchHandlers {
  const opts = resolveWatchOptions(options);
  const slots = new WatchSlots(opts.maxPerCredential);
  return {
    openWatches: () => slots.total,
    async watchEvents({ params, query }, ctx) {
      if (query.includeExpired) {
        throw new ProblemError(
          'invalid_query',
          'includeExpired does not apply to a watch: expired events no longer change; list them with includeExpired=true',
        );
      }
      const release = slots.take(ctx.principal);
      try {
        const { cluster, cache } = await syncedEvents(registry, params, ctx);
        const asOf = durationsEnd(cluster, now());
        const stop = new AbortController();
        const framing = framingFor(ctx.mediaType ?? 'text/event-stream', opts.retryMs);
        // A client that leaves before the first chunk was pulled never runs the stream's own cleanup.
        ctx.signal.addEventListener('abort', release, { once: true });
        return {
          data: {
            contentType: framing.contentType,
            stop: stop.signal,
            chunks: watchStream({
              feed: cluster.eventFeed,
              cache,
              workspaceId: params.workspaceId,
              filter: () => resolveEventFilter(query, asOf, registry.monitoring(cluster.clusterId)),
              framing,
              // An empty id is none, as EventSource treats it.
              lastEventId: query.lastEventId || undefined,
              sendInitial: query.sendInitialEvents !== false,
              options: opts,
              recheck: ctx.recheck,
              signal: ctx.signal,
              stop,
              onEnd: release,
            }),
          },
        };
      } catch (err) {
        release();
        throw err;
      }
    },
  };
}
