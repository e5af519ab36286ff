import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Account } from '../../../src-shared/contract/auth-models';
import { type AuthStack, startAuthStack, type Tokens } from './stack.test-support';

let stack: AuthStack;
let admin: Tokens;
beforeEach(async () => {
  stack = await startAuthStack();
  admin = await stack.login();
});
afterEach(() => stack.close());

type Answer = Account & { code?: string };
const create = (body: Record<string, unknown>) =>
  stack.call<Answer>('POST', '/v1/auth/accounts', { headers: admin.bearer, body });
const patch = (accountId: string, body: Record<string, unknown>) =>
  stack.call<Answer>('PATCH', `/v1/auth/accounts/${accountId}`, { headers: admin.bearer, body });
const remove = (accountId: string) =>
  stack.call<Answer>('DELETE', `/v1/auth/accounts/${accountId}`, { headers: admin.bearer });
const list = async () =>
  (await stack.call<Account[]>('GET', '/v1/auth/accounts', { headers: admin.bearer })).body;

describe('the last administrator', () => {
  it('can be neither demoted nor removed while only members are left beside it', async () => {
    await create({ username: 'mia', password: 'mia-password', workspaces: ['default'] });
    await create({ username: 'ned', password: 'ned-password' });
    const adminId = admin.auth.sub;
    const demoted = await patch(adminId, { role: 'member' });
    expect(demoted.status).toBe(409);
    expect(demoted.body.code).toBe('last_admin');
    const removed = await remove(adminId);
    expect(removed.status).toBe(409);
    expect(removed.body.code).toBe('last_admin');
    expect((await list()).find((a) => a.accountId === adminId)).toMatchObject({ role: 'admin' });
  });

  it('may still have its password reset and stays an administrator', async () => {
    const reset = await patch(admin.auth.sub, { password: 'a-new-admin-password' });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ username: 'admin', role: 'admin', workspaces: 'all' });
    await stack.login('admin', 'a-new-admin-password');
    const kept = await patch(admin.auth.sub, { role: 'admin' });
    expect(kept.status).toBe(200);
  });
});

describe('workspace lists', () => {
  it('an administrator keeps none of its own: demoted, it belongs to no workspace until given some', async () => {
    // Created as an administrator with a list: the list is not kept.
    const born = await create({
      username: 'olga',
      password: 'olga-password',
      role: 'admin',
      workspaces: ['default'],
    });
    expect(born.body.workspaces).toBe('all');
    const bornDemoted = await patch(born.body.accountId, { role: 'member' });
    expect(bornDemoted.body).toMatchObject({ role: 'member', workspaces: [] });

    // Promoted from member: the member's list is dropped with the promotion.
    const member = await create({ username: 'pete', password: 'pete-password', workspaces: ['default'] });
    expect(member.body.workspaces).toEqual(['default']);
    const promoted = await patch(member.body.accountId, { role: 'admin' });
    expect(promoted.body.workspaces).toBe('all');
    const demoted = await patch(member.body.accountId, { role: 'member' });
    expect(demoted.body).toMatchObject({ role: 'member', workspaces: [] });
    const pete = await stack.login('pete', 'pete-password');
    expect(
      (await stack.call('GET', '/v1/workspaces/default/clusters', { headers: pete.bearer })).status,
    ).toBe(404);

    const given = await patch(member.body.accountId, { workspaces: ['default', 'default'] });
    expect(given.body.workspaces).toEqual(['default']);
  });

  it('a member created without a list belongs to no workspace', async () => {
    const quinn = await create({ username: 'quinn', password: 'quinn-password' });
    expect(quinn.status).toBe(201);
    expect(quinn.body).toMatchObject({ role: 'member', workspaces: [] });
    expect((await list()).find((a) => a.username === 'quinn')?.workspaces).toEqual([]);
  });
});

describe('the account list', () => {
  it('is in order of creation time, even when the clock was set back between two creations', async () => {
    const at = (t: number) => {
      stack.clock.t = t;
    };
    const t0 = stack.clock.t;
    at(t0 + 50_000);
    await create({ username: 'rosa', password: 'rosa-password' });
    at(t0 + 10_000); // the clock was corrected backwards
    await create({ username: 'sam', password: 'sam-password' });
    at(t0 + 30_000);
    await create({ username: 'tara', password: 'tara-password' });
    const accounts = await list();
    expect(accounts.map((a) => a.username)).toEqual(['admin', 'sam', 'tara', 'rosa']);
    expect(accounts.map((a) => a.createdAt)).toEqual(
      [t0, t0 + 10_000, t0 + 30_000, t0 + 50_000].map((t) => new Date(t).toISOString()),
    );
  });
});
