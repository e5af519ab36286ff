import type { Cluster } from '../../../src-shared/contract/models';
import { OpenSnapshot } from './OpenSnapshot';
import { TakeSnapshot } from './TakeSnapshot';
import './snapshots.css';

/** The snapshot actions under the cluster switcher: take one of a live cluster, open one from a file. */
export function SnapshotActions({
  workspaceId,
  cluster,
}: {
  workspaceId: string | null;
  cluster: Cluster | undefined;
}) {
  return (
    <div className="snapshot-actions">
      {workspaceId && cluster?.status === 'connected' && (
        <TakeSnapshot workspaceId={workspaceId} cluster={cluster} />
      )}
      <OpenSnapshot />
    </div>
  );
}
