// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AdminAction, AdminTable } from './AdminTable';

interface Key {
  id: string;
  name: string;
  active: boolean;
}

// Not in the order a table would sort them, so the test sees that rows keep the order given.
const rows: Key[] = [
  { id: 'k2', name: 'nightly', active: true },
  { id: 'k1', name: 'ci', active: false },
  { id: 'k3', name: 'backup', active: true },
];

function table(run: AdminAction<Key>['run']) {
  return render(
    <AdminTable
      label="API keys"
      className="keys"
      rows={rows}
      rowKey={(k) => k.id}
      rowAttributes={(k) => ({ 'data-key': k.name })}
      columns={[
        { header: 'Name', cell: (k) => k.name, title: (k) => `id ${k.id}` },
        { header: 'Status', cell: (k) => (k.active ? 'active' : 'revoked') },
      ]}
      action={{
        label: 'Revoke',
        available: (k) => k.active,
        title: 'Revoke this API key?',
        confirmLabel: 'Revoke key',
        body: (k) => <p>Scripts using “{k.name}” stop working.</p>,
        run,
      }}
    />,
  );
}

const dialog = () => document.querySelector('dialog') as HTMLDialogElement;

afterEach(cleanup);

describe('AdminTable', () => {
  it('labels the table, names each column, hides the action header from sight only', () => {
    table(async () => {});
    const t = screen.getByRole('table', { name: 'API keys' });
    expect(t.className).toBe('table keys');
    const headers = within(t)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Name', 'Status', 'Actions']);
    expect(within(t).getByText('Actions').className).toBe('sr-only');
  });

  it('keeps the rows in the order given, with their attributes, and offers the action only where it applies', () => {
    table(async () => {});
    const body = screen.getAllByRole('row').slice(1);
    expect(body.map((r) => r.getAttribute('data-key'))).toEqual(['nightly', 'ci', 'backup']);
    expect(within(body[0]!).getByText('nightly').getAttribute('title')).toBe('id k2');
    expect(body.map((r) => within(r).queryByRole('button', { name: 'Revoke' }) !== null)).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('asks first: cancelling changes nothing', () => {
    const run = vi.fn(async () => {});
    table(run);
    fireEvent.click(within(screen.getAllByRole('row')[3]!).getByRole('button', { name: 'Revoke' }));
    expect(dialog().open).toBe(true);
    expect(dialog().textContent).toContain('Revoke this API key?');
    expect(dialog().textContent).toContain('Scripts using “backup” stop working.');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(dialog().open).toBe(false);
    expect(run).not.toHaveBeenCalled();
  });

  it('runs the action on the row that was confirmed, shows it working, then closes', async () => {
    let finish = () => {};
    const run = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    table(run);
    fireEvent.click(within(screen.getAllByRole('row')[1]!).getByRole('button', { name: 'Revoke' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Revoke key' }));
    expect(run).toHaveBeenCalledWith(rows[0]);
    const working = within(dialog()).getByRole('button', { name: 'Working…' }) as HTMLButtonElement;
    expect(working.disabled).toBe(true);
    await act(async () => finish());
    expect(dialog().open).toBe(false);
  });

  it('stays open and says why when the action is refused', async () => {
    const run = vi.fn(async () => {
      throw new Error('the service is not reachable');
    });
    table(run);
    fireEvent.click(within(screen.getAllByRole('row')[1]!).getByRole('button', { name: 'Revoke' }));
    await act(async () => {
      fireEvent.click(within(dialog()).getByRole('button', { name: 'Revoke key' }));
    });
    expect(dialog().open).toBe(true);
    expect(within(dialog()).getByRole('alert').textContent).toContain('the service is not reachable');
    // Cancelling clears the message, so the next confirmation starts clean.
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(screen.getAllByRole('row')[1]!).getByRole('button', { name: 'Revoke' }));
    expect(within(dialog()).queryByRole('alert')).toBeNull();
  });

  it('has no action column and no dialog without an action', () => {
    render(
      <AdminTable
        label="Loaded contexts"
        rows={rows}
        rowKey={(k) => k.id}
        columns={[{ header: 'Name', cell: (k) => k.name }]}
      />,
    );
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name']);
    expect(document.querySelector('dialog')).toBeNull();
  });
});
