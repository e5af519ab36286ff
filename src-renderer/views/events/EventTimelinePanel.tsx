import { useId, useMemo } from 'react';
import type { EventTimeline } from '../../../src-shared/contract/event-history-models';
import type { ApiError } from '../../api';
import { timestamp } from '../../kube/format';
import { isClusterDown, Loading, ProblemNotice } from '../common/Problem';
import { describeRange, type TimeRange } from './history-range';
import { RangeControls } from './RangeControls';
import { TimelineChart } from './TimelineChart';
import { timelineSeries } from './timeline-series';

/**
 * The timeline above the events table: the same filters and range as the table (its data comes
 * from the view's events feed, which fetches it only while unfolded), and the place the range is
 * chosen (drag, presets, inputs). It folds to one line that still says the range in force, so a
 * folded chart never hides why the table shows what it shows.
 */
export function EventTimelinePanel({
  timeline,
  range,
  onRange,
  takenAt,
  open,
  onOpen,
}: {
  timeline: { data: EventTimeline | undefined; error: ApiError | Error | null };
  range: TimeRange;
  onRange: (r: TimeRange) => void;
  /** A snapshot's takenAt: the presets count back from it. */
  takenAt?: string | undefined;
  open: boolean;
  onOpen: (open: boolean) => void;
}) {
  const bodyId = useId();
  const series = useMemo(() => (timeline.data ? timelineSeries(timeline.data) : null), [timeline.data]);
  return (
    <section className="event-history" aria-label="Event timeline" data-open={open}>
      <div className="event-history-head">
        <button
          type="button"
          className="fold"
          aria-expanded={open}
          aria-controls={open ? bodyId : undefined}
          onClick={() => onOpen(!open)}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> Timeline
        </button>
        {!open && (
          <p className="range-folded muted" data-testid="event-range-folded">
            Range: {describeRange(range, timestamp, takenAt)}
          </p>
        )}
      </div>
      {open && (
        <div id={bodyId} className="event-history-body">
          <RangeControls range={range} onChange={onRange} takenAt={takenAt} />
          {series && <TimelineChart series={series} onSelect={onRange} />}
          {/* A cluster that is down is already said once, by the events table below. */}
          {!series && timeline.error && isClusterDown(timeline.error) && (
            <p className="muted">No timeline while the cluster is unreachable.</p>
          )}
          {!series && timeline.error && !isClusterDown(timeline.error) && (
            <ProblemNotice error={timeline.error} what="the event timeline" />
          )}
          {!series && !timeline.error && <Loading label="Loading the timeline…" />}
        </div>
      )}
    </section>
  );
}
