import { Fragment, type KeyboardEvent, useRef } from 'react';
import type { EventRecord } from '../../../src-shared/contract/models';
import { age, timestamp } from '../../kube/format';
import { Badge } from '../common/Badge';
import { type ActionTarget, GuidanceActions } from '../guidance/actions';
import { EventExplanation } from './EventExplanation';
import { eventObject } from './eventActions';

/**
 * Events as a table whose rows expand to their explanation. Arrow keys move between rows,
 * Enter (or clicking) expands. `showObject` adds the involved-object column (cluster-wide view).
 */
export function EventsTable({
  events,
  expanded,
  onToggle,
  showObject,
  onOpenObject,
  actionsFor,
  label,
  expired,
}: {
  events: EventRecord[];
  expanded: string | null;
  onToggle: (eventId: string) => void;
  showObject: boolean;
  onOpenObject?: (e: EventRecord) => void;
  /** Guidance buttons' target per event; absent: the surrounding provider's (the object pane's). */
  actionsFor?: (e: EventRecord) => ActionTarget;
  label: string;
  /** Recorded events the cluster no longer has (eventIds): shown muted with an "expired" badge. */
  expired?: ReadonlySet<string>;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  const onKey = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const toggles = Array.from(
      body.current?.querySelectorAll<HTMLButtonElement>('button.event-toggle') ?? [],
    );
    const i = toggles.indexOf(document.activeElement as HTMLButtonElement);
    const next = toggles[e.key === 'ArrowDown' ? i + 1 : i - 1];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };
  const cols = showObject ? 7 : 6;
  return (
    <table className="table events-table" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col">Reason</th>
          {showObject && <th scope="col">Object</th>}
          <th scope="col">Message</th>
          <th scope="col" className="end">
            Count
          </th>
          <th scope="col">First seen</th>
          <th scope="col">Last seen</th>
        </tr>
      </thead>
      <tbody ref={body} onKeyDown={onKey}>
        {events.map((e) => {
          const open = expanded === e.eventId;
          const o = e.involvedObject;
          const gone = expired?.has(e.eventId) ?? false;
          return (
            <Fragment key={e.eventId}>
              <tr
                className={`event-row ${e.type === 'WARNING' ? 'row-warn' : ''} ${open ? 'open' : ''} ${gone ? 'row-expired' : ''}`}
              >
                <td className="nowrap">
                  <Badge tone={e.type === 'WARNING' ? 'bad' : 'neutral'}>
                    {e.type === 'WARNING' ? 'Warning' : 'Normal'}
                  </Badge>
                  {gone && (
                    <>
                      {' '}
                      <Badge tone="neutral" title="Recorded by Skiff; the cluster no longer has this event">
                        expired
                      </Badge>
                    </>
                  )}
                </td>
                <td>
                  <button
                    type="button"
                    className="event-toggle link"
                    aria-expanded={open}
                    aria-controls={`event-${e.eventId}`}
                    onClick={() => onToggle(e.eventId)}
                  >
                    <span aria-hidden="true">{open ? '▾' : '▸'}</span> {e.reason}
                  </button>
                </td>
                {showObject && (
                  <td>
                    {onOpenObject && eventObject(e) ? (
                      <button type="button" className="link" onClick={() => onOpenObject(e)}>
                        {o.kind}/{o.namespace ? `${o.namespace}/` : ''}
                        {o.name}
                      </button>
                    ) : (
                      `${o.kind}/${o.name}`
                    )}
                  </td>
                )}
                <td className="wrap event-message">{e.message}</td>
                <td className="end">{e.count}</td>
                <td className="nowrap" title={timestamp(e.firstTimestamp)}>
                  {age(e.firstTimestamp)} ago
                </td>
                <td className="nowrap" title={timestamp(e.lastTimestamp)}>
                  {age(e.lastTimestamp)} ago
                </td>
              </tr>
              {open && (
                <tr className="event-detail" id={`event-${e.eventId}`}>
                  <td colSpan={cols}>
                    {actionsFor ? (
                      <GuidanceActions.Provider value={actionsFor(e)}>
                        <EventExplanation event={e} />
                      </GuidanceActions.Provider>
                    ) : (
                      <EventExplanation event={e} />
                    )}
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
