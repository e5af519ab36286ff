import { type FormEvent, useId, useState } from 'react';
import type { ApiKeyRecord, CreatedApiKey } from '../../../src-shared/contract/auth-models';
import { usePolling } from '../../hooks/usePolling';
import { age, timestamp } from '../../kube/format';
import { useClusters } from '../../state/clusters';
import { api } from '../../state/connection';
import { type AdminColumn, AdminTable } from '../common/AdminTable';
import { Badge } from '../common/Badge';
import { Empty, Loading, ProblemNotice, problemText } from '../common/Problem';

function CreatedKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="notice notice-info created-key" role="status" data-testid="created-key">
      <strong>API key “{created.apiKey.name}” created</strong>
      <p>
        Copy it now: Skiff stores only a hash and will never show it again. Send it as the X-API-Key header.
      </p>
      <pre>
        <code>{created.key}</code>
      </pre>
      <div className="row">
        <button
          type="button"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(created.key);
              setCopied(true);
            } catch {
              // Clipboard refused; the key is selectable above.
            }
          }}
        >
          {copied ? 'Copied' : 'Copy key'}
        </button>
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </div>
  );
}

const COLUMNS: ReadonlyArray<AdminColumn<ApiKeyRecord>> = [
  { header: 'Name', cell: (k) => k.name },
  {
    header: 'Key',
    cell: (k) => <code>{k.hint}…</code>,
  },
  { header: 'Workspaces', cell: (k) => (k.workspaces ? k.workspaces.join(', ') : 'all of yours') },
  { header: 'Created', cell: (k) => timestamp(k.createdAt), title: (k) => k.createdAt },
  { header: 'Expires', cell: (k) => timestamp(k.expiresAt), title: (k) => k.expiresAt },
  { header: 'Last used', cell: (k) => (k.lastUsedAt ? `${age(k.lastUsedAt)} ago` : 'never') },
  {
    header: 'Status',
    cell: (k) => <Badge tone={k.status === 'active' ? 'ok' : 'neutral'}>{k.status}</Badge>,
  },
];

/** API keys for scripts: created (shown once), listed by their hint, revoked after a confirmation. */
export function ApiKeysPanel() {
  const workspaces = useClusters((s) => s.workspaces);
  const keys = usePolling(
    'api-keys',
    async (signal) =>
      (await api().call('listApiKeys', { params: {}, query: { limit: '1000' } }, { signal })).data,
    { intervalMs: 15_000 },
  );
  const [name, setName] = useState('');
  const [days, setDays] = useState('90');
  const [scope, setScope] = useState<string[]>([]);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { name: useId(), days: useId(), ws: useId() };

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await api().call('createApiKey', {
        params: {},
        body: {
          name: name.trim(),
          expiresInDays: Number(days),
          ...(scope.length ? { workspaces: scope } : {}),
        },
      });
      setCreated(r.data);
      setName('');
      keys.reload();
    } catch (err) {
      setError(problemText(err));
    } finally {
      setBusy(false);
    }
  };

  // A refused revocation is reported beside the form, like a refused creation.
  const revoke = async (k: ApiKeyRecord) => {
    try {
      await api().call('revokeApiKey', { params: { apiKeyId: k.apiKeyId } });
      keys.reload();
    } catch (err) {
      setError(problemText(err));
    }
  };

  return (
    <section className="panel" aria-labelledby="keys-title" data-testid="api-keys-panel">
      <header className="panel-head">
        <h2 id="keys-title">API keys</h2>
      </header>
      <form className="row form-row" onSubmit={create} aria-label="Create an API key">
        <div className="field">
          <label htmlFor={ids.name}>Name</label>
          <input
            id={ids.name}
            value={name}
            required
            maxLength={100}
            placeholder="ci-readonly"
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.days}>Expires after</label>
          <select id={ids.days} value={days} onChange={(e) => setDays(e.target.value)}>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
            <option value="90">90 days</option>
            <option value="365">365 days</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.ws}>Workspaces</label>
          <select
            id={ids.ws}
            multiple
            value={scope}
            size={Math.min(4, Math.max(2, workspaces.length))}
            onChange={(e) => setScope(Array.from(e.target.selectedOptions, (o) => o.value))}
          >
            {workspaces.map((w) => (
              <option key={w.workspaceId} value={w.workspaceId}>
                {w.name}
              </option>
            ))}
          </select>
          <p className="field-hint">None selected: every workspace you belong to.</p>
        </div>
        <button type="submit" className="primary" disabled={busy || name.trim() === ''}>
          Create key
        </button>
      </form>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {created && <CreatedKey created={created} onDone={() => setCreated(null)} />}
      {keys.error && <ProblemNotice error={keys.error} what="API keys" />}
      {!keys.data && keys.loading && <Loading label="Loading API keys…" />}
      {keys.data && keys.data.length === 0 && <Empty>No API keys yet.</Empty>}
      {keys.data && keys.data.length > 0 && (
        <AdminTable
          label="API keys"
          columns={COLUMNS}
          rows={keys.data}
          rowKey={(k) => k.apiKeyId}
          rowAttributes={(k) => ({ 'data-api-key': k.name })}
          action={{
            label: 'Revoke',
            available: (k) => k.status === 'active',
            title: 'Revoke this API key?',
            confirmLabel: 'Revoke key',
            body: (k) => (
              <p>
                Scripts using “{k.name}” ({k.hint}…) stop working at once. This cannot be undone.
              </p>
            ),
            run: revoke,
          }}
        />
      )}
    </section>
  );
}
