/**
 * The clock relative durations count back from, for events and logs alike.
 *
 * Rules: a snapshot's durations count back from when it was taken, any other cluster's from now;
 * absolute instants never move; the answer always leaves every duration the contract accepts a
 * valid instant.
 */
import { durationClock } from '../../../src-shared/contract/time-range';
import type { ClusterConnection } from '../clusters/cluster';

/**
 * The instant a cluster's relative durations count back from: `since`/`until` of the events list,
 * timeline, groups and watch (and the timeline's open end), and of the logs. For a snapshot that
 * is when it was taken (the connection knows it is one: ClusterConnection.snapshot): nothing in it
 * is newer, so counting from now would leave `since=15m` on yesterday's snapshot empty. For any
 * other cluster it is `now`. Absolute instants never move. Whatever the snapshot claims, the
 * answer is kept where every duration the contract accepts still counts back to a valid instant
 * (time-range.ts), so resolving one never makes an invalid Date.
 */
export function durationsEnd(cluster: Pick<ClusterConnection, 'snapshot'>, now: number): number {
  const taken = Date.parse(cluster.snapshot?.takenAt ?? '');
  return durationClock(Number.isNaN(taken) ? now : taken);
}
