import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Account } from '../../../src-shared/contract/auth-models';
import { type AuthStack, startAuthStack, type Tokens } from './stack.test-support';

/** Login-side rules: the desktop window's own session, per-account refresh limits, failed logins. */

let stack: AuthStack | undefined;
async function start(opts?: Parameters<typeof startAuthStack>[0]): Promise<AuthStack> {
  stack = await startAuthStack(opts);
  return stack;
}
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function createAccount(
  s: AuthStack,
  admin: Tokens,
  username: string,
  extra: Record<string, unknown> = {},
) {
  const res = await s.call<Account>('POST', '/v1/auth/accounts', {
    headers: admin.bearer,
    body: { username, password: `${username}-password`, workspaces: ['default'], ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('the desktop window’s own session', () => {
  it('belongs to the account it names, and to an admin when the named account does not exist', async () => {
    const s = await start();
    const admin = await s.login();
    // A member created before the second admin, so "the first account" is not an admin.
    const mel = await createAccount(s, admin, 'mel');
    s.clock.advance(1000);
    const ada = await createAccount(s, admin, 'ada');
    const promoted = await s.call('PATCH', `/v1/auth/accounts/${ada.accountId}`, {
      headers: admin.bearer,
      body: { role: 'admin' },
    });
    expect(promoted.status).toBe(200);

    const named = await s.service.auth.createLocalSession(undefined, 'mel');
    expect(await s.service.auth.principalForAccessToken(named.accessToken)).toMatchObject({
      accountId: mel.accountId,
      admin: false,
    });

    // The bootstrap admin is gone: the desktop falls back to the admin that is left.
    const bootstrap = (
      await s.call<Account[]>('GET', '/v1/auth/accounts', { headers: admin.bearer })
    ).body.find((a) => a.username === 'admin')!;
    const removed = await s.call('DELETE', `/v1/auth/accounts/${bootstrap.accountId}`, {
      headers: admin.bearer,
    });
    expect(removed.status).toBe(200);
    const fallback = await s.service.auth.createLocalSession();
    expect(await s.service.auth.principalForAccessToken(fallback.accessToken)).toMatchObject({
      accountId: ada.accountId,
      admin: true,
    });
  });
});

describe('refresh limits', () => {
  it('the per-account refresh limit counts one account’s refreshes, not another’s', async () => {
    const s = await start({
      auth: {
        rateLimits: {
          refreshPerAddress: { limit: 100, windowMs: 60_000 },
          refreshPerAccount: { limit: 2, windowMs: 60_000 },
        },
      },
    });
    const admin = await s.login();
    await createAccount(s, admin, 'bo');
    const bo = await s.login('bo', 'bo-password');
    const refresh = (token: string) =>
      s.call<{ refreshToken: string }>('POST', '/v1/auth/refresh', { body: { refreshToken: token } });

    let token = admin.refreshToken;
    for (let i = 0; i < 2; i++) {
      const r = await refresh(token);
      expect(r.status).toBe(200);
      token = r.body.refreshToken;
    }
    expect((await refresh(token)).status).toBe(429);
    // Bo has not refreshed yet: the admin's use of the limit is not his.
    expect((await refresh(bo.refreshToken)).status).toBe(200);
  });
});

describe('failed logins', () => {
  it('a wrong password for an unknown username records nothing and logs no error', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const s = await start({ config: { logger } });
    const res = await s.call('POST', '/v1/auth/login', {
      body: { username: 'nobody-here', password: 'wrong-password' },
    });
    expect(res.status).toBe(401);
    // Closing waits for the work a failed login leaves behind.
    stack = undefined;
    await s.close();
    expect(lines.filter((l) => Number(l.level) >= 40)).toEqual([]);
  });
});
