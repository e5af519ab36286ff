import { type FormEvent, useId, useState } from 'react';
import { useAuth } from '../../state/auth';
import { Logo } from '../common/Logo';
import './login.css';

/**
 * Browser only. The access token it obtains lives in memory and the refresh token in the service's
 * HttpOnly cookie, so a reload or a new tab continues the session without this page. While the
 * generated first administrator is the only account, it says where that password is.
 */
export function LoginPage() {
  const { login, busy, loginError, notice, firstLogin } = useAuth();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const userId = useId();
  const passId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void login(username.trim(), password);
  };
  return (
    <main className="login" id="main">
      <form className="login-card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">
          <Logo /> Skiff
        </h1>
        <p className="muted">Log in to look into your clusters.</p>
        {notice && (
          <p className="notice notice-info" role="status">
            {notice}
          </p>
        )}
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
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </main>
  );
}
