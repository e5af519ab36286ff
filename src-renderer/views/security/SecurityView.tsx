import { ActivityLog } from './ActivityLog';
import { ApiKeysPanel } from './ApiKeysPanel';
import { SessionsPanel } from './SessionsPanel';
import './security.css';

/** Sessions and API keys. Nothing here touches a cluster, so it works with every cluster unreachable. */
export function SecurityView() {
  return (
    <div className="page" data-testid="security-view">
      <h1 className="page-title">Security</h1>
      <SessionsPanel />
      <ApiKeysPanel />
      <ActivityLog />
    </div>
  );
}
