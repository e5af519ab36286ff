// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import type { IpcOutcome } from '../../../src-shared/ipc/channels';
import { notServed, selectCluster } from '../../state/clusters.test-support';
import { EventsView } from './EventsView';
import { useEventHistory } from './history-state';

/**
 * The events view while the service is still receiving the cluster's events (503
 * cluster_syncing): it shows how many have arrived so far, as loading rather than as an error,
 * and asks again after Retry-After until the list answers.
 */

const cluster: Cluster = {
  clusterId: 'big',
  workspaceId: 'default',
  name: 'big',
  context: 'big',
  server: 'https://127.0.0.1:6443',
  status: 'connected',
  monitoring: { clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: true } } },
};

const syncing = (items: number, remaining?: number): IpcOutcome<never> => ({
  ok: false,
  problem: {
    type: 'https://skiff.dev/problems/cluster-syncing',
    title: 'Service Unavailable',
    status: 503,
    code: 'cluster_syncing',
    detail: `the first list of /api/v1/events is still arriving from the cluster (${items} objects so far)`,
    progress: { items, ...(remaining !== undefined ? { remaining } : {}) },
    retryAfterSeconds: 1,
  } as Problem,
});

/** What the fake service answers listEvents with, call by call; the last one repeats. */
let answers: IpcOutcome<unknown>[] = [];
let listCalls = 0;

type Handler = () => IpcOutcome<unknown>;
const handlers: Record<string, Handler> = {
  listEvents: () => answers[Math.min(listCalls++, answers.length - 1)]!,
  eventTimeline: () => syncing(1_200),
  listResources: () => ({ ok: true, data: [], page: { total: 0, limit: 500, offset: 0 } }),
};

beforeAll(() => {
  window.skiff = new Proxy({} as NonNullable<Window['skiff']>, {
    get: (_, name: string) => async () => handlers[name]?.() ?? notServed(name),
  });
});
beforeEach(() => {
  listCalls = 0;
  selectCluster('big', [cluster], 'events');
  // The recorded history is polled (no live watch in this test).
  useEventHistory.setState({ showExpired: true, grouped: false });
});
afterEach(cleanup);

describe('EventsView while the cluster’s events are still arriving', () => {
  it('shows the count so far as loading, not as an error, and asks again until the list answers', async () => {
    answers = [
      syncing(1_200, 98_800),
      syncing(54_000),
      { ok: true, data: [], page: { total: 0, limit: 100, offset: 0 } },
    ];
    render(<EventsView workspaceId="default" clusterId="big" />);
    const first = `Loading events from the cluster… ${(1_200).toLocaleString()} so far, about ${(98_800).toLocaleString()} to go`;
    expect(await screen.findByText(first)).toBeTruthy();
    expect(screen.getByText(first).closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    // The timeline says the same in its own words.
    expect(
      screen.getByText(`Loading the event timeline from the cluster… ${(1_200).toLocaleString()} so far`),
    ).toBeTruthy();

    const second = `Loading events from the cluster… ${(54_000).toLocaleString()} so far`;
    expect(await screen.findByText(second, {}, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByText('No events, and none recorded.', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(listCalls).toBe(3);
  });

  it('still shows any other failure as an error', async () => {
    answers = [
      {
        ok: false,
        problem: {
          type: 'about:blank',
          title: 'Gateway Timeout',
          status: 504,
          code: 'cluster_timeout',
          detail: 'the cluster did not answer within 10 s',
        },
      },
    ];
    render(<EventsView workspaceId="default" clusterId="big" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The cluster cannot be reached');
    expect(alert.textContent).toContain('the cluster did not answer within 10 s');
    expect(screen.queryByText(/Loading events from the cluster/)).toBeNull();
  });
});
