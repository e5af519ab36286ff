// First, so that the frame's rules come before those of the views inside it, as in the one stylesheet they came from.
import './layout.css';
import { useEffect } from 'react';
import type { Cluster } from '../../../src-shared/contract/models';
import { useClusters, useCurrentCluster } from '../../state/clusters';
import { useKindsPolling } from '../../state/kinds';
import { useRoute } from '../../state/route';
import { useSnapshots } from '../../state/snapshots';
import { Empty, Loading } from '../common/Problem';
import { EventsView } from '../events/EventsView';
import { ResourceTree } from '../navigation/ResourceTree';
import { ClusterStatusBadge, Switchers } from '../navigation/Switchers';
import { CommandPalette, usePaletteShortcuts } from '../palette/CommandPalette';
import { ResourcesArea } from '../resources/ResourcesArea';
import { SecurityView } from '../security/SecurityView';
import { SettingsView } from '../settings/SettingsView';
import { SnapshotBanner } from '../snapshots/SnapshotBanner';
import { SnapshotDropTarget } from '../snapshots/SnapshotDropTarget';
import { Header } from './Header';

/** Cluster statuses are re-read every few seconds so the switcher shows an outage, and its end, by itself. */
function useClusterPolling() {
  const refresh = useClusters((s) => s.refresh);
  useEffect(() => {
    void refresh();
    const t = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, 5000);
    return () => clearInterval(t);
  }, [refresh]);
}

function ClusterBound({
  children,
}: {
  children: (workspaceId: string, clusterId: string) => React.ReactNode;
}) {
  const { loaded, clusters, error } = useClusters();
  const workspaceId = useRoute((s) => s.workspaceId);
  const cluster = useCurrentCluster();
  if (!loaded) return <Loading label="Loading clusters…" />;
  if (!cluster || !workspaceId) {
    return (
      <Empty>
        {error
          ? `Clusters could not be listed: ${error}`
          : clusters.length === 0
            ? 'This workspace has no clusters. Add a kubeconfig file or assign clusters in Settings.'
            : 'Choose a cluster.'}
      </Empty>
    );
  }
  return (
    <>
      {cluster.status !== 'connected' && cluster.status !== 'snapshot' && (
        <div className="notice notice-warn" role="alert" data-testid="cluster-down">
          <strong>
            {cluster.name} is{' '}
            {cluster.status === 'unreachable' ? 'unreachable' : 'refusing Skiff’s credentials'}
          </strong>
          <p>
            {cluster.status === 'unreachable'
              ? `Skiff cannot reach ${cluster.server}. It keeps retrying, waiting a little longer after each failure; this view recovers by itself when the cluster answers.`
              : 'The cluster answered but did not accept the kubeconfig credentials. Refresh them (for example by logging in to your cloud CLI).'}
          </p>
        </div>
      )}
      {children(workspaceId, cluster.clusterId)}
    </>
  );
}

/** The snapshot banner, with its Close control for whoever may open (and so close) snapshots. */
function ClosableSnapshotBanner({ cluster }: { cluster: Cluster | undefined }) {
  const canClose = useSnapshots((s) => s.canOpen);
  const closing = useSnapshots((s) => s.closing);
  const closeError = useSnapshots((s) => s.closeError);
  const closeSnapshot = useSnapshots((s) => s.closeSnapshot);
  return (
    <SnapshotBanner
      cluster={cluster}
      {...(canClose ? { onClose: (c: Cluster) => void closeSnapshot(c) } : {})}
      closing={closing !== null && closing === cluster?.clusterId}
      closeError={closeError}
    />
  );
}

export function Shell() {
  useClusterPolling();
  usePaletteShortcuts();
  const area = useRoute((s) => s.area);
  const cluster = useCurrentCluster();
  useKindsPolling(cluster ? { workspaceId: cluster.workspaceId, clusterId: cluster.clusterId } : null);
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Header />
      <div className="app-body">
        <aside className="sidebar" aria-label="Navigation">
          <Switchers />
          {cluster ? (
            <ResourceTree cluster={cluster} />
          ) : (
            <p className="muted sidebar-note">No cluster selected.</p>
          )}
          {cluster && cluster.status !== 'connected' && cluster.status !== 'snapshot' && (
            <p className="sidebar-note">
              <ClusterStatusBadge status={cluster.status} /> counts will return with the cluster.
            </p>
          )}
        </aside>
        <main id="main" className="main" tabIndex={-1}>
          <ClosableSnapshotBanner cluster={cluster} />
          {area === 'resources' && (
            <ClusterBound>{(ws, cl) => <ResourcesArea workspaceId={ws} clusterId={cl} />}</ClusterBound>
          )}
          {area === 'events' && (
            <ClusterBound>{(ws, cl) => <EventsView workspaceId={ws} clusterId={cl} />}</ClusterBound>
          )}
          {area === 'security' && <SecurityView />}
          {area === 'settings' && <SettingsView />}
        </main>
      </div>
      <SnapshotDropTarget />
      <CommandPalette />
    </div>
  );
}
