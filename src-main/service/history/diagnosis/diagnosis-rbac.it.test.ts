/**
 * The diagnosis under `--authorize rbac`, over HTTP against the simulator's RBAC: "carol" (Kubernetes
 * user skiff:carol) may read pods, ReplicaSets, Deployments and ConfigMaps in namespace `diag` and
 * nothing else, not even pods/log. Her diagnosis of the crash-looping pod keeps the changes of what
 * she may get, counts the others in `hidden` and leaves the kept logs out; a pod she may not get is
 * a 403 naming the permission. The admin (bound cluster-wide) is the control.
 */
import type { KubeObject } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../../../src-shared/contract/diagnosis-operations';
import { type Stack, startStack } from '../../test-support/harness.test-support';
import { login } from '../../test-support/login.test-support';
import { NS, record, seed } from './diagnosis.test-support';

let stack: Stack;
let carol: Record<string, string>;

beforeAll(async () => {
  stack = await startStack({ service: { authorize: {}, changeHistory: { record: 'off' } } });
  seed(stack);
  const put = (o: Record<string, unknown>) => stack.sim.store.upsert(o as unknown as KubeObject);
  put({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'diag-reader', namespace: NS },
    rules: [
      { apiGroups: [''], resources: ['pods', 'configmaps'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['apps'], resources: ['replicasets', 'deployments'], verbs: ['get', 'list', 'watch'] },
    ],
  });
  put({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'carol-diag', namespace: NS },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'diag-reader' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'skiff:carol' }],
  });
  await record(stack);
  const created = await stack.send('POST', '/v1/auth/accounts', {
    username: 'carol',
    password: 'carol-password-0123',
    workspaces: ['default'],
  });
  expect(created.status).toBe(201);
  carol = (await login(stack.url, 'carol', 'carol-password-0123')).headers;
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const path = (p: string) => `${stack.cluster}/diagnosis/${p}`;
const summaries = (d: Diagnosis) => d.changesBefore.map((c) => `${c.ref.resourceType}/${c.ref.name}`);

describe('diagnosis under --authorize rbac', () => {
  it('lists only the changes the caller may get, counts the rest, and keeps the logs for pods/log', async () => {
    const admin = (await stack.get<Diagnosis>(path(`namespaces/${NS}/pod/api-2-x`))).body;
    expect(summaries(admin)).toEqual([
      'deployment/api',
      'replicaset/api-2',
      'secret/api-secret',
      'horizontalpodautoscaler/api',
      'configmap/api-conf',
      'node/worker-1',
      'resourcequota/diag-quota',
    ]);
    expect(admin.hidden).toBeUndefined();
    expect(admin.keptLogs).toBeDefined();

    const res = await stack.get<Diagnosis>(path(`namespaces/${NS}/pod/api-2-x`), carol);
    expect(res.status).toBe(200);
    expect(res.body.onset).toBe(admin.onset);
    expect(summaries(res.body)).toEqual(['deployment/api', 'replicaset/api-2', 'configmap/api-conf']);
    expect(res.body.hidden).toBe(4);
    expect(res.body.keptLogs).toBeUndefined();
  });

  it('refuses an object the caller may not get, naming the permission', async () => {
    const res = await stack.get<{ code: string; detail: string }>(
      path('namespaces/shop/deployment/checkout'),
      carol,
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(res.body.detail).toContain('deployments');
    expect((await stack.get(path('node/worker-1'), carol)).status).toBe(403);
    // Named without a namespace: found only where she may get it.
    const anywhere = await stack.get<Diagnosis>(path('deployment/api'), carol);
    expect(anywhere.status).toBe(200);
    expect(anywhere.body.object.namespace).toBe(NS);
    expect((await stack.get(path('deployment/checkout'), carol)).status).toBe(403);
  });
});
