import type { EventRecord } from '../../../src-shared/contract/models';
import { guidanceForReason, messageChecks, parseFailedScheduling } from '../../../src-shared/guidance';
import { RESOURCE_KINDS, type ResourceType } from '../../../src-shared/kube/kinds';
import type { Scope } from '../../api/queries';
import { usePolling } from '../../hooks/usePolling';
import { age } from '../../kube/format';
import { api } from '../../state/connection';
import { GuidanceCard, StepLinks } from './GuidanceCard';
import { SchedulingBreakdown } from './SchedulingBreakdown';
import { useCheckedSteps } from './useCheckedSteps';

/** The latest warning per reason: repeated BackOff events are one problem, not fifty. */
function latestPerReason(events: EventRecord[]): EventRecord[] {
  const byReason = new Map<string, EventRecord>();
  for (const e of events) {
    const seen = byReason.get(e.reason);
    if (!seen || e.lastTimestamp > seen.lastTimestamp) byReason.set(e.reason, e);
  }
  return [...byReason.values()].sort((a, b) => b.lastTimestamp.localeCompare(a.lastTimestamp));
}

/**
 * Warning events of the object, explained in place: the status says what state it is in, the
 * events often say why (the image that was not found, the volume that would not mount). The
 * objects a message names ("configmap "app-config" not found") are steps of its explanation,
 * each linked and looked up, so a missing one is marked.
 */
export function RecentWarnings({
  scope,
  kind,
  name,
  namespace,
  skipScheduling,
  lead = false,
}: {
  scope: Scope;
  kind: ResourceType;
  name: string;
  namespace: string | undefined;
  /** The status already showed the scheduler's verdict; do not show it twice. */
  skipScheduling?: boolean;
  /** The events explain the object better than its status: the newest explained one opens. */
  lead?: boolean;
}) {
  const warnings = usePolling(
    `${scope.clusterId}/warnings/${kind}/${namespace ?? ''}/${name}`,
    async (signal) =>
      (
        await api().call(
          'listEvents',
          {
            params: scope,
            query: {
              kind: RESOURCE_KINDS[kind].kind,
              name,
              ...(namespace ? { namespace } : {}),
              type: 'WARNING',
              limit: '50',
            },
          },
          { signal },
        )
      ).data,
    { intervalMs: 10_000 },
  );
  const latest = latestPerReason(warnings.data ?? []);
  // One look-up for every event's steps; each event then takes back its own slice.
  const perEvent = latest.map((e) => messageChecks(e.message, namespace));
  const checked = useCheckedSteps(scope, perEvent.flat());
  const offsets = perEvent.map((_, i) => perEvent.slice(0, i).reduce((n, l) => n + l.length, 0));
  if (latest.length === 0) return null;
  const opened = lead ? latest.find((e) => guidanceForReason(e.reason, 'event-reason'))?.reason : undefined;
  return (
    <div className="recent-warnings" data-testid="recent-warnings">
      <p className="guidance-label">What the cluster reported</p>
      <ul className="findings">
        {latest.map((e, i) => {
          const entry = guidanceForReason(e.reason, 'event-reason');
          const mine = checked.slice(offsets[i], offsets[i]! + perEvent[i]!.length);
          const scheduling =
            e.reason === 'FailedScheduling' && !skipScheduling ? parseFailedScheduling(e.message) : null;
          return (
            <li key={e.reason} className="finding finding-warning">
              <p className="finding-title">
                <span className="sev sev-warning">event</span> {e.reason}{' '}
                <span className="muted">
                  ×{e.count}, last {age(e.lastTimestamp)} ago
                </span>
              </p>
              <blockquote className="finding-message">{e.message}</blockquote>
              {scheduling && <SchedulingBreakdown info={scheduling} />}
              {entry && (
                <GuidanceCard
                  entry={entry}
                  values={{
                    name,
                    ...(namespace ? { namespace } : {}),
                    ...(kind === 'pod' ? { pod: name } : {}),
                  }}
                  open={e.reason === opened}
                  steps={mine}
                />
              )}
              {!entry && mine.length > 0 && <StepLinks steps={mine} />}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
