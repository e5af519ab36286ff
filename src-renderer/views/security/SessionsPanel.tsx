import { useId, useState } from 'react';
import type { SessionRecord } from '../../../src-shared/contract/auth-models';
import { usePolling } from '../../hooks/usePolling';
import { age, timestamp } from '../../kube/format';
import { useAuth } from '../../state/auth';
import { api } from '../../state/connection';
import { type AdminColumn, AdminTable } from '../common/AdminTable';
import { Badge } from '../common/Badge';
import { Empty, Loading, ProblemNotice } from '../common/Problem';

const nv = (x: { name: string | null; version: string | null }) =>
  x.name ? `${x.name}${x.version ? ` ${x.version}` : ''}` : 'unknown';

/**
 * A browser session is named by its browser ("Chrome browser"), not by the device type the
 * User-Agent implies ("desktop"), which the desktop app's own session would also read as.
 */
function deviceText(s: SessionRecord): string {
  const d = s.device;
  const model = [d.vendor, d.model].filter(Boolean).join(' ');
  const kind =
    s.clientType === 'desktop-app'
      ? 'Skiff desktop app'
      : s.clientType === 'script'
        ? 'script'
        : s.clientType === 'browser'
          ? `${s.browser.name ?? 'Web'} browser`
          : d.type;
  return model ? `${kind} (${model})` : kind;
}

function locationText(s: SessionRecord): string {
  const l = s.location;
  const place = [l.city, l.region, l.country].filter(Boolean).join(', ');
  if (place) return place;
  // The service labels loopback "This device"; that would read like the current-session marker.
  if (l.kind === 'loopback') return 'Same computer (loopback)';
  if (l.kind === 'private') return `Local network${l.network ? ` (${l.network})` : ''}`;
  return l.label;
}

/** Sessions with device, browser, OS and place; any of them can be logged out after a confirmation. */
export function SessionsPanel() {
  const [includeExpired, setIncludeExpired] = useState(false);
  const ownSession = useAuth((s) => s.sessionId);
  const logoutSelf = useAuth((s) => s.logout);
  // The desktop app's own session belongs to its main process; ending it here would strand the window.
  const canEndOwn = useAuth((s) => s.phase === 'signed-in');
  const [ended, setEnded] = useState<ReadonlySet<string>>(new Set());
  const toggleId = useId();
  const sessions = usePolling(
    `sessions/${includeExpired}`,
    async (signal) => {
      const r = await api().call(
        'listSessions',
        { params: {}, query: { includeExpired: String(includeExpired), limit: '1000' } },
        { signal },
      );
      return { items: r.data, total: r.page?.total ?? r.data.length };
    },
    { intervalMs: 10_000 },
  );

  // A logged-out session disappears at once rather than at the next refresh.
  const shown = (sessions.data?.items ?? [])
    .map((s) => (ended.has(s.sessionId) ? { ...s, status: 'logged_out' as const, current: s.current } : s))
    .filter((s) => includeExpired || s.status === 'active');

  const isMine = (s: SessionRecord) => s.current || s.sessionId === ownSession;
  // A refusal stays in the dialog (AdminTable shows it), so the person can retry.
  const logoutDevice = async (target: SessionRecord) => {
    await api().call('logoutSession', { params: { sessionId: target.sessionId } });
    setEnded((prev) => new Set(prev).add(target.sessionId));
    if (isMine(target)) await logoutSelf();
    else sessions.reload();
  };
  const columns: ReadonlyArray<AdminColumn<SessionRecord>> = [
    {
      header: 'Device',
      cell: (s) => (
        <>
          {deviceText(s)}
          {isMine(s) && (
            <>
              {' '}
              <Badge tone="ok">This device</Badge>
            </>
          )}
        </>
      ),
    },
    { header: 'Browser', cell: (s) => nv(s.browser) },
    { header: 'Operating system', cell: (s) => nv(s.os) },
    {
      header: 'Location',
      cell: locationText,
      title: (s) => (s.location.network ? `network ${s.location.network}` : undefined),
    },
    { header: 'First login', cell: (s) => timestamp(s.firstLoginAt), title: (s) => s.firstLoginAt },
    { header: 'Last seen', cell: (s) => `${age(s.lastSeenAt)} ago`, title: (s) => s.lastSeenAt },
    {
      header: 'Status',
      cell: (s) => (
        <Badge tone={s.status === 'active' ? 'ok' : 'neutral'}>
          {s.status === 'logged_out' ? 'logged out' : s.status}
        </Badge>
      ),
    },
  ];

  return (
    <section className="panel" aria-labelledby="sessions-title" data-testid="sessions-panel">
      <header className="panel-head">
        <h2 id="sessions-title">Sessions</h2>
        <div className="field field-toggle">
          <input
            id={toggleId}
            type="checkbox"
            role="switch"
            aria-checked={includeExpired}
            checked={includeExpired}
            onChange={(e) => setIncludeExpired(e.target.checked)}
          />
          <label htmlFor={toggleId}>Include expired and logged-out sessions</label>
        </div>
      </header>
      {sessions.error && <ProblemNotice error={sessions.error} what="sessions" />}
      {!sessions.data && sessions.loading && <Loading label="Loading sessions…" />}
      {sessions.data && shown.length === 0 && <Empty>No sessions.</Empty>}
      {shown.length > 0 && (
        <AdminTable
          label="Login sessions"
          className="sessions"
          columns={columns}
          rows={shown}
          rowKey={(s) => s.sessionId}
          rowAttributes={(s) => ({ 'data-session': s.sessionId, className: isMine(s) ? 'this-device' : '' })}
          action={{
            label: 'Logout Device',
            available: (s) => s.status === 'active' && (!isMine(s) || canEndOwn),
            title: 'Log out this device?',
            confirmLabel: 'Log out device',
            body: (s) => (
              <>
                <p>
                  {deviceText(s)} · {nv(s.browser)} · {nv(s.os)} · {locationText(s)}
                </p>
                <p>
                  {isMine(s)
                    ? 'This is the device you are using: you will be logged out here.'
                    : 'Its access ends at once; it will have to log in again.'}
                </p>
              </>
            ),
            run: logoutDevice,
          }}
        />
      )}
      {/* DB-IP Lite's licence (CC BY 4.0) asks for this credit wherever its locations are shown. */}
      <p className="field-hint">
        Locations are estimated from the client's network (last part of the address removed).{' '}
        <a href="https://db-ip.com" target="_blank" rel="noreferrer">
          IP Geolocation by DB-IP
        </a>
      </p>
    </section>
  );
}
