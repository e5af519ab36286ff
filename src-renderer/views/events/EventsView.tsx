import { useEffect, useId, useRef, useState } from 'react';
import type { EventRecord } from '../../../src-shared/contract/models';
import { MAX_PAGE_LIMIT } from '../../../src-shared/contract/params';
import { isDnsLabel } from '../../../src-shared/kube/names';
import { oldestStaleSince, type Scope } from '../../api/queries';
import { useDebounced } from '../../hooks/useDebounced';
import { usePolling } from '../../hooks/usePolling';
import { age } from '../../kube/format';
import { api } from '../../state/connection';
import { EMPTY_FILTERS, useEventsView } from '../../state/events';
import { useRoute } from '../../state/route';
import { Empty, Loading, ProblemNotice, problemText } from '../common/Problem';
import { StaleBanner } from '../common/StaleBanner';
import { EventFilterBar } from './EventFilterBar';
import { EventsTable } from './EventsTable';
import { eventActionTarget, eventObject } from './eventActions';

const PAGE = 100;

interface Loaded {
  items: EventRecord[];
  total: number;
  /** Set when the service answered from a cache whose watch is broken. */
  staleSince?: string;
}

async function fetchEvents(
  scope: Scope,
  query: Record<string, string>,
  count: number,
  signal: AbortSignal,
): Promise<Loaded> {
  const items: EventRecord[] = [];
  const replies: Array<{ staleSince?: string }> = [];
  let total = 0;
  // The service pages at most MAX_PAGE_LIMIT; what is on screen is re-read from the top each refresh.
  for (let offset = 0; offset < count; offset += MAX_PAGE_LIMIT) {
    const limit = Math.min(MAX_PAGE_LIMIT, count - offset);
    const r = await api().call(
      'listEvents',
      { params: scope, query: { ...query, limit: String(limit), offset: String(offset) } },
      { signal },
    );
    items.push(...r.data);
    replies.push(r);
    total = r.page?.total ?? items.length;
    if (r.data.length < limit) break;
  }
  const staleSince = oldestStaleSince(replies);
  return { items, total, ...(staleSince ? { staleSince } : {}) };
}

/** Cluster-wide events, newest first, filtered, paged by scrolling, refreshed live. */
export function EventsView({ workspaceId, clusterId }: { workspaceId: string; clusterId: string }) {
  const f = useEventsView();
  const select = useRoute((s) => s.select);
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
  };
  const scope = { workspaceId, clusterId };
  const filterKey = `${workspaceId}/${clusterId}/${JSON.stringify(query)}`;
  // A new filter starts from the first page again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKey is the trigger, not an input
  useEffect(() => setCount(PAGE), [filterKey]);
  const events = usePolling(`${filterKey}/${count}`, (signal) => fetchEvents(scope, query, count, signal), {
    intervalMs: 5000,
    keepPrevious: true,
  });
  const sentinel = useRef<HTMLDivElement>(null);
  const more = events.data ? events.data.items.length < events.data.total : false;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !more) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !events.fetching) setCount((c) => c + PAGE);
    });
    io.observe(el);
    return () => io.disconnect();
  }, [more, events.fetching]);

  const headingId = useId();
  const filtered = (Object.keys(EMPTY_FILTERS) as Array<keyof typeof EMPTY_FILTERS>).some(
    (k) => f[k] !== EMPTY_FILTERS[k],
  );
  return (
    <section className="events-view" aria-labelledby={headingId} data-testid="events-view">
      <header className="list-head">
        <h2 id={headingId}>Events</h2>
        <p className="list-count" aria-live="polite">
          {events.data ? `${events.data.items.length} of ${events.data.total} events` : ''}
        </p>
        <p className="list-updated muted">
          {events.updatedAt ? `updated ${age(new Date(events.updatedAt).toISOString())} ago` : ''}
          {events.fetching && <span className="dot-busy" aria-hidden="true" />}
        </p>
      </header>
      <StaleBanner staleSince={events.data?.staleSince} />
      <EventFilterBar
        scope={scope}
        namespaceError={nsValid ? null : 'a namespace is a DNS label: lower-case letters, digits and "-"'}
      />
      {events.error && events.data && (
        <p className="stale" role="status">
          Showing the last answer; the latest refresh failed: {problemText(events.error)}
        </p>
      )}
      {events.error && !events.data && <ProblemNotice error={events.error} what="events" />}
      {!events.data && !events.error && <Loading label="Loading events…" />}
      {events.data && events.data.items.length === 0 && (
        <Empty>
          {filtered
            ? 'No events match these filters.'
            : 'No events. Kubernetes keeps events for about an hour.'}
        </Empty>
      )}
      {events.data && events.data.items.length > 0 && (
        <div className="events-scroll">
          <EventsTable
            events={events.data.items}
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
          {more && (
            <div ref={sentinel} className="load-more">
              <button type="button" onClick={() => setCount((c) => c + PAGE)} disabled={events.fetching}>
                {events.fetching ? 'Loading…' : `Load ${PAGE} more`}
              </button>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
