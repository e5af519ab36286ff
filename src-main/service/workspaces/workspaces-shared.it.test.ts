/**
 * Workspaces, context ids and monitoring flags in the database (migration 3, workspaces/store.ts),
 * over real HTTP, on both storage backends: two service instances sharing one database, as
 * replicas behind a load balancer. A change made through one is seen through the other; two
 * instances editing two workspaces at once both keep their change; the conf file's configuration is
 * copied in once and then left alone.
 *
 * On PostgreSQL each instance has its own pool (openDatabaseStorage), as replicas do; on SQLite one
 * process is the whole service, so the two share its one storage (the first is handed a copy whose
 * close does nothing, and the second closes it).
 * What one replica wrote reaches the other through NOTIFY a moment later: waited for up to 20 s,
 * since a busy machine stretches that moment (a 5 s wait failed once under load).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster, Workspace } from '../../../src-shared/contract/models';
import { createService, type Service } from '../index';
import { loadContexts } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { openDatabaseStorage, openStorage, type Storage } from '../storage/index';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../storage/postgres.test-support';
import { memoryStore } from '../storage/store';
import { checkAnswer } from '../test-support/contract-check.test-support';
import { eventually } from '../test-support/eventually.test-support';
import { type LoggedIn, login, TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { IMPORT_MARKER } from './store';

const logger = silentLogger();
const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
let dir: string;
let sim: Simulator;
let kubeconfigPath: string;
let pg: TestPostgres | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-workspaces-shared-'));
  sim = await startSimulator({ tickMs: false });
  kubeconfigPath = join(dir, 'kubeconfig');
  await writeFile(kubeconfigPath, sim.kubeconfigYaml('alpha'));
  if (!postgresSkipReason) pg = await startPostgres();
}, 120_000);

afterAll(async () => {
  await sim?.close();
  await pg?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** What an older Skiff left in its conf file. */
const CONF = {
  workspaces: [
    { workspaceId: 'default', name: 'Everything' },
    { workspaceId: 'legacy', name: 'From the conf file', clusterIds: ['alpha'] },
  ],
  clusterIds: { alpha: 'alpha' },
  clusters: {
    alpha: { clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: false } } },
  },
};

const backends: Array<{
  name: string;
  skip: string | undefined;
  open(conf: ReturnType<typeof memoryStore>): Promise<[Storage, Storage]>;
}> = [
  {
    name: 'sqlite',
    skip: undefined,
    async open(conf) {
      const shared = openStorage({ logger, store: conf });
      return [{ ...shared, close: async () => {} }, shared];
    },
  },
  {
    name: 'postgres',
    skip: postgresSkipReason,
    async open(conf) {
      const url = await pg!.createDatabase();
      // Both start from a conf file with the same content: it is copied in once.
      const other = memoryStore();
      other.set('workspaceConfig', {
        ...CONF,
        workspaces: [{ workspaceId: 'second', name: 'Copied twice?' }],
      });
      // One after the other, so which file is copied is known: the second finds the marker.
      const a = await openDatabaseStorage({ url, logger, store: conf, replicaId: 'replica-a' });
      const b = await openDatabaseStorage({ url, logger, store: other, replicaId: 'replica-b' });
      return [a, b];
    },
  },
];

describe.each(backends)('workspaces across service instances ($name)', ({ name, skip, open }) => {
  let services: Service[] = [];
  let storages: Storage[] = [];
  let urls: string[] = [];
  const admins = new Map<string, LoggedIn>();
  const conf = memoryStore();

  beforeAll(async () => {
    if (skip) return;
    conf.set('workspaceConfig', CONF);
    storages = await open(conf);
    services = [];
    urls = [];
    for (const storage of storages) {
      const service = createService({
        storage,
        contexts: loadContexts([kubeconfigPath]),
        logger,
        adminPassword: TEST_ADMIN_PASSWORD,
        auth: { secretKey: SECRET_KEY },
        http: { keepAliveTimeoutMs: 120_000 },
      });
      services.push(service);
      urls.push((await service.listen(0, '127.0.0.1')).url);
    }
    for (const url of urls) admins.set(url, await login(url));
  }, 60_000);

  afterAll(async () => {
    for (const s of services) await s.close();
    services = [];
  });

  async function call<T>(url: string, method: string, path: string, body?: unknown) {
    const res = await fetch(url + path, {
      method,
      headers: {
        ...admins.get(url)!.headers,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const contentType = res.headers.get('content-type') ?? '';
    const parsed = (await res.json()) as T;
    checkAnswer(method, path, res.status, contentType, parsed);
    return { status: res.status, body: parsed };
  }

  const names = async (url: string) =>
    (await call<Workspace[]>(url, 'GET', '/v1/workspaces')).body.map((w) => `${w.workspaceId}:${w.name}`);

  it.skipIf(skip !== undefined)(
    'starts from the conf file’s configuration, copied in once and the file left as it was',
    async () => {
      for (const url of urls)
        expect(await names(url)).toEqual(['default:Everything', 'legacy:From the conf file']);
      const marker = await storages[1]!.backend.get<{ value: string }>(
        'SELECT value FROM service_settings WHERE key = $key',
        { key: IMPORT_MARKER },
      );
      expect(marker).toEqual({ value: 'true' });
      expect(conf.get('workspaceConfig')).toEqual(CONF);
      const alpha = await call<Cluster>(urls[1]!, 'GET', '/v1/workspaces/legacy/clusters');
      expect(alpha.body).toEqual([
        expect.objectContaining({
          clusterId: 'alpha',
          monitoring: {
            clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: false } },
          },
        }),
      ]);
    },
  );

  it.skipIf(skip !== undefined)(
    'a workspace created through one is listed through the other',
    async () => {
      const [a, b] = urls as [string, string];
      const created = await call<Workspace>(a, 'POST', '/v1/workspaces', {
        workspaceId: 'team',
        name: 'Team',
        clusterIds: ['alpha'],
      });
      expect(created.status).toBe(201);
      await eventually(async () => expect(await names(b)).toContain('team:Team'), 20_000);
      // Stored as rows, not in the conf file.
      expect(JSON.stringify(conf.get('workspaceConfig'))).not.toContain('team');
      const removed = await call<Workspace>(b, 'DELETE', '/v1/workspaces/team');
      expect(removed.status).toBe(200);
      await eventually(async () => expect(await names(a)).not.toContain('team:Team'), 20_000);
    },
    60_000,
  );

  it.skipIf(skip !== undefined)(
    'two instances editing two workspaces at once both keep their change',
    async () => {
      const [a, b] = urls as [string, string];
      for (const id of ['one', 'two'])
        expect(
          (await call(a, 'POST', '/v1/workspaces', { workspaceId: id, name: id, clusterIds: [] })).status,
        ).toBe(201);
      await eventually(
        async () => expect(await names(b)).toEqual(expect.arrayContaining(['one:one', 'two:two'])),
        20_000,
      );
      // Each instance changes the one it was asked about, at the same moment, from what it last read.
      const [ra, rb] = await Promise.all([
        call(a, 'PATCH', '/v1/workspaces/one', { name: 'One renamed on A' }),
        call(b, 'PATCH', '/v1/workspaces/two', { name: 'Two renamed on B' }),
      ]);
      expect([ra.status, rb.status]).toEqual([200, 200]);
      for (const url of urls)
        await eventually(
          async () =>
            expect(await names(url)).toEqual(
              expect.arrayContaining(['one:One renamed on A', 'two:Two renamed on B']),
            ),
          20_000,
        );
      const rows = await storages[0]!.backend.all<{ workspace_id: string; name: string }>(
        "SELECT workspace_id, name FROM workspaces WHERE workspace_id IN ('one', 'two') ORDER BY workspace_id",
      );
      expect(rows).toEqual([
        { workspace_id: 'one', name: 'One renamed on A' },
        { workspace_id: 'two', name: 'Two renamed on B' },
      ]);
    },
    60_000,
  );

  it.skipIf(skip !== undefined)(
    'a monitoring flag changed through one is seen through the other',
    async () => {
      const [a, b] = urls as [string, string];
      const changed = await call<Cluster>(a, 'PATCH', '/v1/workspaces/default/clusters/alpha', {
        clusterAgent: { monitoring: { systemEventsEnabled: true, resourceEventsEnabled: false } },
      });
      expect(changed.status).toBe(200);
      await eventually(async () => {
        const seen = await call<Cluster[]>(b, 'GET', '/v1/workspaces/default/clusters');
        expect(seen.body.find((c) => c.clusterId === 'alpha')?.monitoring).toEqual({
          clusterAgent: { monitoring: { resourceEventsEnabled: false, systemEventsEnabled: true } },
        });
      }, 20_000);
      expect(name).toBeTruthy();
    },
    60_000,
  );
});

describe('workspaces on SQLite in a data dir', () => {
  it('survive a restart in the database, and the conf file is neither rewritten nor read again', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'skiff-workspaces-restart-'));
    try {
      const start = async () => {
        const service = createService({
          dataDir,
          contexts: loadContexts([kubeconfigPath]),
          logger,
          adminPassword: TEST_ADMIN_PASSWORD,
        });
        const { url } = await service.listen(0, '127.0.0.1');
        return { service, url, admin: await login(url) };
      };
      const first = await start();
      const res = await fetch(`${first.url}/v1/workspaces`, {
        method: 'POST',
        headers: { ...first.admin.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ workspaceId: 'kept', name: 'Kept', clusterIds: ['alpha'] }),
      });
      expect(res.status).toBe(201);
      await first.service.close();
      const confText = await readFile(join(dataDir, 'skiff.json'), 'utf8').catch(() => '{}');
      expect(confText).not.toContain('kept');
      // A conf file edited by hand after the copy is not read again: the database is the truth.
      await writeFile(
        join(dataDir, 'skiff.json'),
        JSON.stringify({ workspaceConfig: { workspaces: [{ workspaceId: 'ignored', name: 'Ignored' }] } }),
      );
      const second = await start();
      try {
        const list = await fetch(`${second.url}/v1/workspaces`, { headers: second.admin.headers });
        const ids = ((await list.json()) as Workspace[]).map((w) => w.workspaceId);
        expect(ids).toEqual(['default', 'kept']);
      } finally {
        await second.service.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
