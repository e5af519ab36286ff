/**
 * Capture jobs across service instances over real HTTP (issue 25 §2), on both storage backends:
 * two services sharing one database and one snapshot folder, as replicas behind a load balancer.
 * A job started through one is seen, and its file downloaded, through the other; a running job
 * whose replica is gone (a row written as by a replica that stopped beating) is reported failed,
 * naming it, by whichever instance is asked.
 *
 * On PostgreSQL each service has its own connection pool (openDatabaseStorage), as replicas do;
 * on SQLite one process is the whole service, so the two share its one storage (the first is
 * handed a copy whose close does nothing, and the second closes it).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import { createService, type Service } from '../index';
import { loadContexts } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { openDatabaseStorage, openStorage, type Storage } from '../storage/index';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../storage/postgres.test-support';
import { checkAnswer } from '../test-support/contract-check.test-support';
import { eventually } from '../test-support/eventually.test-support';
import { type LoggedIn, login, TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';

const logger = silentLogger();
const SECRET_KEY = Buffer.alloc(32, 5).toString('base64');
let dir: string;
let sim: Simulator;
let kubeconfigPath: string;
let pg: TestPostgres | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-jobs-shared-'));
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

/** Two storages over one database: [the first instance's, the second's]. */
const backends: Array<{ name: string; skip: string | undefined; open(): Promise<[Storage, Storage]> }> = [
  {
    name: 'sqlite',
    skip: undefined,
    async open() {
      const shared = openStorage({ logger });
      return [{ ...shared, close: async () => {} }, shared];
    },
  },
  {
    name: 'postgres',
    skip: postgresSkipReason,
    async open() {
      const url = await pg!.createDatabase();
      return [
        await openDatabaseStorage({ url, logger, replicaId: 'replica-a' }),
        await openDatabaseStorage({ url, logger, replicaId: 'replica-b' }),
      ];
    },
  },
];

describe.each(backends)('capture jobs across service instances ($name)', ({ skip, open }) => {
  let services: Service[] = [];
  let storages: Storage[] = [];
  let urls: string[] = [];
  let snapshotDir: string;
  /** A session on each instance (on SQLite each signs its own tokens, as one process always did). */
  const admins = new Map<string, LoggedIn>();

  beforeAll(async () => {
    if (skip) return;
    snapshotDir = join(dir, `snapshots-${Math.random().toString(36).slice(2)}`);
    storages = await open();
    // One after the other: the first creates the administrator, the second finds it.
    services = [];
    urls = [];
    for (const storage of storages) {
      const service = createService({
        storage,
        contexts: loadContexts([kubeconfigPath]),
        snapshotDir,
        logger,
        adminPassword: TEST_ADMIN_PASSWORD,
        auth: { secretKey: SECRET_KEY },
        // The test idles on one instance while it polls the other: its kept-alive socket must not
        // be closed under the next request.
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
    if (!contentType.includes('json'))
      return { status: res.status, body: undefined as T, bytes: await res.bytes() };
    const parsed = (await res.json()) as T;
    checkAnswer(method, path, res.status, contentType, parsed);
    return { status: res.status, body: parsed, bytes: undefined };
  }

  it.skipIf(skip !== undefined)(
    'a job started through one instance is seen through the other, and its file downloads from it',
    async () => {
      const [a, b] = urls as [string, string];
      const started = await call<SnapshotJob>(a, 'POST', '/v1/workspaces/default/clusters/alpha/snapshots', {
        logs: 'none',
      });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const id = started.body.snapshotId;
      const seen = await call<SnapshotJob>(b, 'GET', `/v1/snapshots/${id}`);
      expect(seen.status).toBe(200);
      expect(seen.body).toMatchObject({ snapshotId: id, clusterId: 'alpha', workspaceId: 'default' });
      const done = await eventually(async () => {
        const res = await call<SnapshotJob>(b, 'GET', `/v1/snapshots/${id}`);
        expect(res.body.status).toBe('done');
        return res.body;
      }, 15_000);
      expect((await call<SnapshotJob>(a, 'GET', `/v1/snapshots/${id}`)).body).toEqual(done);
      const file = await call<never>(b, 'GET', `/v1/snapshots/${id}/file`);
      expect(file.status).toBe(200);
      expect(file.bytes).toHaveLength(done.sizeBytes!);
      expect(Buffer.from(file.bytes!)).toEqual(await readFile(join(snapshotDir, `capture-${id}.skiff`)));
    },
    60_000,
  );

  it.skipIf(skip !== undefined)(
    'a running job whose replica stopped beating is reported failed through either instance, naming it',
    async () => {
      const at = Date.now() - 31_000;
      await storages[1]!.backend.run(
        `INSERT INTO snapshot_jobs (snapshot_id, status, workspace_id, cluster_id, context, file_name, replica_id,
           started_at, heartbeat_at, progress, missing)
         VALUES ('snap-00000000000000aa', 'running', 'default', 'gone-cluster', 'gone', 'gone.skiff', 'replica-gone',
           $at, $at, $progress, '[]')`,
        { at, progress: JSON.stringify({ objects: 0, events: 0, podLogsDone: 0, podLogsTotal: 0 }) },
      );
      for (const url of urls) {
        const res = await call<SnapshotJob>(url, 'GET', '/v1/snapshots/snap-00000000000000aa');
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          status: 'failed',
          error: `replica "replica-gone" stopped while taking this snapshot (no heartbeat since ${new Date(at).toISOString()}); take it again`,
        });
        const file = await call<Problem>(url, 'GET', '/v1/snapshots/snap-00000000000000aa/file');
        expect(file.status).toBe(409);
        expect(file.body).toMatchObject({ code: 'conflict', jobStatus: 'failed' });
      }
    },
  );
});
