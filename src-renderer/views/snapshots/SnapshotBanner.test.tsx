// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src-shared/contract/models';
import { useClusters } from '../../state/clusters';
import { useRoute } from '../../state/route';
import { StaleBanner } from '../common/StaleBanner';
import { Switchers } from '../navigation/Switchers';
import { SnapshotBanner } from './SnapshotBanner';

/**
 * A snapshot cluster as the person sees it: a banner saying whose snapshot it is and when it was
 * taken, no "cluster unreachable" staleness, and a switcher that calls it a snapshot.
 */

const monitoring = {
  clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: true } },
};

/** Local wall-clock times, so the expectations hold in every time zone the tests run in. */
const local = (y: number, mo: number, d: number, h: number, mi: number) => new Date(y, mo - 1, d, h, mi);

const TAKEN = local(2026, 11, 24, 14, 3);

const snapshot: Cluster = {
  clusterId: 'prod-eu-snapshot-20261124t140300z',
  workspaceId: 'default',
  name: 'prod-eu (snapshot)',
  context: 'prod-eu',
  server: 'https://prod-eu.example:6443',
  status: 'snapshot',
  takenAt: TAKEN.toISOString(),
  monitoring,
};
const live: Cluster = {
  clusterId: 'prod-eu',
  workspaceId: 'default',
  name: 'prod-eu',
  context: 'prod-eu',
  server: 'https://prod-eu.example:6443',
  status: 'connected',
  monitoring,
};

beforeEach(() => {
  // The switcher's "Open snapshot…" asks who this is; a member, so it is not offered.
  window.skiff = new Proxy({} as NonNullable<Window['skiff']>, {
    get: (_, name: string) => async () =>
      name === 'whoAmI'
        ? { ok: true, data: { account: { role: 'member' }, sessionId: null, apiKeyId: null } }
        : {
            ok: false,
            problem: { type: 'about:blank', title: 'no', status: 404, code: 'route_not_found', detail: name },
          },
  });
});
afterEach(cleanup);

function select(cluster: Cluster) {
  const clusters = cluster.clusterId === live.clusterId ? [cluster] : [live, cluster];
  useClusters.setState({
    workspaces: [{ workspaceId: 'default', name: 'Default', groups: [] }],
    clusters,
    loaded: true,
    error: null,
  });
  useRoute.setState({ workspaceId: 'default', clusterId: cluster.clusterId });
}

describe('the snapshot banner', () => {
  it('names the context and the local time it was taken, as a status region', () => {
    render(<SnapshotBanner cluster={snapshot} now={local(2026, 11, 24, 18, 30)} />);
    const banner = screen.getByRole('status');
    expect(banner.textContent).toContain('Snapshot of prod-eu taken 14:03');
    expect(within(banner).getByText('14:03').getAttribute('datetime')).toBe(snapshot.takenAt);
  });

  it('adds the date when the snapshot was not taken today', () => {
    render(<SnapshotBanner cluster={snapshot} now={local(2026, 11, 27, 9, 0)} />);
    expect(screen.getByRole('status').textContent).toContain('Snapshot of prod-eu taken 2026-11-24 14:03');
  });

  it('says the time is unknown rather than printing nonsense for a missing takenAt', () => {
    const { takenAt: _dropped, ...noTime } = snapshot;
    render(<SnapshotBanner cluster={noTime} />);
    expect(screen.getByRole('status').textContent).toContain('Snapshot of prod-eu taken at an unknown time');
  });

  it('offers "Close snapshot" to whoever may close it, and hands it the snapshot', () => {
    const closed: Cluster[] = [];
    render(<SnapshotBanner cluster={snapshot} onClose={(c) => closed.push(c)} />);
    screen.getByRole('button', { name: 'Close snapshot' }).click();
    expect(closed).toEqual([snapshot]);
  });

  it('offers no Close without onClose, and while closing shows it disabled, with any failure as an alert', () => {
    const { rerender } = render(<SnapshotBanner cluster={snapshot} />);
    expect(screen.queryByRole('button', { name: /Clos/ })).toBeNull();
    rerender(<SnapshotBanner cluster={snapshot} onClose={() => {}} closing closeError="refused" />);
    const button = screen.getByRole('button', { name: 'Closing…' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.getByRole('alert').textContent).toBe('refused');
  });

  it('shows nothing for a live cluster, or when no cluster is chosen', () => {
    const { container } = render(
      <>
        <SnapshotBanner cluster={live} />
        <SnapshotBanner cluster={undefined} />
      </>,
    );
    expect(container.innerHTML).toBe('');
  });
});

const since = '2026-11-24T13:00:00Z';

describe('staleness on a snapshot', () => {
  it('the "data as of …, cluster unreachable" banner never shows for a snapshot', () => {
    select(snapshot);
    const { container } = render(<StaleBanner staleSince={since} />);
    expect(container.innerHTML).toBe('');
  });

  it('while it still shows for a live cluster whose data is stale', () => {
    select(live);
    render(<StaleBanner staleSince={since} />);
    expect(screen.getByTestId('stale-banner').textContent).toContain('cluster unreachable');
  });
});

describe('the cluster switcher', () => {
  it('labels a snapshot as one, with the time it was taken, and offers no "data as of"', () => {
    select({ ...snapshot, lastSyncedAt: since });
    render(<Switchers />);
    const option = screen.getByRole('option', { name: /snapshot/ });
    expect(option.textContent).toMatch(/^prod-eu \(snapshot taken (\d{4}-\d{2}-\d{2} )?14:03\)$/);
    expect(screen.getByRole('option', { name: /connected/ }).textContent).toBe('prod-eu (connected)');
    expect(screen.getByTestId('cluster-status').textContent).toContain('snapshot');
    expect(screen.queryByTestId('cluster-synced')).toBeNull();
    // A snapshot cannot be captured again: only live clusters offer "Take snapshot".
    expect(screen.queryByRole('button', { name: 'Take snapshot' })).toBeNull();
  });

  it('offers "Take snapshot" on a live cluster', () => {
    select(live);
    render(<Switchers />);
    expect(screen.getByRole('button', { name: 'Take snapshot' })).toBeTruthy();
  });
});
