import { useState } from 'react';
import { objectEvents, type Scope } from '../../../api/queries';
import { usePolling } from '../../../hooks/usePolling';
import { api } from '../../../state/connection';
import { Empty, Loading, ProblemNotice } from '../../common/Problem';
import { EventsTable } from '../../events/EventsTable';

/** The object's own events, from the events endpoint (a fetched resource never carries them); `kind` is its Kind. */
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
  const key = `${scope.clusterId}/${kind}/${namespace ?? ''}/${name}`;
  const events = usePolling(key, (signal) => objectEvents(api(), scope, kind, name, namespace, signal), {
    intervalMs: 5000,
  });
  const [expanded, setExpanded] = useState<string | null>(null);
  if (events.loading && !events.data) return <Loading label="Loading events…" />;
  return (
    <div className="object-events">
      {events.error && <ProblemNotice error={events.error} what="events" />}
      {events.data &&
        (events.data.items.length === 0 ? (
          <Empty>
            No events for this {kind}. Kubernetes keeps events for about an hour, so a quiet object has none.
          </Empty>
        ) : (
          <>
            <p className="muted">
              {events.data.total} event{events.data.total === 1 ? '' : 's'}; expand one for what it means.
            </p>
            <EventsTable
              events={events.data.items}
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
