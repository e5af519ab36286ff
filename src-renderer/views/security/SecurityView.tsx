import { AccountsPanel } from './AccountsPanel';
import { ActivityLog } from './ActivityLog';
import { ApiKeysPanel } from './ApiKeysPanel';
import { SessionsPanel } from './SessionsPanel';
import './security.css';

/** Sessions, API keys, accounts (administrators) and the activity log. Nothing here touches a cluster, so it works with every cluster unreachable. */
export function SecurityView() {
  return (
    <div className="page" data-testid="security-view">
      <h1 className="page-title">Security</h1>
      <SessionsPanel />
      <ApiKeysPanel />
      <AccountsPanel />
      <ActivityLog />
    </div>
  );
}
