import type { AuthService } from '../auth/index';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import type { AppSettingsDeps } from '../settings/app-settings';
import { authHandlers } from './auth';
import { authAdminHandlers } from './auth-admin';
import { eventHandlers } from './events';
import { guidanceHandlers } from './guidance';
import { logHandlers } from './logs';
import { resourceHandlers } from './resources';
import { settingsHandlers } from './settings';
import { workspaceHandlers } from './workspaces';

export const SERVICE_VERSION = '0.1.0';

export function createHandlers(
  registry: ClusterRegistry,
  auth: AuthService,
  settings: AppSettingsDeps,
): OperationHandlers {
  return {
    ...authHandlers(auth),
    ...authAdminHandlers(auth),
    health: async () => ({ data: { status: 'ok', version: SERVICE_VERSION } }),
    ...workspaceHandlers(registry),
    ...resourceHandlers(registry),
    ...eventHandlers(registry),
    ...logHandlers(registry),
    ...settingsHandlers(registry, settings),
    ...guidanceHandlers(),
  };
}
