// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src-shared/contract/models';
import { useClusters } from '../../state/clusters';
import { useRoute } from '../../state/route';
import { CLUSTER, EVENTS, NS, PODS, WORKSPACE } from './fixtures/cluster.test-support';
import { fakeBridge } from './fixtures/fake-bridge.test-support';
import { ResourceList } from './ResourceList';

/** A snapshot's list does not claim to be fresh: it says when the snapshot was taken. */

const scope = { workspaceId: WORKSPACE, clusterId: CLUSTER };

function cluster(status: Cluster['status'], takenAt?: string): Cluster {
  return {
    clusterId: CLUSTER,
    workspaceId: WORKSPACE,
    name: 'c',
    context: 'c',
    server: 'https://c',
    status,
    ...(takenAt ? { takenAt } : {}),
    monitoring: { clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: true } } },
  };
}

beforeAll(() => {
  window.skiff = fakeBridge(Object.values(PODS), EVENTS);
  useRoute.setState({ workspaceId: WORKSPACE, clusterId: CLUSTER });
});
afterEach(cleanup);

describe('the list header', () => {
  it('of a snapshot says when it was taken, not "updated 0s ago"', async () => {
    useClusters.setState({ clusters: [cluster('snapshot', '2026-01-02T03:04:05Z')] });
    const { container } = render(<ResourceList scope={scope} kind="pod" namespace={NS} />);
    await screen.findAllByText(/pods?$/);
    const updated = container.querySelector('.list-updated');
    await expect.poll(() => updated?.textContent ?? '').toMatch(/^snapshot taken /);
    expect(updated?.textContent).not.toMatch(/updated/);
  });
  it('of a live cluster says how fresh it is', async () => {
    useClusters.setState({ clusters: [cluster('connected')] });
    const { container } = render(<ResourceList scope={scope} kind="pod" namespace={NS} />);
    const updated = () => container.querySelector('.list-updated')?.textContent ?? '';
    await expect.poll(updated).toMatch(/^updated \S+ ago/);
  });
});
