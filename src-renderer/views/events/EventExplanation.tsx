import type { EventRecord } from '../../../src-shared/contract/models';
import { guidanceForReason, parseFailedScheduling } from '../../../src-shared/guidance';
import { GuidanceCard } from '../guidance/GuidanceCard';
import { SchedulingBreakdown } from '../guidance/SchedulingBreakdown';

/** What an event means: the scheduler's verdict as node counts, and the knowledge base's entry for its reason. */
export function EventExplanation({ event }: { event: EventRecord }) {
  const entry = guidanceForReason(event.reason, 'event-reason');
  const scheduling = event.reason === 'FailedScheduling' ? parseFailedScheduling(event.message) : null;
  const o = event.involvedObject;
  const values = {
    name: o.name,
    namespace: o.namespace || undefined,
    ...(o.kind === 'Pod' ? { pod: o.name } : {}),
    ...(o.kind === 'Node' ? { node: o.name } : { node: event.source.host || undefined }),
  };
  return (
    <div className="event-explanation" data-testid="event-explanation">
      <p className="muted">
        From {event.source.component || 'unknown component'}
        {event.source.host ? ` on ${event.source.host}` : ''}.
      </p>
      {scheduling && <SchedulingBreakdown info={scheduling} />}
      {entry ? (
        <GuidanceCard entry={entry} values={values} headingLevel={4} />
      ) : (
        <p className="muted">
          Skiff has no explanation for the reason “{event.reason}” yet; the message above is what the cluster
          said.
        </p>
      )}
    </div>
  );
}
