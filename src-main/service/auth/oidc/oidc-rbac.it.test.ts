/**
 * `--authorize rbac` for people signed in with the provider (issue 26 §2 and §3), over HTTP, the
 * real provider and the simulator's demo team: alice signs in at the provider (group shop-devs),
 * becomes the Kubernetes user "alice@example.com" with group shop-devs (the default OIDC prefix is
 * empty), and the cluster's RoleBinding of shop-devs in `shop` is all she gets: pods in shop, a
 * 403 worded like kubectl's elsewhere, and her list across namespaces and its x-Total only shop.
 * carol (skiff-admins at the provider, bound cluster-wide by the demo) sees every namespace.
 * Workspace membership comes from the provider's groups (the default workspace names shop-devs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminBearer,
  type OidcStack,
  SIM_CONTEXT,
  type SignedIn,
  startOidcStack,
} from './oidc-stack.test-support';

interface Wrapper {
  resource: { metadata: { name: string; namespace?: string } };
}
interface Problem {
  code: string;
  detail: string;
  permission?: Record<string, string>;
}

let stack: OidcStack;
let admin: Record<string, string>;
let alice: SignedIn;
let carol: SignedIn;
const proxy = `/v1/workspaces/default/observability/${SIM_CONTEXT}/kubernetes-proxy`;
const namespacesOf = (items: Wrapper[]) =>
  [...new Set(items.map((w) => w.resource.metadata.namespace ?? ''))].sort();

beforeAll(async () => {
  stack = await startOidcStack({ simulator: true, config: { authorize: {} } });
  admin = await adminBearer(stack);
  const patched = await stack.call('PATCH', '/v1/workspaces/default', {
    headers: admin,
    body: { groups: ['shop-devs'] },
  });
  expect(patched.status).toBe(200);
  alice = await stack.signIn('alice');
  carol = await stack.signIn('carol');
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

describe('alice, signed in with the provider, group shop-devs', () => {
  it('lists pods in shop', async () => {
    const res = await stack.call<Wrapper[]>('GET', `${proxy}/namespaces/shop/pod`, { headers: alice.bearer });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(namespacesOf(res.body)).toEqual(['shop']);
  });

  it('is answered 403 in kube-system, naming her provider username and the permission', async () => {
    const res = await stack.call<Problem>('GET', `${proxy}/namespaces/kube-system/pod`, {
      headers: alice.bearer,
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'forbidden',
      detail:
        'pods is forbidden: User "alice@example.com" cannot list resource "pods" in API group "" in the namespace "kube-system"',
      permission: { verb: 'list', group: '', resource: 'pods', namespace: 'kube-system' },
    });
  });

  it('gets only shop across namespaces, and x-Total counts only shop', async () => {
    const everything = await stack.call<Wrapper[]>('GET', `${proxy}/pod?limit=500`, {
      headers: carol.bearer,
    });
    expect(everything.status).toBe(200);
    expect(namespacesOf(everything.body).length).toBeGreaterThan(1);
    const inShop = everything.body.filter((w) => w.resource.metadata.namespace === 'shop');
    const first = await stack.call<Wrapper[]>('GET', `${proxy}/pod?limit=2`, { headers: alice.bearer });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total')).toBe(String(inShop.length));
    const all = await stack.call<Wrapper[]>('GET', `${proxy}/pod?limit=500`, { headers: alice.bearer });
    expect(namespacesOf(all.body)).toEqual(['shop']);
    expect(all.body.map((w) => w.resource.metadata.name)).toEqual(
      inShop.map((w) => w.resource.metadata.name),
    );
  });

  it('sees only shop in the namespace list', async () => {
    const res = await stack.call<Wrapper[]>('GET', `${proxy}/namespace`, { headers: alice.bearer });
    expect(res.status).toBe(200);
    expect(res.body.map((w) => w.resource.metadata.name)).toEqual(['shop']);
  });
});

describe('carol, in skiff-admins at the provider', () => {
  it('reads kube-system, through the demo ClusterRoleBinding of her group', async () => {
    const res = await stack.call<Wrapper[]>('GET', `${proxy}/namespaces/kube-system/pod`, {
      headers: carol.bearer,
    });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
  });
});
