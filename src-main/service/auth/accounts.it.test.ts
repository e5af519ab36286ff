import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Account, SessionRecord, WhoAmI } from '../../../src-shared/contract/auth-models';
import { type AuthStack, startAuthStack, type Tokens } from './stack.test-support';

let stack: AuthStack;
let admin: Tokens;
beforeEach(async () => {
  stack = await startAuthStack();
  admin = await stack.login();
});
afterEach(() => stack.close());

const create = (body: Record<string, unknown>) =>
  stack.call<Account & { code?: string }>('POST', '/v1/auth/accounts', { headers: admin.bearer, body });

describe('accounts', () => {
  it('are created, listed and removed by an admin; admin is a member of all workspaces', async () => {
    const dev = await create({ username: 'Dev.One', password: 'dev-password', workspaces: ['default'] });
    expect(dev.status).toBe(400);
    const ok = await create({ username: 'dev.one', password: 'dev-password', workspaces: ['default'] });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ username: 'dev.one', role: 'member', workspaces: ['default'] });
    expect(JSON.stringify(ok.body)).not.toContain('dev-password');
    expect((await create({ username: 'dev.one', password: 'other-password' })).status).toBe(409);
    expect((await create({ username: 'short', password: 'short' })).body.code).toBe('invalid_body');

    const list = await stack.call<Account[]>('GET', '/v1/auth/accounts', { headers: admin.bearer });
    expect(list.body.map((a) => [a.username, a.workspaces])).toEqual([
      ['admin', 'all'],
      ['dev.one', ['default']],
    ]);
    // Usernames are case-insensitive at login.
    const dev1 = await stack.login('DEV.ONE', 'dev-password');
    expect(
      (await stack.call('GET', '/v1/workspaces/default/clusters', { headers: dev1.bearer })).status,
    ).toBe(200);

    const removed = await stack.call('DELETE', `/v1/auth/accounts/${ok.body.accountId}`, {
      headers: admin.bearer,
    });
    expect(removed.status).toBe(200);
    expect((await stack.call('GET', '/v1/workspaces', { headers: dev1.bearer })).status).toBe(401);
    expect(
      (
        await stack.call('POST', '/v1/auth/login', {
          body: { username: 'dev.one', password: 'dev-password' },
        })
      ).status,
    ).toBe(401);
    expect(
      (await stack.call('DELETE', `/v1/auth/accounts/${ok.body.accountId}`, { headers: admin.bearer }))
        .status,
    ).toBe(404);
  });

  it('membership changes apply to the next request', async () => {
    const ok = await create({ username: 'eve', password: 'eve-password', workspaces: [] });
    const eve = await stack.login('eve', 'eve-password');
    expect((await stack.call('GET', '/v1/workspaces/default/clusters', { headers: eve.bearer })).status).toBe(
      404,
    );
    const patched = await stack.call<Account>('PATCH', `/v1/auth/accounts/${ok.body.accountId}`, {
      headers: admin.bearer,
      body: { workspaces: ['default'] },
    });
    expect(patched.body.workspaces).toEqual(['default']);
    expect((await stack.call('GET', '/v1/workspaces/default/clusters', { headers: eve.bearer })).status).toBe(
      200,
    );
  });

  it('an admin password reset ends the account’s sessions', async () => {
    const ok = await create({ username: 'frank', password: 'frank-password' });
    const frank = await stack.login('frank', 'frank-password');
    await stack.call('PATCH', `/v1/auth/accounts/${ok.body.accountId}`, {
      headers: admin.bearer,
      body: { password: 'new-password!' },
    });
    expect((await stack.call('GET', '/v1/workspaces', { headers: frank.bearer })).status).toBe(401);
    await stack.login('frank', 'new-password!');
  });

  it('keeps at least one administrator', async () => {
    const self = await stack.call<WhoAmI>('GET', '/v1/auth/me', { headers: admin.bearer });
    expect(self.body).toMatchObject({
      account: { username: 'admin', role: 'admin' },
      sessionId: admin.sessionId,
      apiKeyId: null,
    });
    const id = self.body.account.accountId;
    const res = await stack.call<{ code: string }>('DELETE', `/v1/auth/accounts/${id}`, {
      headers: admin.bearer,
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('last_admin');
    const demote = await stack.call('PATCH', `/v1/auth/accounts/${id}`, {
      headers: admin.bearer,
      body: { role: 'member' },
    });
    expect(demote.status).toBe(409);
    await create({ username: 'root2', password: 'root2-password', role: 'admin' });
    expect(
      (
        await stack.call('PATCH', `/v1/auth/accounts/${id}`, {
          headers: admin.bearer,
          body: { role: 'member' },
        })
      ).status,
    ).toBe(200);
  });
});

describe('changing one’s own password', () => {
  it('needs the current password and ends every other session', async () => {
    const other = await stack.login();
    const wrong = await stack.call('POST', '/v1/auth/password', {
      headers: admin.bearer,
      body: { currentPassword: 'nope-nope', newPassword: 'next-password' },
    });
    expect(wrong.status).toBe(403);
    const res = await stack.call<{ endedSessions: number }>('POST', '/v1/auth/password', {
      headers: admin.bearer,
      body: { currentPassword: 'test-admin-password-0123', newPassword: 'next-password' },
    });
    expect(res.body).toEqual({ endedSessions: 1 });
    expect((await stack.call('GET', '/v1/workspaces', { headers: other.bearer })).status).toBe(401);
    const mine = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions', { headers: admin.bearer });
    expect(mine.body.map((s) => s.sessionId)).toEqual([admin.sessionId]);
  });
});

describe('API key scopes', () => {
  it('cannot reach beyond the owner’s workspaces', async () => {
    await create({ username: 'gina', password: 'gina-password', workspaces: [] });
    const gina = await stack.login('gina', 'gina-password');
    const res = await stack.call('POST', '/v1/auth/api-keys', {
      headers: gina.bearer,
      body: { name: 'x', workspaces: ['default'] },
    });
    expect(res.status).toBe(404);
    const own = await stack.call<{ key: string }>('POST', '/v1/auth/api-keys', {
      headers: gina.bearer,
      body: { name: 'x' },
    });
    const who = await stack.call<WhoAmI>('GET', '/v1/auth/me', { headers: { 'x-api-key': own.body.key } });
    expect(who.body).toMatchObject({ account: { username: 'gina' }, sessionId: null });
    expect(who.body.apiKeyId).toBeTruthy();
  });
});
