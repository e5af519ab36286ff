import { requireAdmin } from '../auth/guard';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import { type AppSettingsDeps, describeAppSettings, updateAppSettings } from '../settings/app-settings';

export function settingsHandlers(
  registry: ClusterRegistry,
  deps: AppSettingsDeps,
): Pick<
  OperationHandlers,
  'createWorkspace' | 'updateWorkspace' | 'deleteWorkspace' | 'getAppSettings' | 'updateAppSettings'
> {
  return {
    async createWorkspace({ body }, ctx) {
      requireAdmin(ctx.principal, 'create workspaces');
      const data = registry.createWorkspace(body);
      // Answered once committed: a change the database refused is an error, not a success.
      await registry.saved();
      return { data, status: 201 };
    },
    async updateWorkspace({ params, body }, ctx) {
      requireAdmin(ctx.principal, 'change workspaces');
      const data = registry.updateWorkspace(params.workspaceId, body, ctx.principal);
      await registry.saved();
      return { data };
    },
    async deleteWorkspace({ params }, ctx) {
      requireAdmin(ctx.principal, 'remove workspaces');
      const data = registry.deleteWorkspace(params.workspaceId, ctx.principal);
      await registry.saved();
      return { data };
    },
    async getAppSettings() {
      return { data: describeAppSettings(deps) };
    },
    async updateAppSettings({ body }, ctx) {
      requireAdmin(ctx.principal, 'change application settings');
      return { data: await updateAppSettings(deps, body) };
    },
  };
}
