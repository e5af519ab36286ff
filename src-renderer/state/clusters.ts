import { create } from 'zustand';
import type { Cluster, Workspace } from '../../src-shared/contract/models';
import { ApiError } from '../api';
import { api } from './connection';
import { useRoute } from './route';

interface ClustersState {
  workspaces: Workspace[];
  /** Clusters of the selected workspace, with their connection status. */
  clusters: Cluster[];
  loaded: boolean;
  error: string | null;
  refresh(): Promise<void>;
  /** Replaces one cluster after an update answered it, so the switcher does not wait for the next poll. */
  put(cluster: Cluster): void;
}

function detail(err: unknown): string {
  return err instanceof ApiError ? err.problem.detail : (err as Error).message;
}

export const useClusters = create<ClustersState>()((set, get) => ({
  workspaces: [],
  clusters: [],
  loaded: false,
  error: null,

  async refresh() {
    try {
      const ws = await api().call('listWorkspaces', { params: {}, query: { limit: '1000' } });
      const route = useRoute.getState();
      const workspaceId =
        route.workspaceId && ws.data.some((w) => w.workspaceId === route.workspaceId)
          ? route.workspaceId
          : (ws.data[0]?.workspaceId ?? null);
      let clusters: Cluster[] = [];
      if (workspaceId) {
        clusters = (await api().call('listClusters', { params: { workspaceId }, query: { limit: '1000' } }))
          .data;
      }
      set({ workspaces: ws.data, clusters, loaded: true, error: null });
      const clusterId =
        route.clusterId && clusters.some((c) => c.clusterId === route.clusterId)
          ? route.clusterId
          : (clusters.find((c) => c.status === 'connected')?.clusterId ?? clusters[0]?.clusterId ?? null);
      if (workspaceId !== route.workspaceId || clusterId !== route.clusterId) {
        useRoute.getState().go({ workspaceId, clusterId });
      }
    } catch (err) {
      // Keep what was known: a service hiccup should not empty the switcher.
      set({ loaded: true, error: detail(err) });
    }
  },

  put(cluster) {
    set({ clusters: get().clusters.map((c) => (c.clusterId === cluster.clusterId ? cluster : c)) });
  },
}));

export function useCurrentCluster(): Cluster | undefined {
  const clusterId = useRoute((s) => s.clusterId);
  return useClusters((s) => s.clusters.find((c) => c.clusterId === clusterId));
}
