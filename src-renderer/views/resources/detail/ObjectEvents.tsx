import { useMemo, useState } from 'react';
import type { Scope } from '../../../api/queries';
import { Empty, Loading, ProblemNotice } from '../../common/Problem';
import { EventsTable } from '../../events/EventsTable';
import { useEventsFeed } from '../../events/useEventsFeed';

/** The most an object's tab lists; an object with more is a storm, and the Events view pages it. */
const COUNT = 200;

/**
 * The object's own events (a fetched resource never carries them); `kind` is its Kind. They come
 * from the same feed as the Events view, filtered to this object: live from the watch, polled
 * while the watch is down.
 */
export function ObjectEvents({
  scope,
  kind,
  name,
  namespace,
}: {
  scope: Scope;
  kind: string;
  name: string;
  namespace: string | undefined;
}) {
  const query = useMemo(() => ({ kind, name, ...(namespace ? { namespace } : {}) }), [kind, name, namespace]);
  const feed = useEventsFeed({ scope, query, count: COUNT });
  const [expanded, setExpanded] = useState<string | null>(null);
  const data = feed.data?.kind === 'events' ? feed.data : undefined;
  if (!data && !feed.error) return <Loading label="Loading events…" />;
  return (
    <div className="object-events">
      {feed.error && <ProblemNotice error={feed.error} what="events" />}
      {data &&
        (data.items.length === 0 ? (
          <Empty>
            No events for this {kind}. Kubernetes keeps events for about an hour, so a quiet object has none.
          </Empty>
        ) : (
          <>
            <p className="muted">
              {data.total} event{data.total === 1 ? '' : 's'}; expand one for what it means.
            </p>
            <EventsTable
              events={data.items}
              expanded={expanded}
              onToggle={(id) => setExpanded(expanded === id ? null : id)}
              showObject={false}
              label={`Events of ${name}`}
            />
          </>
        ))}
    </div>
  );
}
