import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src-shared/contract/models';
import type { Problem } from '../../src-shared/contract/problem';
import { type Stack, startStack } from './test-support/harness.test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ service: { timeoutMs: 1_500 } });
});
afterAll(async () => stack?.close());

function expectProblem(
  res: { status: number; contentType: string; body: unknown },
  status: number,
  code: string,
) {
  expect(res.status).toBe(status);
  expect(res.contentType).toMatch(/^application\/problem\+json/);
  const body = res.body as Problem;
  expect(body).toMatchObject({ status, code });
  expect(typeof body.type).toBe('string');
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(JSON.stringify(body)).not.toMatch(/\s+at\s+\S+\s+\(|node_modules/);
}

describe('404', () => {
  it('unknown workspace', async () => {
    expectProblem(await stack.get('/v1/workspaces/nope/clusters'), 404, 'workspace_not_found');
    expectProblem(
      await stack.get('/v1/workspaces/nope/observability/sim-test/kubernetes-events'),
      404,
      'workspace_not_found',
    );
  });

  it('unknown cluster', async () => {
    expectProblem(
      await stack.get('/v1/workspaces/default/observability/nope/kubernetes-proxy/pod'),
      404,
      'cluster_not_found',
    );
  });

  it('unknown route, and a wrong method gets 405 with Allow', async () => {
    expectProblem(await stack.get('/v1/nothing-here'), 404, 'route_not_found');
    const res = await stack.send('DELETE', '/v1/workspaces');
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, POST');
  });
});

describe('cluster failures', () => {
  it('a cluster that rejects our credentials is a 502 and shows as unauthorized', async () => {
    stack.sim.faults.unauthorized = true;
    try {
      expectProblem(
        await stack.get(`${stack.cluster}/kubernetes-proxy/namespaces/default/pod/x`),
        502,
        'cluster_unauthorized',
      );
    } finally {
      stack.sim.faults.unauthorized = false;
    }
  });

  it('a cluster that does not answer in time is a 504, not a hang', async () => {
    // The cluster never answers: only the service's deadline can end these requests, and the
    // problem names it (this test's own timeout guards a hang).
    stack.sim.faults.hang = true;
    try {
      const single = await stack.get(`${stack.cluster}/kubernetes-proxy/namespaces/default/deployment/x`);
      expectProblem(single, 504, 'cluster_timeout');
      expect((single.body as Problem).detail).toBe('the cluster did not answer within 1.5 s');
      // First list of a collection: the cache waits for the same timeout.
      const list = await stack.get(`${stack.cluster}/kubernetes-proxy/cronjob`);
      expectProblem(list, 504, 'cluster_timeout');
      expect((list.body as Problem).detail).toBe('the cluster did not answer within 1.5 s');
    } finally {
      stack.sim.faults.hang = false;
    }
  });
});

describe('cluster status', () => {
  it('reports connected with the server version', async () => {
    const res = await stack.get<Cluster[]>('/v1/workspaces/default/clusters');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        clusterId: 'sim-test',
        workspaceId: 'default',
        name: 'sim-test',
        context: 'sim-test',
        server: stack.sim.url,
        status: 'connected',
        kubernetesVersion: expect.stringMatching(/^v1\.\d+/),
        monitoring: {
          clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: true } },
        },
      },
    ]);
  });
});

describe('unreachable and unauthorized clusters', () => {
  it('reports each status and maps requests to 502', async () => {
    const down = await startStack({ service: { timeoutMs: 1_500 } });
    await down.sim.close();
    try {
      const clusters = await down.get<Cluster[]>('/v1/workspaces/default/clusters');
      expect(clusters.body[0]?.status).toBe('unreachable');
      expectProblem(await down.get(`${down.cluster}/kubernetes-proxy/pod`), 502, 'cluster_unreachable');
    } finally {
      // The whole stack, not only the service: its close also removes the stack's temp folder.
      await down.close();
    }
  });

  it('reports unauthorized', async () => {
    const locked = await startStack();
    locked.sim.faults.unauthorized = true;
    try {
      const clusters = await locked.get<Cluster[]>('/v1/workspaces/default/clusters');
      expect(clusters.body[0]?.status).toBe('unauthorized');
    } finally {
      locked.sim.faults.unauthorized = false;
      await locked.close();
    }
  });
});
