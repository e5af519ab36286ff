import { Fragment, type KeyboardEvent, type RefObject, useLayoutEffect, useRef, useState } from 'react';
import type { EventRecord } from '../../../src-shared/contract/models';
import { age, timestamp } from '../../kube/format';
import { Badge } from '../common/Badge';
import { type ActionTarget, GuidanceActions } from '../guidance/actions';
import { EventExplanation } from './EventExplanation';
import { eventObject } from './eventActions';

/** Below this width (rem) the box has no room for Type and Message columns beside recency. */
const COMPACT_REM = 44;

/** True while `ref`'s box is narrower than `rem` root ems (a detail pane, a small window). */
function useNarrow(ref: RefObject<HTMLElement | null>, rem: number): boolean {
  const [narrow, setNarrow] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const root = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      // A box not laid out (a hidden tab) says nothing about the room it will have.
      if (el.clientWidth > 0) setNarrow(el.clientWidth < rem * root);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, rem]);
  return narrow;
}

/**
 * Events as a table whose rows expand to their explanation. Arrow keys move between rows,
 * Enter (or clicking) expands. `showObject` adds the involved-object column (cluster-wide view).
 * Layout rule: recency (Count, First seen, Last seen) always shows without scrolling sideways.
 * Those columns have fixed narrow widths and every row is one line; reason, object and message
 * share the rest and are cut with an ellipsis, the whole text in their title and in the expanded
 * row. In a narrow box (a detail pane) Type and Message are not columns: the message sits under
 * the reason and a warning is the row's tint (and said to screen readers). The columns are left
 * out rather than hidden by CSS so the expanded row's colSpan always matches them.
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
  const box = useRef<HTMLDivElement>(null);
  const compact = useNarrow(box, COMPACT_REM);
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
  // The header's cells, in order; a narrow box (compact) leaves out Type and Message.
  const columns = (
    [
      ['Type', 'col-type', !compact],
      ['Reason', 'col-reason', true],
      ['Object', 'col-object', showObject],
      ['Message', 'col-message', !compact],
      ['Count', 'col-count end', true],
      ['First seen', 'col-seen', true],
      ['Last seen', 'col-seen', true],
    ] as const
  ).filter(([, , shown]) => shown);
  const cols = columns.length;
  return (
    <div className="events-table-box" ref={box}>
      <table
        className={`table events-table${showObject ? ' with-object' : ''}${compact ? ' compact' : ''}`}
        aria-label={label}
      >
        <thead>
          <tr>
            {columns.map(([label, className]) => (
              <th key={label} scope="col" className={className}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody ref={body} onKeyDown={onKey}>
          {events.map((e) => {
            const open = expanded === e.eventId;
            const o = e.involvedObject;
            const gone = expired?.has(e.eventId) ?? false;
            const warning = e.type === 'WARNING';
            const objectText = `${o.kind}/${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
            return (
              <Fragment key={e.eventId}>
                <tr
                  className={`event-row ${warning ? 'row-warn' : ''} ${open ? 'open' : ''} ${gone ? 'row-expired' : ''}`}
                >
                  {!compact && (
                    <td className="col-type">
                      <Badge tone={warning ? 'bad' : 'neutral'}>{warning ? 'Warning' : 'Normal'}</Badge>
                      {gone && (
                        <>
                          {' '}
                          <Badge
                            tone="neutral"
                            title="Recorded by Skiff; the cluster no longer has this event"
                          >
                            expired
                          </Badge>
                        </>
                      )}
                    </td>
                  )}
                  <td className="col-reason">
                    <button
                      type="button"
                      className="event-toggle link cut"
                      aria-expanded={open}
                      aria-controls={`event-${e.eventId}`}
                      title={e.reason}
                      onClick={() => onToggle(e.eventId)}
                    >
                      <span aria-hidden="true">{open ? '▾' : '▸'}</span> {e.reason}
                    </button>
                    {compact && (
                      <span className="event-inline cut" title={e.message}>
                        {(warning || gone) && (
                          <span className="sr-only">
                            {[warning ? 'Warning' : '', gone ? 'expired' : ''].filter(Boolean).join(', ')}:{' '}
                          </span>
                        )}
                        {e.message}
                      </span>
                    )}
                  </td>
                  {showObject && (
                    <td className="col-object cut" title={objectText}>
                      {onOpenObject && eventObject(e) ? (
                        <button type="button" className="link cut" onClick={() => onOpenObject(e)}>
                          {objectText}
                        </button>
                      ) : (
                        `${o.kind}/${o.name}`
                      )}
                    </td>
                  )}
                  {!compact && (
                    <td className="col-message cut event-message" title={e.message}>
                      {e.message}
                    </td>
                  )}
                  <td className="col-count end">{e.count}</td>
                  <td className="col-seen nowrap" title={timestamp(e.firstTimestamp)}>
                    {age(e.firstTimestamp)} ago
                  </td>
                  <td className="col-seen nowrap" title={timestamp(e.lastTimestamp)}>
                    {age(e.lastTimestamp)} ago
                  </td>
                </tr>
                {open && (
                  <tr className="event-detail" id={`event-${e.eventId}`}>
                    <td colSpan={cols}>
                      {/* The row cuts the message to one line; here it is whole. */}
                      <p className="event-full-message wrap">{e.message}</p>
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
    </div>
  );
}
