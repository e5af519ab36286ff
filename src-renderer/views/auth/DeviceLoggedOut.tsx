import { useAuth } from '../../state/auth';
import { Logo } from '../common/Logo';
import './login.css';

/** Desktop only: this device's session was ended (from here or elsewhere); nothing works until it is renewed. */
export function DeviceLoggedOut() {
  const { renewDevice, busy, notice } = useAuth();
  return (
    <main className="login" id="main">
      <section className="login-card" aria-labelledby="device-title">
        <h1 id="device-title">
          <Logo /> Skiff
        </h1>
        <p>This device was logged out, so it can no longer reach the service.</p>
        {notice && (
          <p className="notice notice-info" role="status">
            {notice}
          </p>
        )}
        <button type="button" className="primary" disabled={busy} onClick={() => void renewDevice()}>
          Sign this device in again
        </button>
      </section>
    </main>
  );
}
