import { type FormEvent, useId, useState } from 'react';
import { useAuth } from '../../state/auth';
import { Logo } from '../common/Logo';
import './login.css';

/** Browser only. The tokens it obtains live in memory: closing or reloading the tab asks again. */
export function LoginPage() {
  const { login, busy, loginError, notice } = useAuth();
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
