import type { Cluster } from '../../../src-shared/contract/models';
import { clockTime, timestamp } from '../../kube/format';
import '../common/banner.css';
import './snapshots.css';

/**
 * Says, above every view, that what is on screen is a snapshot: which context, and when it was
 * taken (local time; with the date when not today). Nothing for a live cluster.
 */
export function SnapshotBanner({ cluster, now }: { cluster: Cluster | undefined; now?: Date }) {
  if (cluster?.status !== 'snapshot') return null;
  const taken = cluster.takenAt ? clockTime(cluster.takenAt, now) : null;
  return (
    <div className="banner banner-neutral snapshot-banner" role="status" data-testid="snapshot-banner">
      <strong>
        Snapshot of {cluster.context} taken{' '}
        {taken && cluster.takenAt ? (
          <time dateTime={cluster.takenAt} title={timestamp(cluster.takenAt)}>
            {taken}
          </time>
        ) : (
          'at an unknown time'
        )}
      </strong>
      <span className="banner-note">
        {' '}
        Read-only: the cluster as it was then. Nothing here reaches the cluster.
      </span>
    </div>
  );
}
