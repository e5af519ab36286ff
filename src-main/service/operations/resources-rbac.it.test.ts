/**
 * `--authorize rbac` over HTTP (issue 26 §2), the service against the simulator's RBAC and its
 * demo team: the local account "alice" (Kubernetes user skiff:alice, bound in namespace `shop`)
 * sees only `shop` — her lists across namespaces and their x-Total count only `shop`, everything
 * else is a 403 worded as kubectl's — while the admin (skiff:admin, bound cluster-wide) sees all.
 * The reviews are counted at the simulator: one per question per 30 s on the service's clock.
 */
import { DEMO_TEAM } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpResult, type Stack, startStack } from '../test-support/harness.test-support';
import { login } from '../test-support/login.test-support';

interface Wrapper {
  resource: { metadata: { name: string; namespace?: string } };
}
interface LabelledWrapper {
  resource: { metadata: { name: string; namespace?: string; labels?: Record<string, string> } };
}
interface Problem {
  status: number;
  code: string;
  detail: string;
  permission?: Record<string, string>;
}

let stack: Stack;
let clock = Date.now();
let alice: Record<string, string>;
const proxy = () => `${stack.cluster}/kubernetes-proxy`;
const asAlice = <T>(path: string) => stack.get<T>(path, alice);
const namespacesOf = (res: HttpResult<Wrapper[]>) =>
  [...new Set(res.body.map((w) => w.resource.metadata.namespace ?? ''))].sort();

beforeAll(async () => {
  stack = await startStack({ service: { authorize: {}, now: () => clock } });
  const created = await stack.send('POST', '/v1/auth/accounts', {
    username: 'alice',
    password: 'alice-password-0123',
    workspaces: ['default'],
  });
  expect(created.status).toBe(201);
  alice = (await login(stack.url, 'alice', 'alice-password-0123')).headers;
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

describe('alice (bound in shop only)', () => {
  it('lists pods in shop', async () => {
    const res = await asAlice<Wrapper[]>(`${proxy()}/namespaces/shop/pod`);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(namespacesOf(res)).toEqual(['shop']);
  });

  it('is answered 403 in kube-system, in the words kubectl uses, naming the permission', async () => {
    const res = await asAlice<Problem>(`${proxy()}/namespaces/kube-system/pod`);
    expect(res.status).toBe(403);
    expect(res.contentType).toContain('application/problem+json');
    expect(res.body).toMatchObject({
      code: 'forbidden',
      detail:
        'pods is forbidden: User "skiff:alice" cannot list resource "pods" in API group "" in the namespace "kube-system"',
      permission: { verb: 'list', group: '', resource: 'pods', namespace: 'kube-system' },
    });
  });

  it('gets only shop in her list of pods across namespaces, and x-Total counts only shop', async () => {
    const everything = await stack.get<Wrapper[]>(`${proxy()}/pod?limit=500`);
    const inShop = everything.body.filter((w) => w.resource.metadata.namespace === DEMO_TEAM.namespace);
    expect(namespacesOf(everything).length).toBeGreaterThan(1);
    const first = await asAlice<Wrapper[]>(`${proxy()}/pod?limit=2`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total')).toBe(String(inShop.length));
    expect(namespacesOf(first)).toEqual(['shop']);
    const all = await asAlice<Wrapper[]>(`${proxy()}/pod?limit=500`);
    expect(all.body.map((w) => w.resource.metadata.name)).toEqual(
      inShop.map((w) => w.resource.metadata.name),
    );
    expect(everything.headers.get('x-total')).toBe(String(everything.body.length));
  });

  it('filters a selector list across namespaces the same way', async () => {
    // A label some pods in shop and some elsewhere carry: the selector alone would answer both.
    const pods = (await stack.get<LabelledWrapper[]>(`${proxy()}/pod?limit=500`)).body;
    const where = new Map<string, Set<string>>();
    for (const w of pods) {
      for (const [k, v] of Object.entries(w.resource.metadata.labels ?? {})) {
        const key = `${k}=${v}`;
        where.set(key, (where.get(key) ?? new Set()).add(w.resource.metadata.namespace ?? ''));
      }
    }
    const shared = [...where].find(([, ns]) => ns.has('shop') && ns.size > 1)?.[0];
    expect(shared).toBeDefined();
    for (const selector of [shared!, shared!.split('=')[0]!]) {
      const q = encodeURIComponent(selector);
      const hers = await asAlice<Wrapper[]>(`${proxy()}/pod?labelSelector=${q}&limit=500`);
      const admins = await stack.get<Wrapper[]>(`${proxy()}/pod?labelSelector=${q}&limit=500`);
      expect(namespacesOf(admins).length).toBeGreaterThan(1);
      expect(namespacesOf(hers)).toEqual(['shop']);
      expect(hers.body.map((w) => w.resource.metadata.name)).toEqual(
        admins.body
          .filter((w) => w.resource.metadata.namespace === 'shop')
          .map((w) => w.resource.metadata.name),
      );
      expect(hers.headers.get('x-total')).toBe(String(hers.body.length));
    }
  });

  it('sees only the namespace shop in the namespace list', async () => {
    const res = await asAlice<Wrapper[]>(`${proxy()}/namespace`);
    expect(res.status).toBe(200);
    expect(res.body.map((w) => w.resource.metadata.name)).toEqual(['shop']);
    expect(res.headers.get('x-total')).toBe('1');
    expect((await asAlice(`${proxy()}/namespace/shop`)).status).toBe(200);
    const other = await asAlice<Problem>(`${proxy()}/namespace/kube-system`);
    expect(other.status).toBe(403);
    expect(other.body.detail).toBe(
      'namespaces "kube-system" is forbidden: User "skiff:alice" cannot get resource "namespaces" in API group "" in the namespace "kube-system"',
    );
  });

  it('reads an object in shop, and is answered 403 for one elsewhere', async () => {
    const shopPod = (await asAlice<Wrapper[]>(`${proxy()}/namespaces/shop/pod`)).body[0]!.resource.metadata
      .name;
    expect((await asAlice(`${proxy()}/namespaces/shop/pod/${shopPod}`)).status).toBe(200);
    expect((await asAlice(`${proxy()}/pod/${shopPod}`)).status).toBe(200);
    const elsewhere = (await stack.get<Wrapper[]>(`${proxy()}/namespaces/kube-system/pod`)).body[0]!.resource
      .metadata.name;
    const res = await asAlice<Problem>(`${proxy()}/namespaces/kube-system/pod/${elsewhere}`);
    expect(res.status).toBe(403);
    expect(res.body.permission).toEqual({
      verb: 'get',
      group: '',
      resource: 'pods',
      namespace: 'kube-system',
      name: elsewhere,
    });
    // Named without a namespace, it is searched only where she may read: refused at the cluster
    // scope, saying nothing of where it is.
    const unnamed = await asAlice<Problem>(`${proxy()}/pod/${elsewhere}`);
    expect(unnamed.status).toBe(403);
    expect(unnamed.body.detail).toContain('at the cluster scope');
    expect(unnamed.body.detail).not.toContain('kube-system');
    expect((await asAlice<Problem>(`${proxy()}/pod/no-such-pod`)).status).toBe(404);
  });

  it('is answered 403 for a cluster-scoped kind, at the cluster scope', async () => {
    const res = await asAlice<Problem>(`${proxy()}/node`);
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe(
      'nodes is forbidden: User "skiff:alice" cannot list resource "nodes" in API group "" at the cluster scope',
    );
    const node = (await stack.get<Wrapper[]>(`${proxy()}/node`)).body[0]!.resource.metadata.name;
    expect((await asAlice<Problem>(`${proxy()}/node/${node}`)).status).toBe(403);
  });

  it('sees the kinds she may list in shop, not the cluster-scoped ones', async () => {
    const kinds = (await asAlice<{ resourceType: string }[]>(`${stack.cluster}/kinds?limit=500`)).body.map(
      (k) => k.resourceType,
    );
    const admins = (await stack.get<{ resourceType: string }[]>(`${stack.cluster}/kinds?limit=500`)).body.map(
      (k) => k.resourceType,
    );
    expect(kinds).toContain('pod');
    expect(kinds).toContain('deployment');
    expect(kinds).not.toContain('node');
    expect(kinds).not.toContain('namespace');
    expect(admins).toContain('node');
    expect(kinds.length).toBeLessThan(admins.length);
  });
});

describe('the admin (bound cluster-wide)', () => {
  it('sees every namespace', async () => {
    const res = await stack.get<Wrapper[]>(`${proxy()}/namespace?limit=500`);
    expect(res.body.map((w) => w.resource.metadata.name)).toContain('kube-system');
    expect(res.body.length).toBeGreaterThan(1);
    expect((await stack.get(`${proxy()}/namespaces/kube-system/pod`)).status).toBe(200);
  });
});

describe('the decisions', () => {
  it('are asked once per question and kept 30 s on the service clock', async () => {
    clock += 60_000; // everything asked so far has expired
    stack.sim.accessReviews.reset();
    const read = async () => expect((await asAlice(`${proxy()}/namespaces/shop/pod`)).status).toBe(200);
    await read();
    expect(stack.sim.accessReviews.count).toBe(1);
    await Promise.all([read(), read()]);
    clock += 29_000;
    await read();
    expect(stack.sim.accessReviews.count).toBe(1);
    clock += 1_000;
    await read();
    expect(stack.sim.accessReviews.count).toBe(2);
  });

  it('refuse a read with 503 while the cluster cannot answer them', async () => {
    clock += 60_000;
    stack.sim.faults.accessReviewsDown = true;
    try {
      const res = await asAlice<Problem>(`${proxy()}/namespaces/shop/pod`);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('authorization_unavailable');
    } finally {
      stack.sim.faults.accessReviewsDown = false;
    }
    expect((await asAlice(`${proxy()}/namespaces/shop/pod`)).status).toBe(200);
  });
});
