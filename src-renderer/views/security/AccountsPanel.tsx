import { type FormEvent, useState } from 'react';
import type { Account } from '../../../src-shared/contract/auth-models';
import { MIN_PASSWORD_LENGTH } from '../../../src-shared/contract/auth-operations';
import { usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';
import { AdminTable } from '../common/AdminTable';
import { Badge } from '../common/Badge';
import { Loading, ProblemNotice, problemText } from '../common/Problem';

/**
 * Accounts (administrators only): how each signs in and, for identity-provider accounts, the groups
 * the provider last gave. Only local accounts have a password, so only they are offered a new one;
 * an identity-provider account's access is managed at the provider.
 */

function SetPassword({
  account,
  onSet,
}: {
  account: Account;
  onSet: (account: Account, password: string) => Promise<void>;
}) {
  const [password, setPassword] = useState('');
  const [state, setState] = useState<{ busy: boolean; error: string | null; done: boolean }>({
    busy: false,
    error: null,
    done: false,
  });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setState({ busy: true, error: null, done: false });
    try {
      await onSet(account, password);
      setPassword('');
      setState({ busy: false, error: null, done: true });
    } catch (err) {
      setState({ busy: false, error: problemText(err), done: false });
    }
  };
  return (
    <form className="row" onSubmit={submit} aria-label={`Set the password of ${account.username}`}>
      <input
        type="password"
        autoComplete="new-password"
        aria-label={`New password for ${account.username}`}
        minLength={MIN_PASSWORD_LENGTH}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <button type="submit" disabled={state.busy || password.length < MIN_PASSWORD_LENGTH}>
        Set password
      </button>
      {state.done && <span role="status">Password set.</span>}
      {state.error && (
        <span className="field-error" role="alert">
          {state.error}
        </span>
      )}
    </form>
  );
}

export function AccountsTable({
  accounts,
  onSetPassword,
}: {
  accounts: readonly Account[];
  onSetPassword: (account: Account, password: string) => Promise<void>;
}) {
  return (
    <AdminTable
      label="Accounts"
      rows={accounts}
      rowKey={(a) => a.accountId}
      rowAttributes={(a) => ({ 'data-account': a.username, 'data-source': a.source })}
      columns={[
        { header: 'Username', cell: (a) => a.username },
        { header: 'Role', cell: (a) => a.role },
        {
          header: 'Signs in with',
          cell: (a) =>
            a.source === 'oidc' ? (
              <Badge
                tone="neutral"
                title="Made at a first sign-in with the identity provider; has no password"
              >
                Signed in with the identity provider
              </Badge>
            ) : (
              <Badge tone="neutral">Password</Badge>
            ),
        },
        {
          header: 'Groups',
          cell: (a) =>
            a.source !== 'oidc' ? (
              <span className="muted">—</span>
            ) : a.groups.length === 0 ? (
              <span className="muted">none from the provider</span>
            ) : (
              <ul className="account-groups" aria-label={`Groups of ${a.username}`}>
                {a.groups.map((g) => (
                  <li key={g}>
                    <code>{g}</code>
                  </li>
                ))}
              </ul>
            ),
        },
        {
          header: 'Password',
          cell: (a) =>
            a.source === 'oidc' ? (
              <span className="muted">none: managed at the identity provider</span>
            ) : (
              <SetPassword account={a} onSet={onSetPassword} />
            ),
        },
      ]}
    />
  );
}

export function AccountsPanel() {
  // Members are not shown the panel: the account list is for administrators only.
  const list = usePolling(
    'security/accounts',
    async (signal) => {
      const me = await api().call('whoAmI', { params: {} }, { signal });
      if (me.data.account.role !== 'admin') return null;
      const r = await api().call('listAccounts', { params: {}, query: { limit: '1000' } }, { signal });
      return r.data;
    },
    { intervalMs: 30_000 },
  );
  if (list.data === null) return null;
  const setPassword = async (account: Account, password: string) => {
    await api().call('updateAccount', { params: { accountId: account.accountId }, body: { password } });
    list.reload();
  };
  return (
    <section className="panel" aria-labelledby="accounts-title" data-testid="accounts-panel">
      <h2 id="accounts-title">Accounts</h2>
      {list.error && !list.data && <ProblemNotice error={list.error} />}
      {list.loading && <Loading label="Loading accounts…" />}
      {list.data && <AccountsTable accounts={list.data} onSetPassword={setPassword} />}
    </section>
  );
}
