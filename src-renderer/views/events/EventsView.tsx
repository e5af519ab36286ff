import { useEffect, useId, useRef, useState } from 'react';
import { isDnsLabel } from '../../../src-shared/kube/names';
import { useDebounced } from '../../hooks/useDebounced';
import { age } from '../../kube/format';
import { useCurrentCluster } from '../../state/clusters';
import { EMPTY_FILTERS, useEventsView } from '../../state/events';
import { useRoute } from '../../state/route';
import { Empty, Loading, ProblemNotice, problemText } from '../common/Problem';
import { StaleBanner } from '../common/StaleBanner';
import { EventFilterBar } from './EventFilterBar';
import { EventGroupsTable } from './EventGroupsTable';
import { EventsTable } from './EventsTable';
import { EventTimelinePanel } from './EventTimelinePanel';
import { eventActionTarget, eventObject } from './eventActions';
import { isEmptyRange, rangeQuery } from './history-range';
import { useEventHistory } from './history-state';
import { useEventsFeed } from './useEventsFeed';
import './events.css';
import './history.css';

const PAGE = 100;

/**
 * Cluster-wide events, newest first: the timeline over the chosen range, then the filtered list
 * (or its groups by object and reason), paged by scrolling. Its data, live or polled, and the
 * timeline's come from one hook (useEventsFeed); the view only lays them out.
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
  const feed = useEventsFeed({
    scope,
    query,
    count,
    grouped: h.grouped,
    expired: h.showExpired,
    timeline: h.chartOpen,
  });
  const sentinel = useRef<HTMLDivElement>(null);
  const data = feed.data;
  const more = data ? data.items.length < data.total : false;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !more) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !feed.fetching) setCount((c) => c + PAGE);
    });
    io.observe(el);
    return () => io.disconnect();
  }, [more, feed.fetching]);

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
            : feed.live
              ? 'live'
              : feed.updatedAt
                ? `updated ${age(new Date(feed.updatedAt).toISOString())} ago`
                : ''}
          {feed.fetching && <span className="dot-busy" aria-hidden="true" />}
        </p>
      </header>
      <StaleBanner staleSince={data?.staleSince} />
      <EventFilterBar
        scope={scope}
        namespaceError={nsValid ? null : 'a namespace is a DNS label: lower-case letters, digits and "-"'}
      />
      <EventTimelinePanel
        timeline={feed.timeline}
        range={h.range}
        onRange={h.setRange}
        takenAt={takenAt}
        open={h.chartOpen}
        onOpen={h.setChartOpen}
      />
      {feed.error && data && (
        <p className="stale" role="status">
          Showing the last answer; the latest refresh failed: {problemText(feed.error)}
        </p>
      )}
      {feed.error && !data && <ProblemNotice error={feed.error} what="events" />}
      {!data && !feed.error && <Loading label="Loading events…" />}
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
              <button type="button" onClick={() => setCount((c) => c + PAGE)} disabled={feed.fetching}>
                {feed.fetching ? 'Loading…' : `Load ${PAGE} more`}
              </button>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
