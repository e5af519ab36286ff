/**
 * Readiness apart from liveness, and the drain on shutdown, over real HTTP (issue 25 §3):
 * `/v1/health/ready` answers 200 with its checks while the database answers, 503 problem+json
 * naming the database once the service's own PostgreSQL server is gone (liveness still 200); shutdown lets a
 * slow request in flight finish, refuses new connections, and cuts what outlives the grace period.
 * Waits are for states (the simulator having the request), never for times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, type Service } from './index';
import { silentLogger } from './logger';
import { openDatabaseStorage } from './storage/index';
import { postgresSkipReason, startPostgres, type TestPostgres } from './storage/postgres.test-support';
import { type Stack, startStack } from './test-support/harness.test-support';
import { TEST_ADMIN_PASSWORD } from './test-support/login.test-support';

const PODS = '/kubernetes-proxy/pod';

/** Resolves once the simulator has accepted more connections than `before`: a request reached it. */
async function reachedCluster(stack: Stack, before: number): Promise<void> {
  while (stack.sim.connections().accepted <= before) await new Promise((r) => setTimeout(r, 20));
}

describe('GET /v1/health/ready', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it('answers 200 without a credential, with the database check passed', async () => {
    const res = await fetch(`${stack.url}/v1/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: [{ name: 'database', ok: true }] });
  });

  it('is a route of its own: liveness keeps its body', async () => {
    const res = await stack.get('/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok' });
  });
});

describe.skipIf(postgresSkipReason)('readiness when PostgreSQL goes away', () => {
  let pg: TestPostgres;
  let service: Service | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
  });
  afterAll(async () => {
    await service?.close().catch(() => {});
    await pg?.stop().catch(() => {});
  });

  it('answers 503 service_not_ready in problem+json naming the database, while liveness stays 200', async () => {
    const logger = silentLogger();
    service = createService({
      storage: await openDatabaseStorage({ url: await pg.createDatabase(), logger }),
      contexts: [],
      logger,
      adminPassword: TEST_ADMIN_PASSWORD,
      auth: { secretKey: Buffer.alloc(32, 9).toString('base64') },
    });
    const { url } = await service.listen(0, '127.0.0.1');
    const ready = await fetch(`${url}/v1/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([
      200,
      { status: 'ready', checks: [{ name: 'database', ok: true }] },
    ]);
    await pg.stop();
    const res = await fetch(`${url}/v1/health/ready`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('retry-after')).toBe('5');
    const problem = (await res.json()) as { code: string; detail: string; checks: unknown[] };
    expect(problem.code).toBe('service_not_ready');
    expect(problem.detail).toMatch(/^not ready: database: /);
    expect(problem.checks).toEqual([{ name: 'database', ok: false, reason: expect.any(String) }]);
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);
  });
});

describe('shutdown', () => {
  it('lets a slow request in flight finish, then refuses new connections', async () => {
    const stack = await startStack();
    try {
      stack.sim.faults.latencyMs = 1_500;
      const before = stack.sim.connections().accepted;
      const slow = stack.get<unknown[]>(`${stack.cluster}${PODS}`);
      await reachedCluster(stack, before);
      const outcome = await stack.service.shutdown(60_000);
      expect(outcome).toBe('finished');
      const res = await slow;
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      await expect(fetch(`${stack.url}/v1/health`)).rejects.toThrow();
    } finally {
      await stack.close();
    }
  });

  it('cuts what is still in flight at the end of the grace period', async () => {
    const stack = await startStack();
    try {
      stack.sim.faults.hang = true;
      const before = stack.sim.connections().accepted;
      const stuck = fetch(`${stack.url}${stack.cluster}${PODS}`, { headers: stack.session.headers }).then(
        (res) => res.status,
        () => 'connection closed',
      );
      await reachedCluster(stack, before);
      expect(await stack.service.shutdown(300)).toBe('cut');
      expect(await stuck).toBe('connection closed');
    } finally {
      stack.sim.faults.hang = false;
      await stack.close();
    }
  });
});
