import { type FormEvent, useEffect, useId, useState } from 'react';
import { DOCS_PATH } from '../../../src-shared/contract/api-docs';
import { useAppSettings } from '../../state/app-settings';

/** The local HTTP API and the token lifetimes, as the service reports and accepts them. */
export function ServiceSection() {
  const { settings, save, saving } = useAppSettings();
  const [port, setPort] = useState('');
  const [access, setAccess] = useState('');
  const [refresh, setRefresh] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const ids = { on: useId(), port: useId(), access: useId(), refresh: useId(), help: useId() };
  useEffect(() => {
    if (!settings) return;
    setPort(String(settings.localApi.port));
    setAccess(String(settings.tokens.accessTokenMinutes));
    setRefresh(String(settings.tokens.refreshTokenDays));
  }, [settings]);
  if (!settings) return null;
  const api = settings.localApi;

  const saveApi = async (patch: { enabled?: boolean; port?: number }) => {
    setStatus((await save({ localApi: patch })) ?? 'Local API settings saved.');
  };
  const saveTokens = async (e: FormEvent) => {
    e.preventDefault();
    const err = await save({
      tokens: { accessTokenMinutes: Number(access), refreshTokenDays: Number(refresh) },
    });
    setStatus(err ?? 'Token lifetimes saved.');
  };

  return (
    <section className="panel" aria-labelledby="svc-title" data-testid="service-settings">
      <h2 id="svc-title">Local API and tokens</h2>
      {!api.editable && (
        <p id={ids.help} className="notice notice-info">
          {settings.mode === 'web'
            ? 'In web mode the local API is this server itself: it cannot be switched off or moved from here. Restart `skiff serve` with --port to change it.'
            : 'The local API cannot be changed from this window.'}
        </p>
      )}
      <div className="row form-row">
        <div className="field field-toggle">
          <input
            id={ids.on}
            type="checkbox"
            role="switch"
            aria-checked={api.enabled}
            checked={api.enabled}
            disabled={!api.editable || saving}
            aria-describedby={api.editable ? undefined : ids.help}
            onChange={(e) => void saveApi({ enabled: e.target.checked })}
          />
          <label htmlFor={ids.on}>Local HTTP API (/v1) for scripts</label>
        </div>
        <div className="field">
          <label htmlFor={ids.port}>Port (loopback only)</label>
          <input
            id={ids.port}
            type="number"
            min={1024}
            max={65535}
            value={port}
            disabled={!api.editable || saving}
            onChange={(e) => setPort(e.target.value)}
          />
        </div>
        <button
          type="button"
          disabled={!api.editable || saving || port === String(api.port)}
          onClick={() => void saveApi({ port: Number(port) })}
        >
          Apply port
        </button>
        <p className="muted">{api.url ? `Listening on ${api.url}` : 'Not listening.'}</p>
      </div>
      {api.url && (
        <p>
          {/* The desktop window opens it in the system browser (navigation-policy.ts). */}
          <a href={new URL(DOCS_PATH, api.url).href} target="_blank" rel="noopener noreferrer">
            API reference (OpenAPI)
          </a>{' '}
          <span className="muted">
            — every endpoint, parameter and error code; the document is at {api.url}/v1/openapi.json
          </span>
        </p>
      )}
      <form className="row form-row" onSubmit={saveTokens} aria-label="Token lifetimes">
        <div className="field">
          <label htmlFor={ids.access}>Access token lifetime (minutes, 15–60)</label>
          <input
            id={ids.access}
            type="number"
            min={15}
            max={60}
            value={access}
            onChange={(e) => setAccess(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.refresh}>Refresh token lifetime (days, 1–365)</label>
          <input
            id={ids.refresh}
            type="number"
            min={1}
            max={365}
            value={refresh}
            onChange={(e) => setRefresh(e.target.value)}
          />
        </div>
        <button type="submit" className="primary" disabled={saving}>
          Save lifetimes
        </button>
      </form>
      {settings.tokens.restartRequired && (
        <p className="notice notice-info">New lifetimes apply after Skiff restarts.</p>
      )}
      <p className="muted">
        Token storage: {settings.tokenStorage.backend}
        {settings.tokenStorage.notice ? ` — ${settings.tokenStorage.notice}` : ''}
      </p>
      {status && (
        <p role="status" className="muted">
          {status}
        </p>
      )}
    </section>
  );
}
