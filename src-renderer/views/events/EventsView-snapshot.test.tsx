// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src-shared/contract/models';
import type { IpcOutcome } from '../../../src-shared/ipc/channels';
import { useClusters } from '../../state/clusters';
import { useRoute } from '../../state/route';
import { EventsView } from './EventsView';
import { useEventHistory } from './history-state';

/** A snapshot's events do not claim to be fresh: the header says when the snapshot was taken. */

const cluster = (status: Cluster['status'], takenAt?: string): Cluster => ({
  clusterId: 'snap',
  workspaceId: 'default',
  name: 'snap',
  context: 'snap',
  server: 'https://127.0.0.1:6443',
  status,
  ...(takenAt ? { takenAt } : {}),
  monitoring: { clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: true } } },
});

const empty: IpcOutcome<unknown> = { ok: true, data: [], page: { total: 0, limit: 100, offset: 0 } };

beforeAll(() => {
  window.skiff = new Proxy({} as NonNullable<Window['skiff']>, {
    get: (_, name: string) => async () =>
      name === 'listEvents' || name === 'listResources'
        ? empty
        : {
            ok: false,
            problem: { type: 'about:blank', title: 'x', status: 404, code: 'route_not_found', detail: name },
          },
  });
});
beforeEach(() => {
  useRoute.setState({ workspaceId: 'default', clusterId: 'snap', area: 'events' });
  useEventHistory.setState({ showExpired: true, grouped: false });
});
afterEach(cleanup);

function header(status: Cluster['status'], takenAt?: string) {
  useClusters.setState({
    workspaces: [{ workspaceId: 'default', name: 'Default', groups: [] }],
    clusters: [cluster(status, takenAt)],
    loaded: true,
    error: null,
  });
  const { container } = render(<EventsView workspaceId="default" clusterId="snap" />);
  return () => container.querySelector('.list-updated')?.textContent ?? '';
}

describe('EventsView header', () => {
  it('of a snapshot says when it was taken, not "updated 0s ago"', async () => {
    const text = header('snapshot', '2026-01-02T03:04:05Z');
    await expect.poll(text, { timeout: 10_000 }).toMatch(/^snapshot taken /);
  });
  it('of a live cluster polled says how fresh it is', async () => {
    const text = header('connected');
    await expect.poll(text, { timeout: 10_000 }).toMatch(/^(updated \S+ ago|live)/);
  });
});
