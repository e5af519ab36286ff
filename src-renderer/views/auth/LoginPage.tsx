import { type FormEvent, useId, useState } from 'react';
import { useAuth } from '../../state/auth';
import { oidcErrorText, oidcLoginHref, rememberReturnHash } from '../../state/oidc-return';
import { Logo } from '../common/Logo';
import './login.css';

/**
 * Browser only. The access token it obtains lives in memory and the refresh token in the service's
 * HttpOnly cookie, so a reload or a new tab continues the session without this page. While the
 * generated first administrator is the only account, it says where that password is.
 *
 * Ways in, as `GET /v1/auth/methods` says (issue 26): "Sign in with {name}" when an identity
 * provider is configured (a link: the sign-in is a navigation through the provider's pages), and
 * the password form unless the service turned it off (`--oidc-only`). With the provider unreachable
 * the page says so, and shows the password form even then: break-glass administrators must still
 * get in when the provider is down. Before the service answered, or from an older service that
 * does not know the question, the password form.
 */
export function LoginPage() {
  const { login, busy, loginError, notice, firstLogin, methods, oidcError } = useAuth();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const userId = useId();
  const passId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void login(username.trim(), password);
  };
  const oidc = methods?.oidc ?? null;
  const provider = oidc?.name ?? 'the identity provider';
  const passwordForm = methods === null || methods.password || (oidc !== null && !oidc.available);
  return (
    <main className="login" id="main">
      <div className="login-card">
        <h1 id="login-title">
          <Logo /> Skiff
        </h1>
        <p className="muted">Log in to look into your clusters.</p>
        {notice && (
          <p className="notice notice-info" role="status">
            {notice}
          </p>
        )}
        {oidcError && (
          <p className="notice notice-error" role="alert" data-testid="oidc-error">
            {oidcErrorText(oidcError, provider)}
          </p>
        )}
        {oidc && (
          <div className="login-oidc">
            <a
              className="button primary"
              href={oidcLoginHref(oidc.loginPath, window.location.pathname)}
              onClick={() => rememberReturnHash(window.location.hash)}
            >
              Sign in with {oidc.name}
            </a>
            {!oidc.available && (
              <p className="notice notice-warn" role="status" data-testid="oidc-unavailable">
                {oidc.name} cannot be reached right now
                {oidc.detail ? ` (${oidc.detail})` : ''}; administrators can still sign in with a password.
              </p>
            )}
          </div>
        )}
        {passwordForm && oidc && <p className="login-or muted">or with a Skiff account</p>}
        {passwordForm ? (
          <form className="login-form" onSubmit={submit} aria-labelledby="login-title">
            {firstLogin && (
              <div className="notice notice-info first-login" data-testid="first-login">
                <p>
                  First login: account <strong>{firstLogin.username}</strong> has a generated password.
                </p>
                {firstLogin.passwordFile ? (
                  <p>
                    It is in this file on the service's machine (readable only by the user running it):{' '}
                    <code>{firstLogin.passwordFile}</code>
                  </p>
                ) : (
                  <p>It was printed on the service's console when it started.</p>
                )}
              </div>
            )}
            <div className="field">
              <label htmlFor={userId}>Username</label>
              <input
                id={userId}
                name="username"
                autoComplete="username"
                required
                value={username}
                onChange={(e) => setUsername(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={passId}>Password</label>
              <input
                id={passId}
                name="password"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </div>
            {loginError && (
              <p className="field-error" role="alert">
                {loginError}
              </p>
            )}
            <button type="submit" className={oidc ? undefined : 'primary'} disabled={busy}>
              {busy ? 'Logging in…' : 'Log in'}
            </button>
          </form>
        ) : (
          loginError && (
            <p className="field-error" role="alert">
              {loginError}
            </p>
          )
        )}
      </div>
    </main>
  );
}
