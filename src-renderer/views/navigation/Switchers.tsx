import { useId } from 'react';
import type { Cluster, ClusterStatus } from '../../../src-shared/contract/models';
import { clockTime, timestamp } from '../../kube/format';
import { useClusters } from '../../state/clusters';
import { useRoute } from '../../state/route';
import { Badge } from '../common/Badge';
import { SnapshotActions } from '../snapshots/SnapshotActions';

const STATUS_TEXT: Record<ClusterStatus, string> = {
  connected: 'connected',
  unreachable: 'unreachable',
  unauthorized: 'credentials refused',
  snapshot: 'snapshot',
};

export function ClusterStatusBadge({ status }: { status: ClusterStatus }) {
  return (
    <Badge
      tone={
        status === 'connected'
          ? 'ok'
          : status === 'snapshot'
            ? 'neutral'
            : status === 'unreachable'
              ? 'bad'
              : 'warn'
      }
    >
      {STATUS_TEXT[status]}
    </Badge>
  );
}

/** A snapshot says when it was taken, so two snapshots of one context can be told apart. */
function optionLabel(c: Cluster): string {
  if (c.status !== 'snapshot') return `${c.name} (${STATUS_TEXT[c.status]})`;
  const taken = c.takenAt ? clockTime(c.takenAt) : null;
  return `${c.context} (snapshot${taken ? ` taken ${taken}` : ''})`;
}

/** Workspace and cluster pickers; each cluster option says whether Skiff can reach it right now. */
export function Switchers() {
  const { workspaces, clusters } = useClusters();
  const workspaceId = useRoute((s) => s.workspaceId);
  const clusterId = useRoute((s) => s.clusterId);
  const go = useRoute((s) => s.go);
  const wsId = useId();
  const clId = useId();
  const current = clusters.find((c) => c.clusterId === clusterId);
  return (
    <div className="switchers">
      <div className="field">
        <label htmlFor={wsId}>Workspace</label>
        <select
          id={wsId}
          value={workspaceId ?? ''}
          onChange={(e) => {
            go({ workspaceId: e.target.value, clusterId: null, selected: null });
            void useClusters.getState().refresh();
          }}
        >
          {workspaces.map((w) => (
            <option key={w.workspaceId} value={w.workspaceId}>
              {w.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={clId}>Cluster</label>
        <select
          id={clId}
          value={clusterId ?? ''}
          disabled={clusters.length === 0}
          onChange={(e) => go({ clusterId: e.target.value, selected: null })}
        >
          {clusters.length === 0 && <option value="">no clusters</option>}
          {clusters.map((c) => (
            <option key={c.clusterId} value={c.clusterId}>
              {optionLabel(c)}
            </option>
          ))}
        </select>
      </div>
      {current && (
        <p className="cluster-status" data-testid="cluster-status">
          <ClusterStatusBadge status={current.status} />
          {current.kubernetesVersion && <span className="muted"> {current.kubernetesVersion}</span>}
          {current.status !== 'snapshot' && current.lastSyncedAt && clockTime(current.lastSyncedAt) && (
            <span className="muted" data-testid="cluster-synced">
              {' '}
              · data as of{' '}
              <time dateTime={current.lastSyncedAt} title={timestamp(current.lastSyncedAt)}>
                {clockTime(current.lastSyncedAt)}
              </time>
            </span>
          )}
        </p>
      )}
      <SnapshotActions workspaceId={workspaceId} cluster={current} />
    </div>
  );
}
