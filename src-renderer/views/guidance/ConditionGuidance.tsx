import { findGuidance, type GuidanceSubject, type PlaceholderValues } from '../../../src-shared/guidance';
import { age } from '../../kube/format';
import type { Condition } from '../../kube/meta';
import { ConditionBadge } from '../common/Badge';
import { GuidanceCard } from './GuidanceCard';

/** Which status of a condition type is the healthy one (pressure conditions are healthy when False). */
export function healthyStatus(subject: GuidanceSubject, type: string): string {
  if (subject === 'node-condition' && type !== 'Ready') return 'False';
  if (subject === 'deployment-condition' && type === 'ReplicaFailure') return 'False';
  if (type === 'DisruptionTarget') return 'False';
  return 'True';
}

/** The entry for an unhealthy condition: by type and status, then by the reason it gives. */
export function conditionGuidance(subject: GuidanceSubject, c: Condition) {
  if (c.status === healthyStatus(subject, c.type)) return undefined;
  return findGuidance(subject, c.type, c.status) ?? (c.reason ? findGuidance(subject, c.reason) : undefined);
}

/**
 * A conditions table; unhealthy rows carry their explanation beneath them, unless the pane
 * explains the object elsewhere (`guidance` false).
 */
export function ConditionsTable({
  conditions,
  subject,
  values,
  guidance = true,
}: {
  conditions: Condition[] | undefined;
  subject: GuidanceSubject;
  values: PlaceholderValues;
  guidance?: boolean;
}) {
  if (!conditions?.length) return <p className="muted">No conditions reported.</p>;
  return (
    <div className="conditions">
      <table className="table conditions-table">
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Reason and message</th>
          </tr>
        </thead>
        <tbody>
          {conditions.map((c) => (
            <tr key={c.type} data-condition={c.type}>
              <td className="nowrap">{c.type}</td>
              <td>
                <ConditionBadge status={c.status} healthy={c.status === healthyStatus(subject, c.type)} />
              </td>
              <td className="wrap">
                {c.reason && <strong>{c.reason}</strong>}
                {c.lastTransitionTime && (
                  <span className="muted"> · since {age(c.lastTransitionTime)} ago</span>
                )}
                {c.message && <div className="muted">{c.message}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {conditions.map((c) => {
        const entry = guidance ? conditionGuidance(subject, c) : undefined;
        return entry ? <GuidanceCard key={c.type} entry={entry} values={values} /> : null;
      })}
    </div>
  );
}
