/**
 * Store setup shared by renderer tests: the state the app is in once its cluster list has loaded
 * and the person has picked a cluster. Tests set it in beforeEach; nothing here talks to a bridge.
 */
import type { Cluster } from '../../src-shared/contract/models';
import { useClusters } from './clusters';
import { type Area, useRoute } from './route';

/** `clusters` listed in the default workspace, `clusterId` selected, `area` shown. */
export function selectCluster(clusterId: string, clusters: Cluster[], area: Area): void {
  useClusters.setState({
    workspaces: [{ workspaceId: 'default', name: 'Default', groups: [] }],
    clusters,
    loaded: true,
    error: null,
  });
  useRoute.setState({ workspaceId: 'default', clusterId, area });
}

/** The answer a test's bridge gives for an operation it does not serve: 404 route_not_found. */
export const notServed = (name: string) =>
  ({
    ok: false,
    problem: { type: 'about:blank', title: 'x', status: 404, code: 'route_not_found', detail: name },
  }) as const;
