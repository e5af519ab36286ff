// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src-shared/contract/models';
import type { IpcOutcome } from '../../../src-shared/ipc/channels';
import { notServed, selectCluster } from '../../state/clusters.test-support';
import { EventsView } from './EventsView';
import { useEventHistory } from './history-state';

/**
 * The timeline folds away: folded, the events feed asks nothing for it (the list still loads),
 * unfolded it is fetched again, and the choice is kept for the next window (localStorage).
 */

const cluster: Cluster = {
  clusterId: 'c',
  workspaceId: 'default',
  name: 'c',
  context: 'c',
  server: 'https://127.0.0.1:6443',
  status: 'connected',
  monitoring: { clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: true } } },
};

const calls: Record<string, number> = {};
const empty: IpcOutcome<unknown> = { ok: true, data: [], page: { total: 0, limit: 100, offset: 0 } };

beforeAll(() => {
  window.skiff = new Proxy({} as NonNullable<Window['skiff']>, {
    get: (_, name: string) => async () => {
      calls[name] = (calls[name] ?? 0) + 1;
      // Anything else, the timeline included, is a 404 here: this test counts the asking only.
      if (name === 'listEvents' || name === 'listResources') return empty;
      return notServed(name);
    },
  });
});
beforeEach(() => {
  for (const k of Object.keys(calls)) delete calls[k];
  selectCluster('c', [cluster], 'events');
  // The recorded history is polled (no live watch in this test).
  useEventHistory.setState({ showExpired: true, grouped: false });
});
afterEach(cleanup);

describe('EventsView timeline fold', () => {
  it('folded asks nothing for the timeline; unfolded fetches it; the choice is stored', async () => {
    useEventHistory.getState().setChartOpen(false);
    expect(window.localStorage.getItem('skiff.events.chartFolded')).toBe('1');
    render(<EventsView workspaceId="default" clusterId="c" />);
    expect(await screen.findByText('No events, and none recorded.', {}, { timeout: 10_000 })).toBeTruthy();
    const fold = screen.getByRole('button', { name: 'Timeline' });
    expect(fold.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByTestId('event-range-folded').textContent).toContain('All events');
    expect(screen.queryByTestId('event-range')).toBeNull();
    expect(calls.eventTimeline ?? 0).toBe(0);

    fireEvent.click(fold);
    expect(fold.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('event-range')).toBeTruthy();
    await expect.poll(() => calls.eventTimeline ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(window.localStorage.getItem('skiff.events.chartFolded')).toBeNull();
  });
});
