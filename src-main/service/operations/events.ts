/**
 * The events reads (listEvents, eventTimeline, eventGroups): route -> operation -> feature. The
 * contract has validated the request already; each handler resolves the request's cluster once
 * (events/target.ts) and calls one function of the events feature (service/events/) with it.
 *
 * Rules: no logic here beyond that; whatever an events read does lives in events/.
 */
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { type EventHistory, eventGroups, eventsTarget, eventTimeline, listEvents } from '../events/index';

export function eventHandlers(
  registry: ClusterRegistry,
  history: EventHistory,
  now: () => number = Date.now,
): Pick<OperationHandlers, 'listEvents' | 'eventTimeline' | 'eventGroups'> {
  return {
    listEvents: ({ params, query }, ctx) =>
      listEvents(eventsTarget(registry, params, ctx.principal), history, query, ctx.signal, now),
    eventTimeline: ({ params, query }, ctx) =>
      eventTimeline(eventsTarget(registry, params, ctx.principal), history, query, ctx.signal, now),
    eventGroups: ({ params, query }, ctx) =>
      eventGroups(eventsTarget(registry, params, ctx.principal), history, query, ctx.signal, now),
  };
}
