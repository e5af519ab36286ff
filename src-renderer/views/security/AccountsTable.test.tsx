// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Account } from '../../../src-shared/contract/auth-models';
import { AccountsTable } from './AccountsPanel';

/**
 * The accounts table of the Security view (administrators): how each account signs in, the groups
 * the identity provider gave, and a new password offered to local accounts only, since an account
 * made by the provider has none.
 */

afterEach(cleanup);

const base = {
  role: 'member' as const,
  workspaces: [] as string[],
  createdAt: '2026-11-27T00:00:00.000Z',
  passwordChangedAt: '2026-11-27T00:00:00.000Z',
};
const admin: Account = {
  ...base,
  accountId: 'a1',
  username: 'admin',
  role: 'admin',
  workspaces: 'all',
  source: 'local',
  groups: [],
};
const alice: Account = {
  ...base,
  accountId: 'a2',
  username: 'alice@example.com',
  source: 'oidc',
  groups: ['shop-devs', 'readers'],
};
const bob: Account = { ...base, accountId: 'a3', username: 'bob@example.com', source: 'oidc', groups: [] };

const rowOf = (username: string) => {
  const row = document.querySelector(`tr[data-account="${username}"]`);
  if (!(row instanceof HTMLElement)) throw new Error(`no row for ${username}`);
  return within(row);
};

describe('the accounts table', () => {
  it('marks identity-provider accounts and lists the groups the provider gave', () => {
    render(<AccountsTable accounts={[admin, alice, bob]} onSetPassword={async () => {}} />);
    const a = rowOf('alice@example.com');
    expect(a.getByText('Signed in with the identity provider')).toBeTruthy();
    const groups = a.getByRole('list', { name: 'Groups of alice@example.com' });
    expect(
      within(groups)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['shop-devs', 'readers']);
    expect(rowOf('bob@example.com').getByText('none from the provider')).toBeTruthy();
    const l = rowOf('admin');
    expect(l.getByText('Password')).toBeTruthy();
    expect(l.queryByText('Signed in with the identity provider')).toBeNull();
    expect(l.queryByRole('list')).toBeNull();
  });

  it('offers a new password to local accounts only', () => {
    render(<AccountsTable accounts={[admin, alice, bob]} onSetPassword={async () => {}} />);
    expect(rowOf('admin').getByLabelText('New password for admin')).toBeTruthy();
    for (const u of ['alice@example.com', 'bob@example.com']) {
      const r = rowOf(u);
      expect(r.queryByLabelText(`New password for ${u}`)).toBeNull();
      expect(r.queryByRole('button', { name: 'Set password' })).toBeNull();
      expect(r.getByText('none: managed at the identity provider')).toBeTruthy();
    }
    expect(screen.getAllByRole('button', { name: 'Set password' })).toHaveLength(1);
  });

  it('sets a local account’s password once it is long enough, and says so', async () => {
    const set: Array<[string, string]> = [];
    render(
      <AccountsTable
        accounts={[admin]}
        onSetPassword={async (a, p) => {
          set.push([a.accountId, p]);
        }}
      />,
    );
    const input = screen.getByLabelText('New password for admin');
    const button = screen.getByRole('button', { name: 'Set password' }) as HTMLButtonElement;
    fireEvent.change(input, { target: { value: 'short' } });
    expect(button.disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'long enough pass' } });
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Password set.'));
    expect(set).toEqual([['a1', 'long enough pass']]);
    expect((input as HTMLInputElement).value).toBe('');
  });

  it('says why a new password was refused', async () => {
    render(
      <AccountsTable
        accounts={[admin]}
        onSetPassword={async () => {
          throw new Error('password must have at most 1024 characters');
        }}
      />,
    );
    fireEvent.change(screen.getByLabelText('New password for admin'), {
      target: { value: 'long enough pass' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('password must have at most 1024 characters'),
    );
  });
});
