import { z } from 'zod';
import { defineOperation } from './define';
import { workspace } from './models';
import { idParam } from './params';
import { appSettings } from './settings-models';

/** Workspace management and application settings (the Settings view). */

const none = z.strictObject({});
const noBody = z.undefined();
const workspaceName = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(100, 'name must be at most 100 characters');
const clusterIds = z.array(idParam('clusterId')).max(500);

export const WORKSPACE_DEFAULT_ID = 'default';

/** Identity-provider groups whose members belong to a workspace (sign-in with OIDC). */
const memberGroups = z.array(z.string().min(1).max(256)).max(100);

/** A workspace as its management operations (administrators) answer it: with the clusters assigned to it. */
export const workspaceWithClusters = workspace
  .extend({ clusterIds: z.array(z.string()) })
  .meta({ id: 'WorkspaceWithClusters' });

export const settingsOperations = {
  createWorkspace: defineOperation({
    method: 'POST',
    path: '/v1/workspaces',
    summary: 'Create a workspace (administrators).',
    auth: 'session',
    params: none,
    query: none,
    body: z.strictObject({
      workspaceId: idParam('workspaceId'),
      name: workspaceName,
      clusterIds: clusterIds.default([]),
      groups: memberGroups.default([]),
    }),
    result: workspaceWithClusters,
    paginated: false,
    successStatus: 201,
  }),

  updateWorkspace: defineOperation({
    method: 'PATCH',
    path: '/v1/workspaces/:workspaceId',
    summary:
      'Rename a workspace or set its clusters (administrators). The default workspace holds every cluster.',
    auth: 'session',
    params: z.strictObject({ workspaceId: idParam('workspaceId') }),
    query: none,
    body: z.strictObject({
      name: workspaceName.optional(),
      clusterIds: clusterIds.optional(),
      groups: memberGroups.optional(),
    }),
    result: workspaceWithClusters,
    paginated: false,
  }),

  deleteWorkspace: defineOperation({
    method: 'DELETE',
    path: '/v1/workspaces/:workspaceId',
    summary: 'Remove a workspace (administrators); its clusters stay in the default workspace.',
    auth: 'session',
    params: z.strictObject({ workspaceId: idParam('workspaceId') }),
    query: none,
    body: noBody,
    result: workspace,
    paginated: false,
  }),

  getAppSettings: defineOperation({
    method: 'GET',
    path: '/v1/app/settings',
    summary: 'Application settings: local API, token storage, kubeconfig files, token lifetimes.',
    auth: 'session',
    params: none,
    query: none,
    body: noBody,
    result: appSettings,
    paginated: false,
  }),

  updateAppSettings: defineOperation({
    method: 'PATCH',
    path: '/v1/app/settings',
    summary: 'Change application settings (administrators).',
    auth: 'session',
    params: none,
    query: none,
    body: z.strictObject({
      localApi: z
        .strictObject({
          enabled: z.boolean().optional(),
          port: z.number().int().min(1024).max(65535).optional(),
        })
        .optional(),
      kubeconfig: z.strictObject({ paths: z.array(z.string().min(1).max(4096)).max(50) }).optional(),
      tokens: z
        .strictObject({
          accessTokenMinutes: z.number().int().min(15).max(60).optional(),
          refreshTokenDays: z.number().int().min(1).max(365).optional(),
        })
        .optional(),
    }),
    result: appSettings,
    paginated: false,
  }),
} as const;
