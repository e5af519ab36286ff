/**
 * What one recheck decides (recheck.ts), outcome by outcome, against the real test provider
 * (provider.test-support.ts) and the service's own tables: when it asks, who asks, what it keeps,
 * when it cuts a user off and when it only retries. The flow as people meet it is in
 * oidc-recheck.it.test.ts.
 */
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthCore } from '../core';
import type { OidcService } from './index';
import { claimRecheck, dueLinks, loadLink } from './links';
import { type OidcStack, startOidcStack } from './oidc-stack.test-support';
import { ADMIN_GROUP, ALICE, BOB, CAROL, type ProviderUser } from './provider.test-support';
import { CLAIM_MS, RETRY_MS, type RecheckOutcome } from './recheck';

const RECHECK = 15 * 60_000;
let stack: OidcStack;
let oidc: OidcService;
let core: AuthCore;

beforeAll(async () => {
  stack = await startOidcStack({ auth: { accessTokenMinutes: 60 }, provider: { ttl: { IdToken: 86_400 } } });
  oidc = (await stack.service.auth.oidc())!;
  core = await stack.service.auth.core();
});
afterAll(async () => {
  await stack?.close();
});

const accountOf = (username: string) => core.accounts.byUsername(username)!;
const linkOf = async (username: string) => (await loadLink(core.backend, accountOf(username).accountId))!;
const activityOf = async (username: string, type: string) =>
  (await core.activity.page({ accountId: accountOf(username).accountId, types: [type as never] }, 50, 0))
    .items;
const active = async (username: string) =>
  (await core.sessions.listFor(accountOf(username).accountId, false)).filter((s) => s.status === 'active')
    .length;

describe('a recheck', () => {
  it('is not due before --oidc-recheck, and then asks once: kept, scheduled a recheck later', async () => {
    await stack.signIn(ALICE.id);
    const link = await linkOf(ALICE.email);
    expect(link.nextCheckAt - link.checkedAt).toBe(RECHECK);
    expect(await oidc.recheck.check(link)).toBe('not_due');
    stack.clock.advance(RECHECK);
    const due = await linkOf(ALICE.email);
    expect(await oidc.recheck.check(due)).toBe('kept');
    const after = await linkOf(ALICE.email);
    expect(after.checkedAt).toBe(stack.clock.now());
    expect(after.nextCheckAt).toBe(stack.clock.now() + RECHECK);
    // The provider rotated or kept the token: whichever, a sealed one is kept.
    expect(after.refreshToken).not.toBeNull();
    // The same stale reading again (a second replica's) finds it claimed and checked already.
    expect(await oidc.recheck.check(due)).toBe('claimed_elsewhere');
    expect(await activityOf(ALICE.email, 'oidc_groups_changed')).toEqual([]);
  });

  it('claimed by another replica is left to it', async () => {
    stack.clock.advance(RECHECK);
    const due = await linkOf(ALICE.email);
    expect(await claimRecheck(core.backend, due, stack.clock.now() + CLAIM_MS)).toBe(true);
    expect(await oidc.recheck.check(due)).toBe('claimed_elsewhere');
    expect((await linkOf(ALICE.email)).nextCheckAt).toBe(stack.clock.now() + CLAIM_MS);
    stack.clock.advance(CLAIM_MS);
    // The claim lapsed (the other replica died): the sweep takes it.
    expect(await oidc.recheck.sweep()).toEqual(['kept']);
  });

  it('applies new groups and the role they give, and records the change', async () => {
    stack.op.setUser({ ...BOB, groups: ['devs'] });
    await stack.signIn(BOB.id);
    expect(accountOf(BOB.email)).toMatchObject({ role: 'member', groups: ['devs'] });
    stack.op.setUser({ ...BOB, groups: [ADMIN_GROUP, 'devs'] });
    stack.clock.advance(RECHECK);
    expect(await oidc.recheck.check(await linkOf(BOB.email))).toBe('kept');
    expect(accountOf(BOB.email)).toMatchObject({ role: 'admin', groups: ['devs', ADMIN_GROUP].sort() });
    const [changed] = await activityOf(BOB.email, 'oidc_groups_changed');
    expect(changed?.detail).toBe(`Test IdP now gives groups: devs, ${ADMIN_GROUP} (was: devs); role admin`);
    stack.op.setUser({ ...BOB, groups: [] });
    stack.clock.advance(RECHECK);
    expect(await oidc.recheck.check(await linkOf(BOB.email))).toBe('kept');
    expect(accountOf(BOB.email)).toMatchObject({ role: 'member', groups: [] });
    const [latest] = await activityOf(BOB.email, 'oidc_groups_changed');
    expect(latest?.detail).toBe(`Test IdP now gives groups: none (was: devs, ${ADMIN_GROUP}); role member`);
    stack.op.setUser({ ...BOB, groups: ['devs'] });
    stack.clock.advance(RECHECK);
    expect(await oidc.recheck.check(await linkOf(BOB.email))).toBe('kept');
    const [third] = await activityOf(BOB.email, 'oidc_groups_changed');
    expect(third?.detail).toBe('Test IdP now gives groups: devs (was: none); role member');
  });

  it('keeps the sessions while the provider is down, and retries a minute later', async () => {
    await stack.op.down();
    try {
      stack.clock.advance(RECHECK);
      const before = await linkOf(ALICE.email);
      expect(await oidc.recheck.check(before)).toBe('retry');
      const after = await linkOf(ALICE.email);
      expect(after).toMatchObject({ checkedAt: before.checkedAt, refreshToken: before.refreshToken });
      expect(after.nextCheckAt).toBe(stack.clock.now() + RETRY_MS);
      expect(await active(ALICE.email)).toBeGreaterThan(0);
      expect(await activityOf(ALICE.email, 'oidc_access_removed')).toEqual([]);
    } finally {
      await stack.op.up();
    }
  });

  it('cuts off a user the provider no longer knows: every session ends, and the log says why', async () => {
    stack.clock.advance(RETRY_MS);
    stack.op.removeUser(ALICE.id);
    const link = await linkOf(ALICE.email);
    expect(await oidc.recheck.check(link)).toBe('removed');
    expect(await active(ALICE.email)).toBe(0);
    const after = await linkOf(ALICE.email);
    expect(after.refreshToken).toBeNull();
    expect(after.nextCheckAt).toBe(stack.clock.now() + RECHECK);
    const [removed] = await activityOf(ALICE.email, 'oidc_access_removed');
    expect(removed?.detail).toMatch(
      /^the identity provider refused the user's refresh token: .+; \d+ session\(s\) ended$/,
    );
    // With no session left there is nobody to cut off: the next recheck only reschedules.
    stack.clock.advance(RECHECK);
    expect(await oidc.recheck.check(await linkOf(ALICE.email))).toBe('idle');
    expect((await linkOf(ALICE.email)).nextCheckAt).toBe(stack.clock.now() + RECHECK);
  });

  it('cuts off a user whose refresh token cannot be opened', async () => {
    await stack.signIn(CAROL.id);
    const link = await linkOf(CAROL.email);
    await core.backend.run("UPDATE oidc_links SET refresh_token = 'garbled' WHERE account_id = $id", {
      id: link.accountId,
    });
    stack.clock.advance(RECHECK);
    expect(await oidc.recheck.check(await linkOf(CAROL.email))).toBe('removed');
    const [removed] = await activityOf(CAROL.email, 'oidc_access_removed');
    expect(removed?.detail).toMatch(/^the stored provider refresh token cannot be opened/);
  });

  it('cuts off a user the provider gave no refresh token, saying how to fix it', async () => {
    await stack.signIn(CAROL.id);
    const link = await linkOf(CAROL.email);
    await core.backend.run('UPDATE oidc_links SET refresh_token = NULL WHERE account_id = $id', {
      id: link.accountId,
    });
    stack.clock.advance(RECHECK);
    expect(await oidc.recheck.check(await linkOf(CAROL.email))).toBe('removed');
    const [removed] = await activityOf(CAROL.email, 'oidc_access_removed');
    expect(removed?.detail).toBe(
      'the identity provider gave no refresh token to check the user with (add offline_access to --oidc-scopes); sign in again; 1 session(s) ended',
    );
  });

  it('at a Skiff refresh: asks only once due, and refuses the refresh of a removed user', async () => {
    stack.op.setUser({ ...BOB, groups: ['devs'] });
    const bob = await stack.signIn(BOB.id);
    const local = await stack.call<{ refreshToken: string }>('POST', '/v1/auth/login', {
      body: { username: 'admin', password: 'test-admin-password-0123' },
    });
    expect(local.status).toBe(200);
    // A local account's refresh asks nothing.
    await expect(
      oidc.recheck.onRefresh(core.accounts.byUsername('admin')!.accountId),
    ).resolves.toBeUndefined();
    await expect(oidc.recheck.onRefresh(accountOf(BOB.email).accountId)).resolves.toBeUndefined();
    stack.op.removeUser(BOB.id);
    // Not due yet: the refresh goes through.
    const early = await stack.call('POST', '/v1/auth/refresh', { body: { refreshToken: bob.refreshToken } });
    expect(early.status).toBe(200);
    stack.clock.advance(RECHECK);
    await expect(oidc.recheck.onRefresh(accountOf(BOB.email).accountId)).rejects.toMatchObject({
      code: 'oidc_access_removed',
      message: 'the identity provider no longer accepts this user; sign in again',
    });
    expect(await active(BOB.email)).toBe(0);
  });
});

/**
 * The provider's port held by a listener that accepts connections and never answers (a provider
 * that hangs), so a recheck stays in flight with its claim taken until `release()`.
 */
async function hangProvider(): Promise<{ release(): Promise<void> }> {
  await stack.op.down();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  const port = Number(new URL(stack.op.issuer).port);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    async release() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stack.op.up();
    },
  };
}

const user = (id: string, groups: string[] = []): ProviderUser => ({
  id,
  email: `${id}@example.com`,
  name: id,
  groups,
});

describe('a recheck, between replicas and accounts', () => {
  it('an account unknown here, or removed with its link, asks nothing at a Skiff refresh', async () => {
    await expect(oidc.recheck.onRefresh('acc_no_such_account')).resolves.toBeUndefined();
    const erin = user('erin');
    stack.op.setUser(erin);
    await stack.signIn(erin.id);
    const { accountId } = accountOf(erin.email);
    await core.accounts.remove(accountId);
    expect(await loadLink(core.backend, accountId)).toBeUndefined();
    stack.clock.advance(RECHECK);
    await expect(oidc.recheck.onRefresh(accountId)).resolves.toBeUndefined();
  });

  it('puts back the role the groups give when an administrator changed it, and records it', async () => {
    const frank = user('frank', ['devs']);
    stack.op.setUser(frank);
    await stack.signIn(frank.id);
    const { accountId } = accountOf(frank.email);
    await core.accounts.update(accountId, { role: 'admin' });
    stack.clock.advance(RECHECK);
    expect(await oidc.recheck.check(await linkOf(frank.email))).toBe('kept');
    expect(accountOf(frank.email)).toMatchObject({ role: 'member', groups: ['devs'] });
    const [changed] = await activityOf(frank.email, 'oidc_groups_changed');
    expect(changed?.detail).toBe('Test IdP now gives groups: devs (was: devs); role member');
  });

  it("holds its claim for CLAIM_MS: a second replica's recheck inside the window is refused", async () => {
    // Only this test's replicas ask: the background sweep would otherwise take due links too.
    oidc.close();
    const grace = user('grace');
    stack.op.setUser(grace);
    await stack.signIn(grace.id);
    stack.clock.advance(RECHECK);
    const due = await linkOf(grace.email);
    const provider = await hangProvider();
    let first: Promise<RecheckOutcome> | undefined;
    try {
      first = oidc.recheck.check(due);
      // The first replica took the claim and waits on the provider.
      const claimed = await vi.waitFor(
        async () => {
          const link = await linkOf(grace.email);
          if (link.nextCheckAt === due.nextCheckAt) throw new Error('not claimed yet');
          return link;
        },
        { timeout: 15_000, interval: 5 },
      );
      const now = stack.clock.now();
      expect(claimed.nextCheckAt).toBe(now + CLAIM_MS);
      // A second replica reading the link now finds it not due, and its sweep does not pick it.
      expect(await oidc.recheck.check(claimed)).toBe('not_due');
      expect((await dueLinks(core.backend, now, 1000)).map((l) => l.accountId)).not.toContain(
        claimed.accountId,
      );
      // Still inside the window a millisecond before it ends.
      stack.clock.advance(CLAIM_MS - 1);
      expect(await oidc.recheck.check(claimed)).toBe('not_due');
    } finally {
      await provider.release();
    }
    // The provider never answered the first replica: the sessions stay, retried later.
    expect(await first).toBe('retry');
    expect(await active(grace.email)).toBe(1);
    expect(await activityOf(grace.email, 'oidc_access_removed')).toEqual([]);
  });
});
