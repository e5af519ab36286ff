import { useEffect, useId, useRef, useState } from 'react';
import { isDnsLabel } from '../../../src-shared/kube/names';
import { useDebounced } from '../../hooks/useDebounced';
import { usePolling } from '../../hooks/usePolling';
import { age } from '../../kube/format';
import { useCurrentCluster } from '../../state/clusters';
import { EMPTY_FILTERS, useEventsView, useLiveEvents } from '../../state/events';
import { useRoute } from '../../state/route';
import { Empty, Loading, ProblemNotice, problemText } from '../common/Problem';
import { StaleBanner } from '../common/StaleBanner';
import { EventFilterBar } from './EventFilterBar';
import { EventGroupsTable } from './EventGroupsTable';
import { EventsTable } from './EventsTable';
import { EventTimelinePanel } from './EventTimelinePanel';
import { fetchEvents, fetchGroups } from './event-fetch';
import { eventActionTarget, eventObject } from './eventActions';
import { isEmptyRange, rangeQuery } from './history-range';
import { useEventHistory } from './history-state';
import './events.css';
import './history.css';

const PAGE = 100;
const NO_EXPIRED: Set<string> = new Set();

/**
 * Cluster-wide events, newest first: the timeline over the chosen range, then the filtered list
 * (or its groups by object and reason), paged by scrolling, refreshed by polling.
 */
export function EventsView({ workspaceId, clusterId }: { workspaceId: string; clusterId: string }) {
  const f = useEventsView();
  const h = useEventHistory();
  const select = useRoute((s) => s.select);
  // On a snapshot the service counts durations back from when it was taken; the range says so.
  const current = useCurrentCluster();
  const takenAt = current?.status === 'snapshot' ? current.takenAt : undefined;
  const [count, setCount] = useState(PAGE);
  const settled = useDebounced(
    { reason: f.reason.trim(), namespace: f.namespace.trim(), kind: f.kind, name: f.name.trim() },
    300,
  );
  const nsValid = settled.namespace === '' || isDnsLabel(settled.namespace);
  const query: Record<string, string> = {
    ...(f.warningsOnly ? { type: 'WARNING' } : {}),
    ...(settled.reason ? { reason: settled.reason } : {}),
    ...(settled.namespace && nsValid ? { namespace: settled.namespace } : {}),
    ...(settled.kind ? { kind: settled.kind } : {}),
    ...(settled.name ? { name: settled.name } : {}),
    ...rangeQuery(h.range),
    ...(h.showExpired ? { includeExpired: 'true' } : {}),
  };
  const scope = { workspaceId, clusterId };
  const filterKey = `${workspaceId}/${clusterId}/${h.grouped ? 'groups' : 'events'}/${JSON.stringify(query)}`;
  // A new filter starts from the first page again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKey is the trigger, not an input
  useEffect(() => setCount(PAGE), [filterKey]);
  // The plain list follows the live watch; groups and the recorded history are polled, and so is
  // the list while its watch is down (a reconnect with Last-Event-ID is under way meanwhile).
  const liveMode = !h.grouped && !h.showExpired;
  const live = useLiveEvents(liveMode ? scope : null, query, count);
  const polling = !liveMode || live.down;
  const rows = usePolling(
    polling ? `${filterKey}/${count}` : null,
    async (signal) =>
      h.grouped
        ? { kind: 'groups' as const, ...(await fetchGroups(scope, query, count, signal)) }
        : { kind: 'events' as const, ...(await fetchEvents(scope, query, count, signal)) },
    { intervalMs: 5000, keepPrevious: true },
  );
  const sentinel = useRef<HTMLDivElement>(null);
  const liveData =
    liveMode && live.events && !polling
      ? {
          kind: 'events' as const,
          items: live.events,
          total: live.total,
          expired: NO_EXPIRED,
          ...(live.watch.kind === 'live' && live.watch.stale ? { staleSince: live.watch.stale } : {}),
        }
      : undefined;
  const data = liveData ?? rows.data;
  const more = data ? data.items.length < data.total : false;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !more) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !rows.fetching) setCount((c) => c + PAGE);
    });
    io.observe(el);
    return () => io.disconnect();
  }, [more, rows.fetching]);

  const headingId = useId();
  const filtered =
    !isEmptyRange(h.range) ||
    (Object.keys(EMPTY_FILTERS) as Array<keyof typeof EMPTY_FILTERS>).some((k) => f[k] !== EMPTY_FILTERS[k]);
  const noun = data?.kind === 'groups' ? 'groups' : 'events';
  return (
    <section className="events-view" aria-labelledby={headingId} data-testid="events-view">
      <header className="list-head">
        <h2 id={headingId}>Events</h2>
        <p className="list-count" aria-live="polite">
          {data ? `${data.items.length} of ${data.total} ${noun}` : ''}
        </p>
        <p className="list-updated muted">
          {takenAt
            ? `snapshot taken ${age(takenAt)} ago`
            : liveData
              ? 'live'
              : rows.updatedAt
                ? `updated ${age(new Date(rows.updatedAt).toISOString())} ago`
                : ''}
          {rows.fetching && <span className="dot-busy" aria-hidden="true" />}
        </p>
      </header>
      <StaleBanner staleSince={data?.staleSince} />
      <EventFilterBar
        scope={scope}
        namespaceError={nsValid ? null : 'a namespace is a DNS label: lower-case letters, digits and "-"'}
      />
      <EventTimelinePanel
        scope={scope}
        query={query}
        range={h.range}
        onRange={h.setRange}
        changes={liveData ? live.changes : undefined}
        takenAt={takenAt}
      />
      {rows.error && data && (
        <p className="stale" role="status">
          Showing the last answer; the latest refresh failed: {problemText(rows.error)}
        </p>
      )}
      {rows.error && !data && <ProblemNotice error={rows.error} what="events" />}
      {!data && !rows.error && <Loading label="Loading events…" />}
      {data && data.items.length === 0 && (
        <Empty>
          {filtered
            ? 'No events match these filters.'
            : h.showExpired
              ? 'No events, and none recorded.'
              : 'No events. Kubernetes keeps events for about an hour; “Show expired” adds the ones Skiff recorded.'}
        </Empty>
      )}
      {data && data.items.length > 0 && (
        <div className="events-scroll">
          {data.kind === 'groups' ? (
            <EventGroupsTable
              groups={data.items}
              onOpenObject={(g) => {
                const ref = eventObject({ involvedObject: g.involvedObject });
                return ref ? () => select(ref) : null;
              }}
            />
          ) : (
            <EventsTable
              events={data.items}
              expired={data.expired}
              expanded={f.expanded}
              onToggle={f.toggle}
              showObject
              label="Cluster events"
              actionsFor={eventActionTarget}
              onOpenObject={(e) => {
                const ref = eventObject(e);
                if (ref) select(ref);
              }}
            />
          )}
          {more && (
            <div ref={sentinel} className="load-more">
              <button type="button" onClick={() => setCount((c) => c + PAGE)} disabled={rows.fetching}>
                {rows.fetching ? 'Loading…' : `Load ${PAGE} more`}
              </button>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
