/**
 * The event watch (watchEvents): route -> operation -> feature. The handler rejects what does not
 * apply to a watch and hands the request to the events feature (events/watch/watches.ts), which
 * takes the watch's slot before it resolves the cluster, so a 429 costs no cluster work.
 *
 * Rules: no logic here beyond that; whatever a watch does lives in events/watch/.
 */
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { ProblemError } from '../errors';
import { EventWatches, eventsTarget } from '../events/index';
import type { EventWatchOptions } from '../events/watch/options';

export interface EventWatchHandlers extends Pick<OperationHandlers, 'watchEvents'> {
  /** Open watches, all credentials together (tests check that ended streams gave theirs back). */
  readonly openWatches: () => number;
  /** The watch's bounds and timings, which the changes watch shares (operations/changes.ts). */
  readonly options: EventWatchOptions;
}

export function eventWatchHandlers(
  registry: ClusterRegistry,
  options: EventWatchOptions = {},
  now: () => number = Date.now,
): EventWatchHandlers {
  const watches = new EventWatches(options, now);
  return {
    openWatches: () => watches.open,
    options,
    async watchEvents({ params, query }, ctx) {
      if (query.includeExpired) {
        throw new ProblemError(
          'invalid_query',
          'includeExpired does not apply to a watch: expired events no longer change; list them with includeExpired=true',
        );
      }
      const resolve = () => eventsTarget(registry, params, ctx.principal);
      return { data: await watches.watch(resolve, query, ctx) };
    },
  };
}
