/**
 * Workspaces by the provider's groups. Real provider, nothing tampered: an administrator names the
 * group `shop-devs` on a workspace; alice (in shop-devs at the provider) and bob (in no group) sign
 * in. Proves: members of the group belong to the workspace and others do not; removing the group
 * at the provider takes alice out at the next recheck (service clock); a workspace whose groups an
 * administrator changes applies to people already signed in; the workspace list carries the groups,
 * every one to an administrator, to anyone else only its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminBearer, type OidcStack, type SignedIn, startOidcStack } from './oidc-stack.test-support';

let stack: OidcStack;
let admin: Record<string, string>;

beforeAll(async () => {
  stack = await startOidcStack({ auth: { accessTokenMinutes: 60 }, provider: { ttl: { IdToken: 86_400 } } });
  admin = await adminBearer(stack);
  const created = await stack.call('POST', '/v1/workspaces', {
    headers: admin,
    body: { workspaceId: 'shop', name: 'Shop', groups: ['shop-devs'] },
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await stack?.close();
});

const workspacesOf = async (who: SignedIn) => {
  const res = await stack.call<{ workspaceId: string }[]>('GET', '/v1/workspaces', { headers: who.bearer });
  expect(res.status).toBe(200);
  return res.body.map((w) => w.workspaceId);
};

describe('workspace groups', () => {
  it("members of the workspace's group belong to it; others do not", async () => {
    expect(await workspacesOf(await stack.signIn('alice'))).toContain('shop');
    expect(await workspacesOf(await stack.signIn('bob'))).not.toContain('shop');
  });

  it('leaving the group at the provider takes the user out at the next recheck', async () => {
    const alice = await stack.signIn('alice');
    const was = stack.op.users.get('alice');
    if (!was) throw new Error('no alice');
    stack.op.setUser({ ...was, groups: [] });
    try {
      stack.clock.advance(15 * 60_000 + 1_000);
      const oidc = await stack.service.auth.oidc();
      await oidc?.sweep();
      expect(await workspacesOf(alice)).not.toContain('shop');
    } finally {
      stack.op.setUser(was);
    }
  });

  it("a change of the workspace's groups applies to people already signed in", async () => {
    const bob = await stack.signIn('bob');
    const carol = await stack.signIn('carol');
    expect(await workspacesOf(bob)).not.toContain('shop');
    const patched = await stack.call('PATCH', '/v1/workspaces/shop', {
      headers: admin,
      body: { groups: ['shop-devs', 'ops'] },
    });
    expect(patched.status).toBe(200);
    // carol is in ops (and an administrator, who sees every workspace anyway); bob is in no group.
    expect(await workspacesOf(carol)).toContain('shop');
    expect(await workspacesOf(bob)).not.toContain('shop');
    const alice = await stack.signIn('alice');
    expect(await workspacesOf(alice)).toContain('shop');
    await stack.call('PATCH', '/v1/workspaces/shop', { headers: admin, body: { groups: ['ops'] } });
    expect(await workspacesOf(alice)).not.toContain('shop');
  });

  it('the workspace list carries the groups: every one to an administrator, to others only their own', async () => {
    const patched = await stack.call('PATCH', '/v1/workspaces/shop', {
      headers: admin,
      body: { groups: ['shop-devs', 'ops', 'payments-devs'] },
    });
    expect(patched.status).toBe(200);
    const groupsSeen = async (headers: Record<string, string>) => {
      const res = await stack.call<{ workspaceId: string; groups: string[] }[]>('GET', '/v1/workspaces', {
        headers,
      });
      expect(res.status).toBe(200);
      return Object.fromEntries(res.body.map((w) => [w.workspaceId, w.groups]));
    };
    expect(await groupsSeen(admin)).toEqual({ default: [], shop: ['shop-devs', 'ops', 'payments-devs'] });
    // alice belongs through shop-devs: she is told that, and not which other teams' groups also grant it.
    const alice = await stack.signIn('alice');
    expect((await groupsSeen(alice.bearer)).shop).toEqual(['shop-devs']);
    // An administrator's API key manages nothing, so it is answered as a member is: its owner's groups (carol: ops).
    const carol = await stack.signIn('carol');
    const key = await stack.call<{ key: string }>('POST', '/v1/auth/api-keys', {
      headers: carol.bearer,
      body: { name: 'list' },
    });
    expect(key.status).toBe(201);
    expect(await groupsSeen({ 'x-api-key': key.body.key })).toEqual({ default: [], shop: ['ops'] });
  });
});
