import { useEffect } from 'react';
import { useAuth } from '../state/auth';
import { syncRouteWithHash } from '../state/route';
import { applyStoredTheme } from '../state/theme';
import { DeviceLoggedOut } from './auth/DeviceLoggedOut';
import { LoginPage } from './auth/LoginPage';
import { Loading } from './common/Problem';
import { Shell } from './shell/Shell';

export function App() {
  const phase = useAuth((s) => s.phase);
  const init = useAuth((s) => s.init);
  useEffect(() => {
    applyStoredTheme();
    void init();
    return syncRouteWithHash();
  }, [init]);
  if (phase === 'checking') return <Loading label="Connecting to the Skiff service…" />;
  if (phase === 'signed-out') return <LoginPage />;
  if (phase === 'device-logged-out') return <DeviceLoggedOut />;
  return <Shell />;
}
