import type { EventGroup } from '../../../src-shared/contract/event-history-models';
import { age, timestamp } from '../../kube/format';
import { Badge } from '../common/Badge';

/** A group's object as the events list writes it: Kind/namespace/name. */
const objectText = (o: EventGroup['involvedObject']) =>
  `${o.kind}/${o.namespace ? `${o.namespace}/` : ''}${o.name}`;

/**
 * The events grouped by involved object and reason, with the occurrences summed: one row says
 * "this pod failed to mount 212 times over 9 events" where the flat list repeats it nine times.
 */
export function EventGroupsTable({
  groups,
  onOpenObject,
}: {
  groups: EventGroup[];
  /** Opens the object when Skiff browses its kind; absent (or null for the kind): plain text. */
  onOpenObject?: (g: EventGroup) => (() => void) | null;
}) {
  return (
    <table className="table events-table event-groups" aria-label="Event groups">
      <thead>
        <tr>
          <th scope="col">Object</th>
          <th scope="col">Reason</th>
          <th scope="col">Type</th>
          <th scope="col" className="end">
            Count
          </th>
          <th scope="col" className="end">
            Events
          </th>
          <th scope="col">Last seen</th>
          <th scope="col">Message</th>
        </tr>
      </thead>
      <tbody>
        {groups.map((g) => {
          const o = g.involvedObject;
          const open = onOpenObject?.(g) ?? null;
          const key = `${o.kind}/${o.namespace}/${o.name}/${o.uid}/${g.reason}/${g.type}`;
          return (
            <tr key={key} className={`event-group-row ${g.type === 'WARNING' ? 'row-warn' : ''}`}>
              <td>
                {open ? (
                  <button type="button" className="link" onClick={open}>
                    {objectText(o)}
                  </button>
                ) : (
                  objectText(o)
                )}
              </td>
              <td className="nowrap">{g.reason}</td>
              <td className="nowrap">
                <Badge tone={g.type === 'WARNING' ? 'bad' : 'neutral'}>
                  {g.type === 'WARNING' ? 'Warning' : 'Normal'}
                </Badge>
              </td>
              <td className="end group-count">{g.count}</td>
              <td className="end">{g.events}</td>
              <td
                className="nowrap"
                title={`first ${timestamp(g.firstTimestamp)}, last ${timestamp(g.lastTimestamp)}`}
              >
                {age(g.lastTimestamp)} ago
              </td>
              <td className="wrap event-message">{g.message}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
