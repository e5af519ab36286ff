import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LEVEL, recordingLogger } from '../http/recording-logger.test-support';
import { type Logger, silentLogger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { AppDatabase } from '../storage/database';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../storage/postgres.test-support';
import { openPostgresBackend } from '../storage/postgres-backend';
import { SqliteBackend } from '../storage/sqlite-backend';
import { memoryStore } from '../storage/store';
import { type WorkspaceConfig, WorkspaceConfigError } from './config';
import { changes, IMPORT_MARKER, WORKSPACES_CHANNEL, WorkspaceStore } from './store';

/**
 * The workspace store's rules (store.ts) on both backends: only what differs is written, row by
 * row, so two replicas that each read the same state and change different workspaces both keep
 * their change; the conf file is copied in once; other replicas' saves arrive by notify, by
 * re-reading after a reconnect, and by the bounded re-read.
 */

const logger = silentLogger();
let pg: TestPostgres | undefined;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  if (!postgresSkipReason) pg = await startPostgres();
});
afterAll(async () => {
  try {
    for (const close of closers) await close();
  } finally {
    await pg?.stop();
  }
});

const confWith = (value: unknown) => {
  const conf = memoryStore();
  conf.set('workspaceConfig', value);
  return conf;
};

/** Two stores over one database, as two replicas hold them: [a, b], neither listening yet. */
type Open = (
  conf?: ReturnType<typeof memoryStore>,
  log?: Logger,
) => Promise<[WorkspaceStore, WorkspaceStore, StorageBackend]>;

const backends: { name: string; skip: string | undefined; open: Open }[] = [
  {
    name: 'sqlite',
    skip: undefined,
    open: async (conf, log = logger) => {
      const db = AppDatabase.open(':memory:', log);
      const backend = new SqliteBackend(db, log);
      const a = WorkspaceStore.openSqlite({ db, backend, conf, logger: log });
      const b = WorkspaceStore.openSqlite({ db, backend, conf, logger: log });
      closers.push(async () => {
        await a.close();
        await b.close();
        await backend.close();
      });
      return [a, b, backend];
    },
  },
  {
    name: 'postgres',
    skip: postgresSkipReason,
    open: async (conf, log = logger) => {
      const url = await pg!.createDatabase();
      const one = await openPostgresBackend(url, log, { max: 2 });
      const two = await openPostgresBackend(url, log, { max: 2 });
      const [a, b] = await Promise.all([
        WorkspaceStore.open({ backend: one, conf, logger: log }),
        WorkspaceStore.open({ backend: two, conf, logger: log }),
      ]);
      closers.push(async () => {
        await a.close();
        await b.close();
        await one.close();
        await two.close();
      });
      return [a, b, one];
    },
  },
];

const rename = (config: WorkspaceConfig, id: string, name: string): WorkspaceConfig => ({
  ...config,
  workspaces: config.workspaces.map((w) => (w.workspaceId === id ? { ...w, name } : w)),
});

const CONF = {
  workspaces: [
    { workspaceId: 'one', name: 'One', clusterIds: ['a'] },
    { workspaceId: 'two', name: 'Two' },
  ],
  clusterIds: { 'ctx-a': 'a' },
  clusters: { a: { clusterAgent: { monitoring: { resourceEventsEnabled: false } } } },
};

describe.each(backends)('the workspace store on $name', ({ skip, open }) => {
  it.skipIf(skip !== undefined)('copies the conf file in once, the default workspace first', async () => {
    const [a, b, backend] = await open(confWith(CONF));
    const expected: WorkspaceConfig = {
      workspaces: [
        { workspaceId: 'default', name: 'Default' },
        { workspaceId: 'one', name: 'One', clusterIds: ['a'] },
        { workspaceId: 'two', name: 'Two' },
      ],
      clusterIds: { 'ctx-a': 'a' },
      clusters: {
        a: { clusterAgent: { monitoring: { resourceEventsEnabled: false, systemEventsEnabled: true } } },
      },
    };
    expect(a.config).toEqual(expected);
    expect(b.config).toEqual(expected);
    // The default workspace is a row only once it differs from the built-in one.
    expect(await backend.all('SELECT workspace_id FROM workspaces ORDER BY position')).toEqual([
      { workspace_id: 'one' },
      { workspace_id: 'two' },
    ]);
    expect(
      await backend.get('SELECT value FROM service_settings WHERE key = $k', { k: IMPORT_MARKER }),
    ).toEqual({
      value: 'true',
    });
  });

  it.skipIf(skip !== undefined)(
    'starts with the default workspace alone when there is nothing to copy',
    async () => {
      const [a] = await open();
      expect(a.config).toEqual({
        workspaces: [{ workspaceId: 'default', name: 'Default' }],
        clusterIds: {},
        clusters: {},
      });
    },
  );

  it.skipIf(skip !== undefined)(
    'two replicas changing different workspaces from the same read both keep their change',
    async () => {
      const [a, b, backend] = await open(confWith(CONF));
      // Neither has heard the other: each saves from what it read at open.
      expect(await a.save(rename(a.config, 'one', 'One by A'))).toBe(true);
      expect(await b.save(rename(b.config, 'two', 'Two by B'))).toBe(true);
      expect(await backend.all('SELECT workspace_id, name FROM workspaces ORDER BY position')).toEqual([
        { workspace_id: 'one', name: 'One by A' },
        { workspace_id: 'two', name: 'Two by B' },
      ]);
      await a.reread();
      expect(a.config.workspaces.map((w) => w.name)).toEqual(['Default', 'One by A', 'Two by B']);
    },
  );

  it.skipIf(skip !== undefined)(
    'writes removals, new workspaces last, context ids once (first writer wins) and flags',
    async () => {
      const [a, b, backend] = await open(confWith(CONF));
      const next: WorkspaceConfig = {
        workspaces: [
          ...a.config.workspaces.filter((w) => w.workspaceId !== 'one'),
          { workspaceId: 'new', name: 'New', clusterIds: [] },
        ],
        clusterIds: { 'ctx-a': 'a', 'ctx-b': 'b' },
        clusters: {
          a: { clusterAgent: { monitoring: { resourceEventsEnabled: false, systemEventsEnabled: false } } },
        },
      };
      await a.save(next);
      expect(a.config).toBe(next);
      // B assigns another id to the same context: the stored one stays.
      await b.save({ ...b.config, clusterIds: { 'ctx-a': 'a', 'ctx-b': 'other' } });
      await b.reread();
      expect(b.config).toEqual({
        ...next,
        clusters: {
          a: { clusterAgent: { monitoring: { resourceEventsEnabled: false, systemEventsEnabled: false } } },
        },
      });
      expect(await backend.all('SELECT workspace_id, cluster_ids FROM workspaces ORDER BY position')).toEqual(
        [
          { workspace_id: 'two', cluster_ids: null },
          { workspace_id: 'new', cluster_ids: '[]' },
        ],
      );
      expect(await backend.all('SELECT * FROM cluster_monitoring')).toEqual([
        { cluster_id: 'a', resource_events: 0, system_events: 0, updated_at: expect.any(Number) },
      ]);
    },
  );

  it.skipIf(skip !== undefined)(
    'hears another replica’s save through notify, and tells onChange',
    async () => {
      const [a, b] = await open();
      await b.start();
      const heard: string[][] = [];
      b.onChange((c) => heard.push(c.workspaces.map((w) => w.workspaceId)));
      await a.save({ ...a.config, workspaces: [...a.config.workspaces, { workspaceId: 'x', name: 'X' }] });
      await vi.waitFor(() => expect(heard).toEqual([['default', 'x']]), { timeout: 5_000 });
      expect(b.config.workspaces.map((w) => w.workspaceId)).toEqual(['default', 'x']);
    },
  );

  it.skipIf(skip !== undefined)(
    're-reads on its own every so often, in case a notification was lost',
    async () => {
      const [a, b, backend] = await open();
      await b.start(50);
      // Written behind both stores' backs: no notification at all.
      await backend.run(
        "INSERT INTO workspaces (workspace_id, name, cluster_ids, position, updated_at) VALUES ('quiet', 'Quiet', NULL, 9, 0)",
      );
      await vi.waitFor(() => expect(b.config.workspaces.map((w) => w.workspaceId)).toContain('quiet'), {
        timeout: 5_000,
      });
      expect(a.config.workspaces.map((w) => w.workspaceId)).toEqual(['default']);
    },
  );

  it.skipIf(skip !== undefined)(
    'refuses a conf file it cannot read, as before, copying nothing',
    async () => {
      await expect(open(confWith({ workspaces: [{ workspaceId: 'Bad Id', name: 'x' }] }))).rejects.toThrow(
        WorkspaceConfigError,
      );
    },
  );

  it.skipIf(skip !== undefined)(
    'after close: a save writes nothing and answers false; re-reads stop',
    async () => {
      const { logger: log, entries } = recordingLogger();
      const [a, , backend] = await open(undefined, log);
      await backend.close();
      expect(await a.save({ ...a.config, workspaces: [] })).toBe(false);
      expect(a.config.workspaces).toHaveLength(1);
      await a.reread();
      expect(entries.filter((e) => e.level === LEVEL.warn)).toEqual([
        expect.objectContaining({ write: 'workspaces', msg: 'write after the service closed was dropped' }),
        expect.objectContaining({
          err: expect.any(String),
          msg: 'workspaces could not be read again; keeping the last read',
        }),
      ]);
    },
  );

  it.skipIf(skip !== undefined)('once closed it hears nothing and reads nothing again', async () => {
    const [a, b, backend] = await open();
    await b.start(20);
    await b.close();
    await a.save({
      ...a.config,
      workspaces: [...a.config.workspaces, { workspaceId: 'late', name: 'Late' }],
    });
    await b.reread();
    await new Promise((r) => setTimeout(r, 150));
    expect(b.config.workspaces.map((w) => w.workspaceId)).toEqual(['default']);
    expect(await backend.get("SELECT name FROM workspaces WHERE workspace_id = 'late'")).toEqual({
      name: 'Late',
    });
  });

  it.skipIf(skip !== undefined)(
    'reads again as soon as it listens (what changed while it was not)',
    async () => {
      const [, b, backend] = await open();
      await backend.run(
        "INSERT INTO workspaces (workspace_id, name, cluster_ids, position, updated_at) VALUES ('early', 'Early', NULL, 9, 0)",
      );
      await b.start(600_000);
      await vi.waitFor(() => expect(b.config.workspaces.map((w) => w.workspaceId)).toContain('early'), {
        timeout: 5_000,
      });
    },
  );

  it.skipIf(skip !== undefined)(
    'a save that changes nothing writes nothing; its own listeners hear a save until they stop',
    async () => {
      const [a, b, backend] = await open(
        confWith({
          workspaces: [{ workspaceId: 'default', name: 'Everything' }],
          clusters: { c: { clusterAgent: { monitoring: { systemEventsEnabled: false } } } },
        }),
      );
      // A stored default workspace is read once, not doubled by the built-in one.
      expect(b.config.workspaces).toEqual([{ workspaceId: 'default', name: 'Everything' }]);
      expect(b.config.clusters).toEqual({
        c: { clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: false } } },
      });
      await b.start();
      const before = await backend.get('SELECT count(*) AS n FROM workspaces');
      const same = structuredClone(a.config);
      const heard: number[] = [];
      const stop = a.onChange((c) => heard.push(c.workspaces.length));
      expect(await a.save(same)).toBe(true);
      expect(a.config).toBe(same);
      expect(await backend.get('SELECT count(*) AS n FROM workspaces')).toEqual(before);
      expect(heard).toEqual([]);
      await a.save({ ...same, workspaces: [...same.workspaces, { workspaceId: 'n', name: 'N' }] });
      expect(heard).toEqual([2]);
      stop();
      await a.save({ ...same, workspaces: [...same.workspaces, { workspaceId: 'm', name: 'M' }] });
      expect(heard).toEqual([2]);
    },
  );
});

describe('changes', () => {
  const base: WorkspaceConfig = {
    workspaces: [{ workspaceId: 'default', name: 'Default' }],
    clusterIds: {},
    clusters: {},
  };
  it('is nothing when nothing differs, and one statement per changed row', () => {
    expect(changes(base, structuredClone(base), 1)).toEqual([]);
    const next: WorkspaceConfig = {
      ...base,
      workspaces: [{ workspaceId: 'default', name: 'Default', clusterIds: ['a'] }],
    };
    expect(changes(base, next, 1)).toEqual([
      {
        sql: expect.stringContaining('INSERT INTO workspaces'),
        params: { id: 'default', name: 'Default', clusterIds: '["a"]', groups: '[]', now: 1 },
      },
    ]);
    const flags: WorkspaceConfig = {
      ...base,
      clusters: {
        a: { clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: true } } },
      },
    };
    // A cluster's flags stored for the first time are written even when they are the defaults.
    expect(changes(base, flags, 2)).toEqual([
      {
        sql: expect.stringContaining('INSERT INTO cluster_monitoring'),
        params: { clusterId: 'a', resource: 1, system: 1, now: 2 },
      },
    ]);
    expect(changes(flags, structuredClone(flags), 3)).toEqual([]);
    const systemOff = structuredClone(flags);
    systemOff.clusters.a!.clusterAgent.monitoring.systemEventsEnabled = false;
    expect(changes(flags, systemOff, 4)).toEqual([
      {
        sql: expect.stringContaining('cluster_monitoring'),
        params: { clusterId: 'a', resource: 1, system: 0, now: 4 },
      },
    ]);
  });
  it('writes an id only when it is new or differs, and flags when either one changed', () => {
    const ids: WorkspaceConfig = { ...base, clusterIds: { x: 'x' } };
    const renamed: WorkspaceConfig = { ...ids, workspaces: [{ workspaceId: 'default', name: 'All' }] };
    expect(changes(ids, renamed, 1).map((c) => c.params)).toEqual([
      { id: 'default', name: 'All', clusterIds: null, groups: '[]', now: 1 },
    ]);
    const on = { clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: true } } };
    const resourceOff = {
      clusterAgent: { monitoring: { resourceEventsEnabled: false, systemEventsEnabled: true } },
    };
    expect(changes({ ...base, clusters: { a: on } }, { ...base, clusters: { a: resourceOff } }, 2)).toEqual([
      {
        sql: expect.stringContaining('cluster_monitoring'),
        params: { clusterId: 'a', resource: 0, system: 1, now: 2 },
      },
    ]);
  });

  it('tells channel names apart', () => {
    expect(WORKSPACES_CHANNEL).toBe('skiff_workspaces');
  });
});
