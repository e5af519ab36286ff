import type { Cluster } from '../../../src-shared/contract/models';
import { clockTime, timestamp } from '../../kube/format';
import '../common/banner.css';
import './snapshots.css';

/**
 * Says, above every view, that what is on screen is a snapshot: which context, and when it was
 * taken (local time; with the date when not today). Nothing for a live cluster. Whoever may open
 * snapshots may close one here (`onClose`); closing takes it out of every cluster list.
 */
export function SnapshotBanner({
  cluster,
  now,
  onClose,
  closing = false,
  closeError = null,
}: {
  cluster: Cluster | undefined;
  now?: Date;
  /** Left out when this person may not close snapshots (only administrators may, in a browser). */
  onClose?: (cluster: Cluster) => void;
  closing?: boolean;
  closeError?: string | null;
}) {
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
      {onClose && (
        <button
          type="button"
          className="snapshot-close"
          disabled={closing}
          onClick={() => onClose(cluster)}
          title="Close this snapshot: it leaves the cluster list, here and in every later session"
        >
          {closing ? 'Closing…' : 'Close snapshot'}
        </button>
      )}
      {closeError && (
        <p className="snapshot-close-error" role="alert" data-testid="snapshot-close-error">
          {closeError}
        </p>
      )}
    </div>
  );
}
