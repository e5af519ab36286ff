// @vitest-environment happy-dom
/**
 * The modal dialog follows its `open` prop (shown as a modal, closed again), shows its content only
 * while open, and reports the browser's own close (Escape) to its owner.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dialog } from './Dialog';

afterEach(cleanup);

const dialog = (open: boolean, onClose = () => {}) => (
  <Dialog open={open} title="Delete key" onClose={onClose} actions={<button type="button">OK</button>}>
    Gone for good.
  </Dialog>
);

describe('Dialog', () => {
  it('is shown as a modal while open, and closed when no longer', () => {
    const { container, rerender } = render(dialog(false));
    const d = container.querySelector('dialog')!;
    expect(d.open).toBe(false);
    expect(screen.queryByText('Delete key')).toBeNull();

    rerender(dialog(true));
    expect(d.open).toBe(true);
    expect(screen.getByRole('heading', { name: 'Delete key' })).toBeTruthy();
    expect(screen.getByText('Gone for good.')).toBeTruthy();

    rerender(dialog(false));
    expect(d.open).toBe(false);
    expect(screen.queryByText('Gone for good.')).toBeNull();
  });

  it('tells its owner when the browser closes it', () => {
    const onClose = vi.fn();
    const { container } = render(dialog(true, onClose));
    container.querySelector('dialog')!.close();
    expect(onClose).toHaveBeenCalled();
  });
});
