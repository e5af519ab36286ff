import { useAuth } from '../../state/auth';
import { ApiKeysPanel } from './ApiKeysPanel';
import { SessionsPanel } from './SessionsPanel';

/** Sessions and API keys. Nothing here touches a cluster, so it works with every cluster unreachable. */
export function SecurityView() {
  const phase = useAuth((s) => s.phase);
  return (
    <div className="page" data-testid="security-view">
      <h1 className="page-title">Security</h1>
      {phase === 'open' && (
        <p className="notice notice-warn" role="status">
          This service answered without asking for a login, so there are no sessions to manage from this
          window.
        </p>
      )}
      <SessionsPanel />
      <ApiKeysPanel />
    </div>
  );
}
