/**
 * The workspace configuration as it is read from the data dir's store: defaults, the default
 * workspace that always exists, a configuration that cannot be read, and each cluster's
 * monitoring flags.
 */
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../storage/store';
import {
  DEFAULT_WORKSPACE_ID,
  loadWorkspaceConfig,
  monitoringOf,
  saveWorkspaceConfig,
  type WorkspaceConfig,
  WorkspaceConfigError,
} from './config';

const KEY = 'workspaceConfig';

function storeWith(value: unknown) {
  const store = memoryStore();
  if (value !== undefined) store.set(KEY, value);
  return store;
}

function loadError(value: unknown): WorkspaceConfigError {
  try {
    loadWorkspaceConfig(storeWith(value));
  } catch (err) {
    return err as WorkspaceConfigError;
  }
  throw new Error('the configuration was accepted');
}

describe('loading', () => {
  it('an empty store is the default workspace, holding every cluster, and no ids or settings yet', () => {
    expect(loadWorkspaceConfig(storeWith(undefined))).toEqual({
      workspaces: [{ workspaceId: 'default', name: 'Default' }],
      clusterIds: {},
      clusters: {},
    });
  });

  it('a configuration without the default workspace gets it first, the others kept in their order', () => {
    const config = loadWorkspaceConfig(
      storeWith({
        workspaces: [
          { workspaceId: 'zeta', name: 'Zeta', clusterIds: ['prod'] },
          { workspaceId: 'alpha', name: 'Alpha', clusterIds: [] },
        ],
      }),
    );
    expect(config.workspaces.map((w) => w.workspaceId)).toEqual([DEFAULT_WORKSPACE_ID, 'zeta', 'alpha']);
    expect(config.workspaces[0]).toEqual({ workspaceId: 'default', name: 'Default' });
  });

  it('a configuration that has the default workspace keeps it where it is, once', () => {
    const config = loadWorkspaceConfig(
      storeWith({
        workspaces: [
          { workspaceId: 'ops', name: 'Ops' },
          { workspaceId: 'default', name: 'Everything' },
        ],
      }),
    );
    expect(config.workspaces).toEqual([
      { workspaceId: 'ops', name: 'Ops' },
      { workspaceId: 'default', name: 'Everything' },
    ]);
  });

  it.each([
    ['an unknown key', { workspace: [] }, '"workspaceConfig"'],
    [
      'a workspace id that is not a slug',
      { workspaces: [{ workspaceId: 'Not A Slug', name: 'x' }] },
      '"workspaceConfig.workspaces.0.workspaceId"',
    ],
    [
      'an empty workspace name',
      { workspaces: [{ workspaceId: 'ops', name: '' }] },
      '"workspaceConfig.workspaces.0.name"',
    ],
    [
      'a cluster id map to a non-slug',
      { clusterIds: { 'my-context': 'UPPER' } },
      '"workspaceConfig.clusterIds.my-context"',
    ],
  ])('%s is refused, naming the store, the field and that nothing is overwritten', (_, value, field) => {
    const err = loadError(value);
    expect(err).toBeInstanceOf(WorkspaceConfigError);
    expect(err.message.startsWith(`:memory:: ${field} `)).toBe(true);
    expect(
      err.message.endsWith('. Fix or remove it; Skiff does not overwrite a configuration it cannot read.'),
    ).toBe(true);
  });
});

describe('saving', () => {
  it('what is saved is what the next load reads', () => {
    const store = memoryStore();
    const config: WorkspaceConfig = {
      workspaces: [
        { workspaceId: 'default', name: 'Default' },
        { workspaceId: 'ops', name: 'Ops', clusterIds: ['prod'] },
      ],
      clusterIds: { 'prod-context': 'prod' },
      clusters: {
        prod: { clusterAgent: { monitoring: { resourceEventsEnabled: false, systemEventsEnabled: true } } },
      },
    };
    saveWorkspaceConfig(store, config);
    expect(loadWorkspaceConfig(store)).toEqual(config);
  });
});

describe('monitoring flags', () => {
  const config = loadWorkspaceConfig(
    storeWith({
      clusters: {
        quiet: { clusterAgent: { monitoring: { resourceEventsEnabled: false, systemEventsEnabled: false } } },
        partial: { clusterAgent: { monitoring: { systemEventsEnabled: false } } },
        bare: {},
      },
    }),
  );

  it('a cluster with no settings has both kinds of events on', () => {
    expect(monitoringOf(config, 'never-configured')).toEqual({
      resourceEventsEnabled: true,
      systemEventsEnabled: true,
    });
    expect(monitoringOf(config, 'bare')).toEqual({ resourceEventsEnabled: true, systemEventsEnabled: true });
  });

  it('a flag that was set is kept, and one that was not is on', () => {
    expect(monitoringOf(config, 'quiet')).toEqual({
      resourceEventsEnabled: false,
      systemEventsEnabled: false,
    });
    expect(monitoringOf(config, 'partial')).toEqual({
      resourceEventsEnabled: true,
      systemEventsEnabled: false,
    });
  });

  it('a cluster entry without its agent section has both kinds on', () => {
    const loose = { ...config, clusters: { odd: {} as WorkspaceConfig['clusters'][string] } };
    expect(monitoringOf(loose, 'odd')).toEqual({ resourceEventsEnabled: true, systemEventsEnabled: true });
  });
});
