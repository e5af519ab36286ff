/**
 * `--authorize rbac` for the kept logs (issue 27 §3): reading what Skiff kept of a pod's dead
 * containers needs what `kubectl logs` needs, `get pods/log` in the pod's namespace, whether or
 * not the pod still exists. Alice (skiff:alice) is bound in `shop` only; the admin is the control.
 */
import { DEMO_TEAM } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeptRunRecord } from '../../../../src-shared/contract/kept-log-operations';
import { addPod, uniqueName, write } from '../../logs/fixtures.test-support';
import { eventually } from '../../test-support/eventually.test-support';
import { type Stack, startStack } from '../../test-support/harness.test-support';
import { login } from '../../test-support/login.test-support';

interface Problem {
  status: number;
  code: string;
  permission?: Record<string, string>;
}

const SHOP = DEMO_TEAM.namespace;
let stack: Stack;
let alice: Record<string, string>;

const keptPath = (ns: string, pod: string, rest = '') =>
  `${stack.cluster}/kubernetes-proxy/namespaces/${ns}/pod/${pod}/kept-logs${rest}`;

/** A pod in `ns` whose first run crashed, kept (as the admin sees it). */
async function crashedPod(ns: string): Promise<string> {
  const pod = uniqueName('rbac');
  addPod(stack, ns, pod, { containers: ['app'] });
  write(stack, ns, pod, 'app', 'secret-free but private');
  stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 1 });
  await eventually(async () => {
    const res = await stack.get<KeptRunRecord[]>(keptPath(ns, pod));
    expect(res.body).toHaveLength(1);
  }, 15_000);
  return pod;
}

beforeAll(async () => {
  stack = await startStack({ service: { authorize: {} } });
  const created = await stack.send('POST', '/v1/auth/accounts', {
    username: 'alice',
    password: 'alice-password-0123',
    workspaces: ['default'],
  });
  expect(created.status).toBe(201);
  alice = (await login(stack.url, 'alice', 'alice-password-0123')).headers;
  // The admin's read makes the cluster viewed: its pods are watched and their dead runs kept.
  expect((await stack.get(`${stack.cluster}/kubernetes-proxy/pod?limit=1`)).status).toBe(200);
}, 60_000);
afterAll(async () => stack?.close());

describe('kept logs need get pods/log in the namespace', () => {
  it('are read in shop, the list and the lines, also once the pod is gone', async () => {
    const pod = await crashedPod(SHOP);
    stack.sim.store.remove('pods', SHOP, pod);
    const list = await stack.get<KeptRunRecord[]>(keptPath(SHOP, pod), alice);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    const lines = await stack.get<string>(keptPath(SHOP, pod, '/app/0'), alice);
    expect(lines.status).toBe(200);
    expect(lines.body).toBe('secret-free but private\n');
  });

  it('are a 403 elsewhere naming get pods/log, list and lines alike, while the admin reads them', async () => {
    const pod = await crashedPod('kube-system');
    for (const path of [keptPath('kube-system', pod), keptPath('kube-system', pod, '/app/0')]) {
      expect((await stack.get(path)).status, path).toBe(200);
      const res = await stack.get<Problem>(path, alice);
      expect(res.status, path).toBe(403);
      expect(res.contentType).toContain('application/problem+json');
      expect(res.body.code).toBe('forbidden');
      expect(res.body.permission).toMatchObject({
        verb: 'get',
        group: '',
        resource: 'pods',
        subresource: 'log',
        namespace: 'kube-system',
      });
    }
    // A run that was never kept is refused the same way: nothing tells what exists there.
    expect((await stack.get<Problem>(keptPath('kube-system', 'nothing', '/app/0'), alice)).status).toBe(403);
  });
});
