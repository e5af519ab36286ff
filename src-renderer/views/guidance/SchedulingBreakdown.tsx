import type { FailedSchedulingInfo, SchedulingReason } from '../../../src-shared/guidance';

function ReasonTable({ reasons, caption }: { reasons: SchedulingReason[]; caption: string }) {
  return (
    <table className="sched">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Nodes</th>
          <th scope="col">Why they were ruled out</th>
        </tr>
      </thead>
      <tbody>
        {reasons.map((r) => (
          <tr key={r.reason}>
            <td className="end sched-count">{r.count}</td>
            <td>
              <span className="sched-reason">{r.reason}</span>
              {r.hint && <span className="sched-hint">{r.hint}</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The scheduler's one-line verdict as a table: how many nodes were ruled out for which reason. */
export function SchedulingBreakdown({ info }: { info: FailedSchedulingInfo }) {
  return (
    <div className="sched-wrap" data-testid="scheduling-breakdown">
      <p>
        <strong>
          {info.available} of {info.total} nodes
        </strong>{' '}
        can take this pod.
      </p>
      <ReasonTable reasons={info.reasons} caption="Per-reason node counts" />
      {info.preemption && (
        <>
          <p className="muted">Preemption (evicting lower-priority pods): {info.preemption.message}</p>
          {info.preemption.reasons.length > 0 && (
            <ReasonTable reasons={info.preemption.reasons} caption="Preemption, per reason" />
          )}
        </>
      )}
    </div>
  );
}
