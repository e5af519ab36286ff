/**
 * The events feature: everything a cluster's Kubernetes events go through, from the cluster's
 * watch to the API's list, timeline, groups and watch. operations/events.ts and
 * operations/event-watch.ts only validate a request and call one function exported here.
 *
 * What lives where:
 * - normalise.ts  an Event (core/v1 or events.k8s.io) as one record, and the one order of events;
 * - entries.ts    what the event cache keeps of each event, its keys and indexes, the API record;
 * - filter.ts     which events pass a request's filters, and the rows of a cache view that do;
 * - clock.ts      the instant relative durations count back from (a snapshot's takenAt, else now);
 * - target.ts     the cluster and monitoring flags of a request, resolved once at its edge;
 * - query.ts      a request's filters resolved into the filter the cache and the history answer;
 * - source.ts     where a read answers from: the synced event cache, or the recorded history;
 * - list.ts       listEvents; aggregates.ts: eventTimeline and eventGroups;
 * - feed.ts       the numbered change feed of a cluster's event cache (Last-Event-ID resume);
 * - watch/        the event watch: slots per credential, framing (SSE, NDJSON), the stream;
 * - history/      the recorded history: recorder, SQLite store, filters, aggregates, retention;
 * - *.it.test.ts  the feature over real HTTP against the service and the simulator (watch/ and
 *                 history/ hold their own).
 *
 * Rules: nothing here imports operations/ or http/ (the feature knows no transport); only
 * target.ts asks the registry anything; the event cache itself is built by the cluster
 * connection (clusters/cluster.ts), which hands it the feed's and the history's observers.
 */
export { eventGroups, eventTimeline } from './aggregates';
export { EventHistory, type EventHistoryOptions, type HistorySubject } from './history/index';
export { listEvents } from './list';
export { type EventsTarget, eventsTarget } from './target';
export { EventWatches } from './watch/watches';
