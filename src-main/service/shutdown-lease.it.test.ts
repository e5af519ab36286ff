/**
 * SIGTERM releases the recorder's lease at once (issue 25 §3), on a real PostgreSQL: while a slow
 * request is still in flight on the replica shutting down, another connection to the database is
 * already granted the lease `recorder:<clusterId>`, so another replica records from then on rather
 * than after the drain. Without the shutdown step the lease is given back only when the service
 * closes, after the request has finished, and the test fails. Waits are for states, never times.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, type Service } from './index';
import { loadContexts } from './kube/kubeconfig';
import { silentLogger } from './logger';
import type { StorageBackend } from './storage/backend';
import { openDatabaseStorage } from './storage/index';
import { postgresSkipReason, startPostgres, type TestPostgres } from './storage/postgres.test-support';
import { openPostgresBackend } from './storage/postgres-backend';
import { login, TEST_ADMIN_PASSWORD } from './test-support/login.test-support';

const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
const LEASE = 'recorder:sim-test';

describe.skipIf(postgresSkipReason)('shutdown and the recorder lease (PostgreSQL)', () => {
  let pg: TestPostgres;
  let sim: Simulator;
  let dir: string;
  let other: StorageBackend;
  let service: Service | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
    sim = await startSimulator({ tickMs: false });
    dir = await mkdtemp(join(tmpdir(), 'skiff-lease-'));
    await writeFile(join(dir, 'kubeconfig'), sim.kubeconfigYaml('sim-test'));
  });
  afterAll(async () => {
    await service?.close().catch(() => {});
    await other?.close().catch(() => {});
    await sim?.close();
    await pg?.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });

  it('is released while a request is still in flight', async () => {
    const url = await pg.createDatabase();
    const logger = silentLogger();
    service = createService({
      storage: await openDatabaseStorage({ url, logger, replicaId: 'going' }),
      contexts: loadContexts([join(dir, 'kubeconfig')]),
      logger,
      adminPassword: TEST_ADMIN_PASSWORD,
      auth: { secretKey: SECRET_KEY },
      eventHistory: { record: 'all' },
    });
    const base = (await service.listen(0, '127.0.0.1')).url;
    other = await openPostgresBackend(url, logger);
    // The replica records the cluster: once it holds the lease, no one else is granted it. (A
    // lease granted here first is handed straight back; the recorder retries within 5 s.)
    for (;;) {
      const held = await other.tryLease(LEASE);
      if (!held) break;
      await held.release();
      await new Promise((r) => setTimeout(r, 100));
    }
    const { headers } = await login(base);
    // A log read always asks the apiserver (no cache holds logs), so with the latency below it is
    // in flight for 3 s wherever the service's caches stand; a list could be answered from a
    // cache already synced and be gone before the shutdown starts.
    const api = `${base}/v1/workspaces/default/observability/sim-test/kubernetes-proxy`;
    const pods = (await (await fetch(`${api}/pod?limit=1`, { headers })).json()) as Array<{
      resource: { metadata: { name: string; namespace: string } };
    }>;
    const pod = pods[0]!.resource.metadata;
    sim.faults.latencyMs = 3_000;
    const slow = fetch(`${api}/namespaces/${pod.namespace}/pod/${pod.name}/logs?tailLines=1`, {
      headers,
    }).then(async (res) => {
      await res.arrayBuffer();
      return res.status;
    });
    while (service.pendingRequests() === 0) await new Promise((r) => setTimeout(r, 20));
    let drained = false;
    const shutdown = service.shutdown(60_000).then((outcome) => {
      drained = true;
      return outcome;
    });
    let lease = await other.tryLease(LEASE);
    while (!lease && !drained) {
      await new Promise((r) => setTimeout(r, 50));
      lease = await other.tryLease(LEASE);
    }
    expect({ granted: lease !== null, drained }).toEqual({ granted: true, drained: false });
    sim.faults.latencyMs = 0;
    expect(await slow).toBe(200);
    expect(await shutdown).toBe('finished');
    await lease?.release();
  });
});
