import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Account, SessionRecord } from '../../../src-shared/contract/auth-models';
import { ADMIN_PASSWORD_FILE } from './bootstrap';
import type { AuthStack, Tokens } from './stack.test-support';
import { activityOf, stackPerTest } from './stack-per-test.test-support';

const started = stackPerTest();

async function member(s: AuthStack, admin: Tokens, username: string, extra: Record<string, unknown> = {}) {
  const res = await s.call<Account>('POST', '/v1/auth/accounts', {
    headers: admin.bearer,
    body: { username, password: `${username}-password`, ...extra },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe('account administration', () => {
  it('is refused to a member: no creating, changing or removing accounts', async () => {
    const s = await started();
    const admin = await s.login();
    await member(s, admin, 'walt');
    const other = await member(s, admin, 'xena');
    const walt = await s.login('walt', 'walt-password');
    const asWalt = (method: string, path: string, body?: unknown) =>
      s.call<{ code: string }>(method, path, { headers: walt.bearer, ...(body ? { body } : {}) });

    const created = await asWalt('POST', '/v1/auth/accounts', {
      username: 'yuri',
      password: 'yuri-password',
    });
    const promoted = await asWalt('PATCH', `/v1/auth/accounts/${walt.auth.sub}`, { role: 'admin' });
    const reset = await asWalt('PATCH', `/v1/auth/accounts/${other.accountId}`, { password: 'taken-over!' });
    const removed = await asWalt('DELETE', `/v1/auth/accounts/${other.accountId}`);
    for (const res of [created, promoted, reset, removed]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('admin_required');
    }
    const accounts = await s.call<Account[]>('GET', '/v1/auth/accounts', { headers: admin.bearer });
    expect(accounts.body.map((a) => [a.username, a.role]).sort()).toEqual([
      ['admin', 'admin'],
      ['walt', 'member'],
      ['xena', 'member'],
    ]);
    await s.login('xena', 'xena-password');
  });

  it('a password reset ends the account’s sessions as password_changed and logs which administrator did it', async () => {
    const s = await started();
    const admin = await s.login();
    const zoe = await member(s, admin, 'zoe');
    const phone = await s.login('zoe', 'zoe-password');
    const laptop = await s.login('zoe', 'zoe-password');
    s.clock.advance(60_000);
    const reset = await s.call('PATCH', `/v1/auth/accounts/${zoe.accountId}`, {
      headers: admin.bearer,
      body: { password: 'zoe-new-password' },
    });
    expect(reset.status).toBe(200);

    const again = await s.login('zoe', 'zoe-new-password');
    const sessions = await s.call<SessionRecord[]>('GET', '/v1/auth/sessions?includeExpired=true', {
      headers: again.bearer,
    });
    const ended = sessions.body.filter((r) => r.sessionId !== again.sessionId);
    expect(ended.map((r) => r.sessionId).sort()).toEqual([phone.sessionId, laptop.sessionId].sort());
    for (const r of ended) expect(r).toMatchObject({ status: 'logged_out', endReason: 'password_changed' });

    const log = await activityOf(s, again.bearer, '?type=password_changed');
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      accountId: zoe.accountId,
      username: 'zoe',
      by: { accountId: admin.auth.sub, username: 'admin', sessionId: admin.sessionId },
    });
    expect(log[0]!.detail).toMatch(/\b2 session/);
  });

  it('a reset of the admin account’s password removes the generated first password from disk; other resets keep it', async () => {
    let generated: string | undefined;
    const s = await started({
      config: { adminPassword: undefined },
      auth: { onAdminCreated: (info) => (generated = info.generatedPassword) },
    });
    const file = join(s.dataDir, ADMIN_PASSWORD_FILE);
    expect(existsSync(file)).toBe(true);
    const admin = await s.login('admin', generated!);
    const second = await member(s, admin, 'abe', { role: 'admin' });
    const plain = await member(s, admin, 'bea');
    const asSecond = await s.login('abe', 'abe-password');

    for (const target of [second.accountId, plain.accountId]) {
      await s.call('PATCH', `/v1/auth/accounts/${target}`, {
        headers: asSecond.bearer,
        body: { password: 'yet-another-password' },
      });
    }
    expect(existsSync(file)).toBe(true);
    const res = await s.call('PATCH', `/v1/auth/accounts/${admin.auth.sub}`, {
      headers: asSecond.bearer,
      body: { password: 'admin-chosen-password' },
    });
    expect(res.status).toBe(200);
    expect(existsSync(file)).toBe(false);
    await s.login('admin', 'admin-chosen-password');
  });

  it('removing an account removes the log entries about it', async () => {
    const s = await started();
    const admin = await s.login();
    const cleo = await member(s, admin, 'cleo');
    const dan = await member(s, admin, 'dan');
    await s.login('cleo', 'cleo-password');
    await s.login('dan', 'dan-password');
    const about = async (accountId: string) =>
      (await activityOf(s, admin.bearer, '?accountId=all&limit=100')).filter(
        (e) => e.accountId === accountId,
      );
    expect(await about(cleo.accountId)).toHaveLength(1);
    const removed = await s.call('DELETE', `/v1/auth/accounts/${cleo.accountId}`, { headers: admin.bearer });
    expect(removed.status).toBe(200);
    expect(await about(cleo.accountId)).toEqual([]);
    expect((await about(dan.accountId)).map((e) => e.type)).toEqual(['login']);
  });
});

describe('API keys in the log', () => {
  it('a revocation names the session that revoked the key', async () => {
    const s = await started();
    const admin = await s.login();
    await member(s, admin, 'eli');
    const eli = await s.login('eli', 'eli-password');
    const other = await s.login('eli', 'eli-password');
    const created = await s.call<{ apiKey: { apiKeyId: string } }>('POST', '/v1/auth/api-keys', {
      headers: eli.bearer,
      body: { name: 'ci' },
    });
    const revoked = await s.call('DELETE', `/v1/auth/api-keys/${created.body.apiKey.apiKeyId}`, {
      headers: other.bearer,
    });
    expect(revoked.status).toBe(200);
    const log = await activityOf(s, eli.bearer, '?type=api_key_created,api_key_revoked');
    expect(log.map((e) => [e.type, e.sessionId, e.apiKeyId])).toEqual([
      ['api_key_revoked', other.sessionId, created.body.apiKey.apiKeyId],
      ['api_key_created', eli.sessionId, created.body.apiKey.apiKeyId],
    ]);
  });
});
