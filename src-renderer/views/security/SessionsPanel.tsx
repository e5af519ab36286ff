import { useId, useState } from 'react';
import type { SessionRecord } from '../../../src-shared/contract/auth-models';
import { usePolling } from '../../hooks/usePolling';
import { age, timestamp } from '../../kube/format';
import { useAuth } from '../../state/auth';
import { api } from '../../state/connection';
import { Badge } from '../common/Badge';
import { ConfirmDialog } from '../common/Dialog';
import { Empty, Loading, ProblemNotice, problemText } from '../common/Problem';

const nv = (x: { name: string | null; version: string | null }) =>
  x.name ? `${x.name}${x.version ? ` ${x.version}` : ''}` : 'unknown';

function deviceText(s: SessionRecord): string {
  const d = s.device;
  const model = [d.vendor, d.model].filter(Boolean).join(' ');
  const kind =
    s.clientType === 'desktop-app' ? 'Skiff desktop app' : s.clientType === 'script' ? 'script' : d.type;
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
  const [confirming, setConfirming] = useState<SessionRecord | null>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
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

  const confirm = async () => {
    if (!confirming) return;
    setBusy(true);
    setActionError(null);
    const target = confirming;
    try {
      await api().call('logoutSession', { params: { sessionId: target.sessionId } });
      setEnded((prev) => new Set(prev).add(target.sessionId));
      setConfirming(null);
      if (target.current || target.sessionId === ownSession) await logoutSelf();
      else sessions.reload();
    } catch (err) {
      setActionError(problemText(err));
    } finally {
      setBusy(false);
    }
  };

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
        <table className="table sessions" aria-label="Login sessions">
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Browser</th>
              <th scope="col">Operating system</th>
              <th scope="col">Location</th>
              <th scope="col">First login</th>
              <th scope="col">Last seen</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((s) => {
              const mine = s.current || s.sessionId === ownSession;
              return (
                <tr key={s.sessionId} data-session={s.sessionId} className={mine ? 'this-device' : ''}>
                  <td>
                    {deviceText(s)}
                    {mine && (
                      <>
                        {' '}
                        <Badge tone="ok">This device</Badge>
                      </>
                    )}
                  </td>
                  <td>{nv(s.browser)}</td>
                  <td>{nv(s.os)}</td>
                  <td title={s.location.network ? `network ${s.location.network}` : undefined}>
                    {locationText(s)}
                  </td>
                  <td title={s.firstLoginAt}>{timestamp(s.firstLoginAt)}</td>
                  <td title={s.lastSeenAt}>{age(s.lastSeenAt)} ago</td>
                  <td>
                    <Badge tone={s.status === 'active' ? 'ok' : 'neutral'}>
                      {s.status === 'logged_out' ? 'logged out' : s.status}
                    </Badge>
                  </td>
                  <td>
                    {s.status === 'active' && (!mine || canEndOwn) && (
                      <button type="button" className="danger" onClick={() => setConfirming(s)}>
                        Logout Device
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {/* DB-IP Lite's licence (CC BY 4.0) asks for this credit wherever its locations are shown. */}
      <p className="field-hint">
        Locations are estimated from the client's network (last part of the address removed).{' '}
        <a href="https://db-ip.com" target="_blank" rel="noreferrer">
          IP Geolocation by DB-IP
        </a>
      </p>
      <ConfirmDialog
        open={confirming !== null}
        title="Log out this device?"
        confirmLabel="Log out device"
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => {
          setConfirming(null);
          setActionError(null);
        }}
      >
        {confirming && (
          <>
            <p>
              {deviceText(confirming)} · {nv(confirming.browser)} · {nv(confirming.os)} ·{' '}
              {locationText(confirming)}
            </p>
            <p>
              {confirming.current || confirming.sessionId === ownSession
                ? 'This is the device you are using: you will be logged out here.'
                : 'Its access ends at once; it will have to log in again.'}
            </p>
            {actionError && (
              <p className="field-error" role="alert">
                {actionError}
              </p>
            )}
          </>
        )}
      </ConfirmDialog>
    </section>
  );
}
