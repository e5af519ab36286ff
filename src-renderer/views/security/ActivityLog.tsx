import { useEffect, useId, useState } from 'react';
import { ACTIVITY_CSV_HEADER, activityCsvLines } from '../../../src-shared/contract/activity-export';
import {
  ACTIVITY_TYPES,
  type ActivityEntry,
  type ActivityType,
} from '../../../src-shared/contract/auth-models';
import { usePolling } from '../../hooks/usePolling';
import { timestamp } from '../../kube/format';
import { api } from '../../state/connection';
import { Badge } from '../common/Badge';
import { Empty, Loading, ProblemNotice, problemText } from '../common/Problem';
import './ActivityLog.css';

/**
 * The security activity log: logins, refreshes, reuse detections, logouts (by whom, from which
 * device), API key creation, use and revocation. It reads only the auth API, so it works with no
 * cluster and no network. Exports are built here from the JSON pages (the same CSV format as the
 * service's /v1/auth/activity/export), so they work over the desktop app's IPC too.
 */

const PAGE = 50;
/** Export pages: the contract's largest. */
const EXPORT_PAGE = 1000;

const LABELS: Record<ActivityType, string> = {
  login: 'Login',
  login_failed: 'Failed login',
  refresh: 'Token refresh',
  logout: 'Logout',
  refresh_token_reused: 'Refresh token reused',
  session_expired: 'Session expired',
  password_changed: 'Password changed',
  api_key_created: 'API key created',
  api_key_used: 'API key used',
  api_key_revoked: 'API key revoked',
  oidc_access_removed: 'Access removed at the identity provider',
  oidc_groups_changed: 'Groups changed at the identity provider',
};

const WARN: ReadonlySet<ActivityType> = new Set([
  'login_failed',
  'refresh_token_reused',
  'oidc_access_removed',
]);

interface Filters {
  account: string;
  type: string;
  since: string;
  until: string;
}

/** `datetime-local` values are local times without a zone; the API wants RFC 3339. */
const isoOf = (local: string) => (local === '' ? undefined : new Date(local).toISOString());

function queryOf(f: Filters): Record<string, string> {
  const q: Record<string, string> = {};
  if (f.account !== '') q.accountId = f.account;
  if (f.type !== '') q.type = f.type;
  const since = isoOf(f.since);
  const until = isoOf(f.until);
  if (since) q.since = since;
  if (until) q.until = until;
  return q;
}

function deviceOf(e: ActivityEntry): string {
  const c = e.client;
  if (!c) return '—';
  const software = [c.browser.name, c.os.name].filter(Boolean).join(' on ');
  const kind =
    c.clientType === 'desktop-app'
      ? 'Skiff desktop app'
      : c.clientType === 'script'
        ? 'script'
        : c.device.type;
  return `${software || kind} · ${c.location.label}`;
}

function byOf(e: ActivityEntry): string {
  if (!e.by) return '';
  const who = e.by.username ?? e.by.accountId;
  return e.by.sessionId ? `${who} (session ${e.by.sessionId.slice(0, 8)})` : who;
}

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function allEntries(query: Record<string, string>): Promise<ActivityEntry[]> {
  const out: ActivityEntry[] = [];
  for (let offset = 0; ; offset += EXPORT_PAGE) {
    const r = await api().call('listActivity', {
      params: {},
      query: { ...query, limit: String(EXPORT_PAGE), offset: String(offset) },
    });
    out.push(...r.data);
    if (r.data.length < EXPORT_PAGE || out.length >= (r.page?.total ?? 0)) return out;
  }
}

export function ActivityLog() {
  const [filters, setFilters] = useState<Filters>({ account: '', type: '', since: '', until: '' });
  const [offset, setOffset] = useState(0);
  const [accounts, setAccounts] = useState<Array<{ accountId: string; username: string }> | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const [exportError, setExportError] = useState<unknown>(null);
  const ids = { account: useId(), type: useId(), since: useId(), until: useId() };

  // Administrators may read every account's log; the account filter is offered to them only.
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const me = await api().call('whoAmI', { params: {} });
        if (me.data.account.role !== 'admin') return;
        const list = await api().call('listAccounts', { params: {}, query: { limit: '1000' } });
        if (live) setAccounts(list.data.map((a) => ({ accountId: a.accountId, username: a.username })));
      } catch {
        // Without the list the log shows the caller's own account, as for members.
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  const query = queryOf(filters);
  const log = usePolling(
    `activity/${JSON.stringify(query)}/${offset}`,
    async (signal) => {
      const r = await api().call(
        'listActivity',
        { params: {}, query: { ...query, limit: String(PAGE), offset: String(offset) } },
        { signal },
      );
      return { items: r.data, total: r.page?.total ?? r.data.length };
    },
    { intervalMs: 15_000, keepPrevious: true },
  );

  const set = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setOffset(0);
  };

  const exportAs = async (format: 'csv' | 'json') => {
    setExporting(format);
    setExportError(null);
    try {
      const entries = await allEntries(query);
      const day = new Date().toISOString().slice(0, 10);
      if (format === 'csv')
        download(`skiff-activity-${day}.csv`, 'text/csv', ACTIVITY_CSV_HEADER + activityCsvLines(entries));
      else
        download(`skiff-activity-${day}.json`, 'application/json', `${JSON.stringify(entries, null, 2)}\n`);
    } catch (err) {
      setExportError(err);
    } finally {
      setExporting(null);
    }
  };

  const items = log.data?.items ?? [];
  const total = log.data?.total ?? 0;
  const showAccount = accounts !== null;

  return (
    <section className="panel activity-log" aria-labelledby="activity-title" data-testid="activity-log">
      <header className="panel-head">
        <h2 id="activity-title">Activity log</h2>
        <div className="activity-actions">
          <button type="button" onClick={() => void exportAs('csv')} disabled={exporting !== null}>
            {exporting === 'csv' ? 'Exporting…' : 'Export CSV'}
          </button>
          <button type="button" onClick={() => void exportAs('json')} disabled={exporting !== null}>
            {exporting === 'json' ? 'Exporting…' : 'Export JSON'}
          </button>
        </div>
      </header>
      <form className="activity-filters" onSubmit={(e) => e.preventDefault()} aria-label="Activity filters">
        {showAccount && (
          <div className="field">
            <label htmlFor={ids.account}>Account</label>
            <select
              id={ids.account}
              value={filters.account}
              onChange={(e) => set({ account: e.target.value })}
            >
              <option value="">My account</option>
              <option value="all">All accounts</option>
              {accounts.map((a) => (
                <option key={a.accountId} value={a.accountId}>
                  {a.username}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor={ids.type}>Kind</label>
          <select id={ids.type} value={filters.type} onChange={(e) => set({ type: e.target.value })}>
            <option value="">All kinds</option>
            {ACTIVITY_TYPES.map((t) => (
              <option key={t} value={t}>
                {LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.since}>From</label>
          <input
            id={ids.since}
            type="datetime-local"
            value={filters.since}
            onChange={(e) => set({ since: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.until}>To</label>
          <input
            id={ids.until}
            type="datetime-local"
            value={filters.until}
            onChange={(e) => set({ until: e.target.value })}
          />
        </div>
      </form>
      {exportError !== null && (
        <p className="notice notice-error" role="alert">
          Export failed: {problemText(exportError)}
        </p>
      )}
      {log.error && <ProblemNotice error={log.error} what="the activity log" />}
      {!log.data && log.loading && <Loading label="Loading activity…" />}
      {log.data && items.length === 0 && <Empty>No activity matches these filters.</Empty>}
      {items.length > 0 && (
        <>
          <table className="table activity-table" aria-label="Activity log">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                {showAccount && <th scope="col">Account</th>}
                <th scope="col">Device and place</th>
                <th scope="col">By</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <tr key={e.activityId} data-activity-type={e.type}>
                  <td title={e.at}>{timestamp(e.at)}</td>
                  <td>
                    <Badge tone={WARN.has(e.type) ? 'warn' : 'neutral'}>{LABELS[e.type] ?? e.type}</Badge>
                  </td>
                  {showAccount && <td>{e.username ?? e.accountId}</td>}
                  <td>{deviceOf(e)}</td>
                  <td>{byOf(e)}</td>
                  <td className="activity-detail">{e.detail ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav className="activity-pager" aria-label="Activity pages">
            <button
              type="button"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - PAGE))}
            >
              Newer
            </button>
            <span role="status">
              {offset + 1}–{offset + items.length} of {total}
            </span>
            <button type="button" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
              Older
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
