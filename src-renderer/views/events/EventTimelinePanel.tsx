import { useMemo } from 'react';
import type { Scope } from '../../api/queries';
import { usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';
import { isClusterDown, Loading, ProblemNotice } from '../common/Problem';
import type { TimeRange } from './history-range';
import { RangeControls } from './RangeControls';
import { TimelineChart } from './TimelineChart';
import { timelineSeries } from './timeline-series';

/** Enough bars to see a burst, few enough that each stays a few pixels wide. */
const BUCKETS = 60;

/**
 * The timeline above the events table: the same filters and range as the table, refreshed by the
 * same polling, and the place the range is chosen (drag, presets, inputs).
 */
export function EventTimelinePanel({
  scope,
  query,
  range,
  onRange,
  changes,
  takenAt,
}: {
  scope: Scope;
  /** The table's filters with the range and includeExpired, without paging. */
  query: Record<string, string>;
  range: TimeRange;
  onRange: (r: TimeRange) => void;
  /** While the table follows the live watch: its change count; the timeline refetches on it instead of polling. */
  changes?: number | undefined;
  /** A snapshot's takenAt: the presets count back from it. */
  takenAt?: string | undefined;
}) {
  const key = `${scope.workspaceId}/${scope.clusterId}/timeline/${JSON.stringify(query)}${changes === undefined ? '' : `/${changes}`}`;
  const timeline = usePolling(
    key,
    async (signal) =>
      (
        await api().call(
          'eventTimeline',
          { params: scope, query: { ...query, buckets: String(BUCKETS) } },
          { signal },
        )
      ).data,
    { intervalMs: changes === undefined ? 5000 : 0, keepPrevious: true },
  );
  const series = useMemo(() => (timeline.data ? timelineSeries(timeline.data) : null), [timeline.data]);
  return (
    <section className="event-history" aria-label="Event timeline">
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
    </section>
  );
}
