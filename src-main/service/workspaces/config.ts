import { z } from 'zod';
import type { MonitoringFlags } from '../../../src-shared/contract/models';
import type { KeyValueStore } from '../storage/store';

export const DEFAULT_WORKSPACE_ID = 'default';

const slug = z.string().regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/);

const monitoringSchema = z.object({
  resourceEventsEnabled: z.boolean().default(true),
  systemEventsEnabled: z.boolean().default(true),
});

const clusterSettingsSchema = z.object({
  clusterAgent: z.object({ monitoring: monitoringSchema.prefault({}) }).prefault({}),
});

/** The workspace configuration file. Unknown keys are refused so that a typo never silently does nothing. */
export const workspaceConfigSchema = z.strictObject({
  workspaces: z
    .array(
      z.strictObject({
        workspaceId: slug,
        name: z.string().min(1).max(100),
        /** Absent: every cluster (the default workspace). */
        clusterIds: z.array(slug).optional(),
        /** Identity-provider groups whose members belong to the workspace (auth/oidc); absent: none. */
        groups: z.array(z.string().min(1).max(256)).optional(),
      }),
    )
    .default([{ workspaceId: DEFAULT_WORKSPACE_ID, name: 'Default' }]),
  /** context name → clusterId, so ids stay stable once assigned. */
  clusterIds: z.record(z.string(), slug).default({}),
  clusters: z.record(slug, clusterSettingsSchema).default({}),
});

export type WorkspaceConfig = z.output<typeof workspaceConfigSchema>;

const KEY = 'workspaceConfig';

export class WorkspaceConfigError extends Error {}

export function loadWorkspaceConfig(store: KeyValueStore): WorkspaceConfig {
  const parsed = workspaceConfigSchema.safeParse(store.get(KEY) ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new WorkspaceConfigError(
      `${store.path}: "${[KEY, ...issue.path].join('.')}" ${issue.message}. Fix or remove it; Skiff does not overwrite a configuration it cannot read.`,
    );
  }
  if (!parsed.data.workspaces.some((w) => w.workspaceId === DEFAULT_WORKSPACE_ID)) {
    parsed.data.workspaces.unshift({ workspaceId: DEFAULT_WORKSPACE_ID, name: 'Default' });
  }
  return parsed.data;
}

export function saveWorkspaceConfig(store: KeyValueStore, config: WorkspaceConfig): void {
  store.set(KEY, config);
}

export function monitoringOf(config: WorkspaceConfig, clusterId: string): MonitoringFlags {
  return monitoringSchema.parse(config.clusters[clusterId]?.clusterAgent?.monitoring ?? {});
}
