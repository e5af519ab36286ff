// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TimeRange } from './history-range';
import { RangeControls } from './RangeControls';

/**
 * The range controls on a snapshot: the presets stay durations (the service counts them back from
 * takenAt, so "1h" is the hour before the snapshot, not an empty last hour of today), and the
 * words say what they count back from.
 */

afterEach(cleanup);

const TAKEN_AT = '2026-03-01T12:00:00Z';

function renderControls(range: TimeRange, takenAt?: string) {
  const chosen: TimeRange[] = [];
  render(<RangeControls range={range} onChange={(r) => chosen.push(r)} takenAt={takenAt} />);
  return chosen;
}

describe('RangeControls on a snapshot', () => {
  it('a preset sends the duration itself, never an instant computed from the clock', () => {
    const chosen = renderControls({ since: null, until: null }, TAKEN_AT);
    fireEvent.click(screen.getByRole('button', { name: '1h' }));
    fireEvent.click(screen.getByRole('button', { name: '15m' }));
    expect(chosen).toEqual([
      { since: '1h', until: null },
      { since: '15m', until: null },
    ]);
  });

  it('says the range ends when the snapshot was taken', () => {
    renderControls({ since: '1h', until: null }, TAKEN_AT);
    expect(screen.getByTestId('event-range').textContent).toBe(
      'Range: Events of the last hour before the snapshot',
    );
    const preset = screen.getByRole('button', { name: '1h' });
    expect(preset.getAttribute('aria-pressed')).toBe('true');
    expect(preset.getAttribute('title')).toMatch(
      /^Events of the last hour before the snapshot \(taken .+\)$/,
    );
  });

  it('on a live cluster counts back from now, as before', () => {
    renderControls({ since: '1h', until: null });
    expect(screen.getByTestId('event-range').textContent).toBe('Range: Events of the last hour');
    expect(screen.getByRole('button', { name: '1h' }).getAttribute('title')).toBe('Events of the last hour');
  });
});
