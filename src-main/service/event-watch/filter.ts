import type { EventEntry } from '../clusters/entries';
import type { EventFilter } from '../clusters/list-queries';

/** Whether one event passes the list's filters (the same rules as eventRows, for one entry). */
export function matchesEvent(e: EventEntry, f: EventFilter): boolean {
  return (
    (e.category === 'resource' ? f.resourceEvents : f.systemEvents) &&
    (f.type === undefined || e.type === f.type) &&
    (f.reason === undefined || e.reason === f.reason) &&
    (f.namespace === undefined || e.namespace === f.namespace) &&
    (f.kind === undefined || e.kindKey === f.kind) &&
    (f.name === undefined || e.name === f.name) &&
    (f.sinceMs === undefined || e.lastMs >= f.sinceMs) &&
    (f.untilMs === undefined || e.lastMs <= f.untilMs)
  );
}
