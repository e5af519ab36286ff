// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import type { IpcOutcome } from '../../../src-shared/ipc/channels';
import type { SavedSnapshot, SnapshotFilesBridge } from '../../../src-shared/ipc/snapshot-files';
import { useClusters } from '../../state/clusters';
import { selectCluster } from '../../state/clusters.test-support';
import { useRoute } from '../../state/route';
import { useSnapshots } from '../../state/snapshots';
import { OpenSnapshot } from './OpenSnapshot';
import { TakeSnapshot } from './TakeSnapshot';

/**
 * The desktop app's snapshot flows, from the buttons to the bridges: a capture started with the
 * chosen options, followed to done and saved through main's dialog; a file opened and the new
 * cluster selected; a refused file explained in the service's words.
 */

const monitoring = {
  clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: true } },
};
const live: Cluster = {
  clusterId: 'demo',
  workspaceId: 'default',
  name: 'demo',
  context: 'demo',
  server: 'https://127.0.0.1:6443',
  status: 'connected',
  monitoring,
};
const opened: Cluster = {
  ...live,
  clusterId: 'demo-snapshot-20261124t140300z',
  name: 'demo (snapshot)',
  status: 'snapshot',
  takenAt: '2026-11-24T14:03:00Z',
};

const problem = (status: number, code: Problem['code'], detail: string): IpcOutcome<never> => ({
  ok: false,
  problem: { type: 'about:blank', title: detail, status, code, detail },
});

/** The service behind window.skiff: a capture job that advances one step per poll. */
const service = {
  bodies: [] as unknown[],
  polls: 0,
  clusters: [live] as Cluster[],
};
const job = (over: Partial<SnapshotJob>): SnapshotJob => ({
  snapshotId: 'snap-7',
  status: 'running',
  workspaceId: 'default',
  clusterId: 'demo',
  context: 'demo',
  startedAt: '2026-11-24T14:03:00Z',
  progress: { objects: 0, events: 0, podLogsDone: 0, podLogsTotal: 0 },
  missing: [],
  fileName: 'demo-2026-11-24T14-03-00Z.skiff',
  ...over,
});
const STEPS: SnapshotJob[] = [
  job({ progress: { objects: 420, events: 95, podLogsDone: 3, podLogsTotal: 12 } }),
  job({
    status: 'done',
    finishedAt: '2026-11-24T14:03:05Z',
    sizeBytes: 2048,
    progress: { objects: 420, events: 95, podLogsDone: 12, podLogsTotal: 12 },
    missing: [{ part: 'metrics', reason: 'metrics.k8s.io did not answer' }],
  }),
];

type Handler = (input: { params?: Record<string, string>; body?: unknown }) => IpcOutcome<unknown>;
const handlers: Record<string, Handler> = {
  createSnapshot: ({ params, body }) => {
    service.bodies.push(body);
    return params?.clusterId === 'demo'
      ? { ok: true, data: job({}) }
      : problem(404, 'cluster_not_found', 'no such cluster');
  },
  getSnapshot: ({ params }) =>
    params?.snapshotId === 'snap-7'
      ? { ok: true, data: STEPS[Math.min(service.polls++, STEPS.length - 1)] }
      : problem(404, 'route_not_found', 'no such job'),
  listWorkspaces: () => ({ ok: true, data: [{ workspaceId: 'default', name: 'Default', groups: [] }] }),
  listClusters: () => ({ ok: true, data: service.clusters }),
};

/** main's side of window.skiffSnapshots: dialogs answered by the test. */
const files = {
  saved: [] as string[],
  nextOpen: null as IpcOutcome<Cluster | null> | null,
};
const filesBridge: SnapshotFilesBridge = {
  save: async (snapshotId: string): Promise<IpcOutcome<SavedSnapshot | null>> => {
    files.saved.push(snapshotId);
    return { ok: true, data: { path: `/home/me/Downloads/${snapshotId}.skiff`, sizeBytes: 2048 } };
  },
  open: async () => files.nextOpen ?? { ok: true, data: null },
  openDropped: async () =>
    (files.nextOpen as IpcOutcome<Cluster> | null) ?? problem(400, 'invalid_parameter', 'nothing to open'),
};

beforeAll(() => {
  window.skiff = new Proxy({} as NonNullable<Window['skiff']>, {
    get: (_, name: string) => async (input: Parameters<Handler>[0]) =>
      handlers[name]?.(input) ?? problem(404, 'route_not_found', `the fake service does not answer ${name}`),
  });
  window.skiffSnapshots = filesBridge;
});
beforeEach(() => {
  service.bodies = [];
  service.polls = 0;
  service.clusters = [live];
  files.saved = [];
  files.nextOpen = null;
  useSnapshots.getState().resetCapture();
  useSnapshots.setState({ openError: null, opening: false });
  selectCluster('demo', [live], 'events');
});
afterEach(cleanup);

const dialog = () => document.querySelector('dialog') as HTMLDialogElement;

describe('Take snapshot', () => {
  it('sends the chosen options, follows the progress to done, names the gaps, and saves through main', async () => {
    render(<TakeSnapshot workspaceId="default" cluster={live} />);
    fireEvent.click(screen.getByRole('button', { name: 'Take snapshot' }));
    const d = within(dialog());
    // The defaults: every pod's logs, 1,000 lines.
    expect((d.getByRole('radio', { name: 'Every pod' }) as HTMLInputElement).checked).toBe(true);
    expect((d.getByLabelText('Log lines per container') as HTMLInputElement).value).toBe('1000');
    fireEvent.click(d.getByRole('radio', { name: 'Failing pods only' }));
    fireEvent.change(d.getByLabelText('Log lines per container'), { target: { value: '250' } });
    await act(async () => {
      fireEvent.click(d.getByRole('button', { name: 'Start' }));
    });
    expect(service.bodies).toEqual([{ logLines: 250, logs: 'failing' }]);

    expect((await d.findByTestId('snapshot-logs', {}, { timeout: 5_000 })).textContent).toBe('…');
    await waitFor(() => expect(d.getByTestId('snapshot-logs').textContent).toBe('3 of 12'), {
      timeout: 5_000,
    });
    expect(d.getByRole('progressbar', { name: 'Pod logs taken' }).getAttribute('value')).toBe('3');
    // The capture goes on with the dialog closed; the button says so.
    fireEvent.click(d.getByRole('button', { name: 'Close' }));
    expect(dialog().open).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Snapshot in progress…' }));
    expect(dialog().open).toBe(true);

    const save = await d.findByRole('button', { name: 'Save snapshot…' }, { timeout: 5_000 });
    expect(d.getByTestId('snapshot-missing').textContent).toContain('metrics: metrics.k8s.io did not answer');
    await act(async () => {
      fireEvent.click(save);
    });
    expect(files.saved).toEqual(['snap-7']);
    expect(d.getByTestId('snapshot-saved').textContent).toBe('Saved: /home/me/Downloads/snap-7.skiff');
    expect(screen.getByRole('button', { name: 'Take snapshot' })).toBeTruthy();
    // No more polling once done.
    const polls = service.polls;
    await new Promise((r) => setTimeout(r, 1_000));
    expect(service.polls).toBe(polls);
  });

  it('refuses a line count outside 0–10,000 before anything is sent', () => {
    render(<TakeSnapshot workspaceId="default" cluster={live} />);
    fireEvent.click(screen.getByRole('button', { name: 'Take snapshot' }));
    const d = within(dialog());
    const lines = d.getByLabelText('Log lines per container');
    fireEvent.change(lines, { target: { value: '20000' } });
    expect(lines.getAttribute('aria-invalid')).toBe('true');
    expect((d.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(true);
    // With no logs taken, the count does not matter.
    fireEvent.click(d.getByRole('radio', { name: 'None' }));
    expect((d.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(false);
    expect(service.bodies).toEqual([]);
  });

  it("shows the service's reason when the capture cannot start", async () => {
    const other = { ...live, clusterId: 'gone' };
    render(<TakeSnapshot workspaceId="default" cluster={other} />);
    fireEvent.click(screen.getByRole('button', { name: 'Take snapshot' }));
    await act(async () => {
      fireEvent.click(within(dialog()).getByRole('button', { name: 'Start' }));
    });
    expect(within(dialog()).getByRole('alert').textContent).toBe(
      'The snapshot could not be started: no such cluster',
    );
  });
});

describe('Open snapshot…', () => {
  it('opens the file main chose and selects the new cluster', async () => {
    files.nextOpen = { ok: true, data: opened };
    service.clusters = [live, opened];
    render(<OpenSnapshot />);
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Open snapshot…' }));
    });
    await waitFor(() => expect(useRoute.getState().clusterId).toBe(opened.clusterId));
    expect(useRoute.getState().area).toBe('resources');
    expect(useClusters.getState().clusters.map((c) => c.clusterId)).toContain(opened.clusterId);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('does nothing when the dialog is cancelled', async () => {
    render(<OpenSnapshot />);
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Open snapshot…' }));
    });
    expect(useRoute.getState().clusterId).toBe('demo');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("explains a refused file in the service's words, and the alert can be dismissed", async () => {
    files.nextOpen = problem(
      400,
      'invalid_parameter',
      'notes.txt is not a Skiff snapshot: it is not an SQLite database.',
    );
    render(<OpenSnapshot />);
    const file = new File(['hello'], 'notes.txt');
    await act(async () => {
      await useSnapshots.getState().openFile(file);
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'notes.txt could not be opened: notes.txt is not a Skiff snapshot: it is not an SQLite database.',
    );
    expect(useRoute.getState().clusterId).toBe('demo');
    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
