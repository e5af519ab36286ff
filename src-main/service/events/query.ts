/**
 * The filters every events read takes (the list, the timeline, the groups, the watch), resolved
 * into the one filter the live cache and the history both answer (HistoryFilter).
 *
 * Rules: relative durations count back from the instant the caller gives (clock.ts: a snapshot's
 * takenAt, else now; for a paged walk, its first page); kinds compare lower-cased; the monitoring
 * flags are part of the filter, so a disabled category is left out everywhere alike; so are the
 * namespaces the caller may list events in (access.ts), so every read cuts them alike.
 */
import type { MonitoringFlags } from '../../../src-shared/contract/models';
import type { HistoryFilter } from './history/filter';

type Instant = { instant: number } | { durationMs: number } | undefined;

/** The event filters every events read takes (the list, the timeline, the groups, the watch). */
export interface EventQuery {
  type?: 'NORMAL' | 'WARNING' | undefined;
  reason?: string | undefined;
  namespace?: string | undefined;
  kind?: string | undefined;
  name?: string | undefined;
  since?: Instant;
  until?: Instant;
}

const at = (p: Instant, asOf: number) =>
  p === undefined ? undefined : 'instant' in p ? p.instant : asOf - p.durationMs;

/** The request's filters resolved: durations counted back from `asOf`, the monitoring flags applied. */
export function resolveEventFilter(
  query: EventQuery,
  asOf: number,
  flags: MonitoringFlags,
  namespaces?: ReadonlySet<string>,
): HistoryFilter {
  const sinceMs = at(query.since, asOf);
  const untilMs = at(query.until, asOf);
  return {
    ...(query.type !== undefined ? { type: query.type } : {}),
    ...(query.reason !== undefined ? { reason: query.reason } : {}),
    ...(query.namespace !== undefined ? { namespace: query.namespace } : {}),
    ...(query.kind !== undefined ? { kind: query.kind.toLowerCase() } : {}),
    ...(query.name !== undefined ? { name: query.name } : {}),
    ...(sinceMs !== undefined ? { sinceMs } : {}),
    ...(untilMs !== undefined ? { untilMs } : {}),
    resourceEvents: flags.resourceEventsEnabled,
    systemEvents: flags.systemEventsEnabled,
    ...(namespaces !== undefined ? { namespaces } : {}),
  };
}
