// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import { SnapshotProgress } from './SnapshotProgress';

/** The capture panel at each stage: running, done (with and without gaps), failed. */

const base: SnapshotJob = {
  snapshotId: 'snap-1',
  status: 'running',
  workspaceId: 'default',
  clusterId: 'demo',
  context: 'demo',
  startedAt: '2026-11-24T14:03:00Z',
  progress: { objects: 1234, events: 56, podLogsDone: 7, podLogsTotal: 20 },
  missing: [],
  fileName: 'demo-2026-11-24T14-03-00Z.skiff',
};

afterEach(cleanup);

function panel(job: SnapshotJob, extra: Partial<Parameters<typeof SnapshotProgress>[0]> = {}) {
  const onSave = vi.fn();
  render(
    <SnapshotProgress
      job={job}
      saveLabel="Download snapshot"
      onSave={onSave}
      saving={false}
      savedTo={null}
      saveError={null}
      {...extra}
    />,
  );
  return onSave;
}

describe('while the capture runs', () => {
  it('counts objects and events, and shows pod logs done of total as a labelled <progress>', () => {
    panel(base);
    expect(screen.getByTestId('snapshot-objects').textContent).toBe((1234).toLocaleString());
    expect(screen.getByTestId('snapshot-events').textContent).toBe('56');
    expect(screen.getByTestId('snapshot-logs').textContent).toBe('7 of 20');
    const bar = screen.getByRole('progressbar', { name: 'Pod logs taken' }) as HTMLProgressElement;
    expect(bar.tagName).toBe('PROGRESS');
    expect(bar.getAttribute('value')).toBe('7');
    expect(bar.getAttribute('max')).toBe('20');
    expect(screen.getByText(/Taking a snapshot of demo/)).toBeTruthy();
    // Nothing to save yet.
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('is indeterminate until it knows how many pods will have logs', () => {
    panel({ ...base, progress: { objects: 10, events: 0, podLogsDone: 0, podLogsTotal: 0 } });
    const bar = screen.getByRole('progressbar', { name: 'Snapshot progress' });
    expect(bar.hasAttribute('value')).toBe(false);
    expect(screen.getByTestId('snapshot-logs').textContent).toBe('…');
  });
});

describe('once done', () => {
  const done: SnapshotJob = {
    ...base,
    status: 'done',
    finishedAt: '2026-11-24T14:03:09Z',
    progress: { objects: 1300, events: 80, podLogsDone: 20, podLogsTotal: 20 },
    sizeBytes: 3 * 1024 * 1024,
  };

  it('offers the file, named and sized, and saves it on request', () => {
    const onSave = panel(done);
    expect(screen.getByText(/ready/).textContent).toBe(
      'Snapshot of demo ready: demo-2026-11-24T14-03-00Z.skiff (3MiB)',
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Download snapshot' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('snapshot-missing')).toBeNull();
  });

  it('names every part it could not take, with the target and the reason', () => {
    panel({
      ...done,
      missing: [
        { part: 'metrics', reason: 'metrics.k8s.io is not served by this cluster' },
        { part: 'logs', target: 'shop/checkout-7d9/app', reason: 'the kubelet did not answer in 10s' },
      ],
    });
    const missing = screen.getByTestId('snapshot-missing');
    expect(missing.textContent).toContain('Not in this snapshot (2 parts)');
    const items = within(missing)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual([
      'metrics: metrics.k8s.io is not served by this cluster',
      'logs (shop/checkout-7d9/app): the kubelet did not answer in 10s',
    ]);
    // A snapshot with gaps is still a snapshot: the file is offered.
    expect(screen.getByRole('button', { name: 'Download snapshot' })).toBeTruthy();
  });

  it('says where the file went, and why saving failed when it did', () => {
    panel(done, { savedTo: '/home/me/Downloads/demo.skiff', saveError: 'the disk is full' });
    expect(screen.getByTestId('snapshot-saved').textContent).toBe('Saved: /home/me/Downloads/demo.skiff');
    expect(screen.getByRole('alert').textContent).toBe('The file could not be saved: the disk is full');
  });

  it('shows the button busy while saving', () => {
    panel(done, { saving: true });
    expect((screen.getByRole('button', { name: 'Saving…' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('a failed capture', () => {
  it('says why in an alert, and offers no file', () => {
    panel({ ...base, status: 'failed', error: 'the cluster refused to list pods: Forbidden' });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The snapshot failed');
    expect(alert.textContent).toContain('the cluster refused to list pods: Forbidden');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
