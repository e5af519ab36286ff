import { usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';

/**
 * Every cluster the service loaded: the default workspace holds them all. Settings lists them as
 * the loaded kubeconfig contexts and as the pool to assign to workspaces; one key, one fetch.
 */
export function useAllClusters() {
  return usePolling(
    'settings/all-clusters',
    async (signal) =>
      (
        await api().call(
          'listClusters',
          { params: { workspaceId: 'default' }, query: { limit: '1000' } },
          { signal },
        )
      ).data,
    { intervalMs: 0 },
  );
}
