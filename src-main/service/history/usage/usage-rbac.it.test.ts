/**
 * `--authorize rbac` on the usage reads: a pod's usage needs `get pods` in its namespace, a node's
 * `get nodes`, checked before anything is read. "alice" (skiff:alice, the simulator's demo team:
 * bound in namespace `shop` only) reads a shop pod's usage and is refused another namespace's pod
 * and every node with a 403 naming the permission; the admin (bound cluster-wide) is the control.
 */
import { DEMO_TEAM, type Pod } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../../test-support/harness.test-support';
import { login } from '../../test-support/login.test-support';

interface Problem {
  status: number;
  code: string;
  detail: string;
  permission?: Record<string, string>;
}

const SHOP = DEMO_TEAM.namespace;
let stack: Stack;
let alice: Record<string, string>;

beforeAll(async () => {
  stack = await startStack({ service: { authorize: {}, usage: { intervalMs: 0 } } });
  const created = await stack.send('POST', '/v1/auth/accounts', {
    username: 'alice',
    password: 'alice-password-0123',
    workspaces: ['default'],
  });
  expect(created.status).toBe(201);
  alice = (await login(stack.url, 'alice', 'alice-password-0123')).headers;
  // The admin views the cluster, so it is recorded; one sample is taken.
  expect((await stack.get(`${stack.cluster}/kubernetes-proxy/pod?limit=1`)).status).toBe(200);
  await stack.service.recorded.usage!.sampler.tick();
}, 60_000);
afterAll(async () => stack?.close());

const runningIn = (namespace: string, not = false) =>
  (stack.sim.store.list('pods') as Pod[]).find(
    (p) => (p.metadata.namespace === namespace) !== not && p.status.phase === 'Running',
  )!.metadata;

describe('usage under --authorize rbac', () => {
  it('a pod’s usage in a namespace the caller may get pods in is answered', async () => {
    const pod = runningIn(SHOP);
    const path = `${stack.cluster}/usage/namespaces/${SHOP}/pod/${pod.name}`;
    const res = await stack.get<{ points: unknown[] }>(path, alice);
    expect(res.status).toBe(200);
    expect(res.body.points.length).toBe(1);
  });

  it('a pod elsewhere and a node are 403 naming the permission; the admin reads both', async () => {
    const other = runningIn(SHOP, true);
    const podPath = `${stack.cluster}/usage/namespaces/${other.namespace}/pod/${other.name}`;
    const pod = await stack.get<Problem>(podPath, alice);
    expect(pod.status).toBe(403);
    expect(pod.body.code).toBe('forbidden');
    expect(pod.body.permission).toMatchObject({
      verb: 'get',
      group: '',
      resource: 'pods',
      namespace: other.namespace,
    });
    const node = stack.sim.store.list('nodes')[0]!.metadata.name;
    const nodePath = `${stack.cluster}/usage/node/${node}`;
    const refused = await stack.get<Problem>(nodePath, alice);
    expect(refused.status).toBe(403);
    expect(refused.body.permission).toMatchObject({ verb: 'get', group: '', resource: 'nodes' });
    expect((await stack.get(podPath)).status).toBe(200);
    expect((await stack.get(nodePath)).status).toBe(200);
  });
});
