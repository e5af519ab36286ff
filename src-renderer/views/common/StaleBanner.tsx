import { clockTime, timestamp } from '../../kube/format';
import { useCurrentCluster } from '../../state/clusters';
import './banner.css';
import './StaleBanner.css';

/**
 * Says that what is on screen is the last known state, not the cluster's present one: the
 * service answered from a cache whose watch is broken (x-Stale-Since). Renders nothing for a fresh
 * answer, so it goes away by itself with the first fresh poll.
 */
export function StaleBanner({ staleSince }: { staleSince: string | undefined }) {
  // A snapshot is old on purpose and never reaches a cluster; its own banner says when it was taken.
  const snapshot = useCurrentCluster()?.status === 'snapshot';
  if (!staleSince || snapshot) return null;
  const shown = clockTime(staleSince);
  if (shown === null) return null;
  return (
    <p className="banner banner-warn stale-banner" role="status" data-testid="stale-banner">
      <strong>
        Data as of{' '}
        <time dateTime={staleSince} title={timestamp(staleSince)}>
          {shown}
        </time>
        , cluster unreachable
      </strong>
      <span className="banner-note">
        {' '}
        Skiff keeps retrying; this updates by itself when the cluster answers.
      </span>
    </p>
  );
}
