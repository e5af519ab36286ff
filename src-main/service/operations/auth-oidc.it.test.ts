/**
 * The sign-in operations as a login page meets them without a provider that answers (the flow
 * against a real provider is in auth/oidc/*.it.test.ts): what /v1/auth/methods offers, the login
 * redirect while the provider is down, --local-login off, and accounts the provider made, which
 * have no password.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthOptions } from '../auth/options';
import { type AuthStack, startAuthStack } from '../auth/stack.test-support';
import { withParam } from './auth-oidc';

let stack: AuthStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** A loopback port nothing listens on: a provider that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function withDownProvider(
  auth: Partial<AuthOptions> = {},
  oidc: Partial<NonNullable<AuthOptions['oidc']>> = {},
) {
  const issuer = `http://127.0.0.1:${await closedPort()}`;
  return startAuthStack({
    auth: {
      secretKey: 'k'.repeat(32),
      oidc: { issuer, clientId: 'skiff', name: 'Team IdP', allowInsecureRequests: true, ...oidc },
      ...auth,
    },
    config: { publicUrl: 'http://127.0.0.1:7733' },
  });
}

const NAVIGATE = { 'sec-fetch-mode': 'navigate', accept: 'text/html' };

describe('without an identity provider', () => {
  it('offers the password form only, and the sign-in operations are 404 oidc_not_configured', async () => {
    stack = await startAuthStack();
    const methods = await stack.call('GET', '/v1/auth/methods');
    expect(methods).toMatchObject({ status: 200, body: { password: true, oidc: null } });
    const login = await stack.call<{ code: string }>('GET', '/v1/auth/oidc/login', { headers: NAVIGATE });
    expect([login.status, login.body.code]).toEqual([404, 'oidc_not_configured']);
    const exchange = await stack.call<{ code: string }>('POST', '/v1/auth/oidc/exchange', {
      body: { code: 'x' },
    });
    expect([exchange.status, exchange.body.code]).toEqual([404, 'oidc_not_configured']);
  });
});

describe('with a provider that is down', () => {
  it('says so on the login page, sends a browser back with oidc_unavailable, and admins still sign in', async () => {
    stack = await withDownProvider({}, { only: true });
    const methods = await stack.call<{ password: boolean; oidc: Record<string, unknown> }>(
      'GET',
      '/v1/auth/methods',
    );
    expect(methods.status).toBe(200);
    expect(methods.body.password).toBe(false);
    expect(methods.body.oidc).toMatchObject({
      name: 'Team IdP',
      loginPath: '/v1/auth/oidc/login',
      available: false,
    });
    expect(String(methods.body.oidc.detail)).toMatch(/ECONNREFUSED|cannot be reached|did not answer/);

    const nav = await stack.call('GET', '/v1/auth/oidc/login?returnTo=%2Fpods', { headers: NAVIGATE });
    expect(nav.status).toBe(302);
    expect(nav.headers.location).toBe('http://127.0.0.1:7733/?oidc_error=oidc_unavailable');
    // No flow was started, so no cookie binds one.
    expect(nav.headers['set-cookie']).toBeUndefined();
    const script = await stack.call<{ code: string }>('GET', '/v1/auth/oidc/login');
    expect([script.status, script.body.code]).toEqual([503, 'oidc_unavailable']);

    // --oidc-only hides the form; it does not lock out the break-glass administrator.
    await expect(stack.login()).resolves.toMatchObject({ sessionId: expect.any(String) });
  });

  it('refuses a returnTo that leaves the service', async () => {
    stack = await withDownProvider();
    for (const returnTo of [
      '//evil.example.com/x',
      'https://evil.example.com',
      'pods',
      '/\\evil.example.com',
    ]) {
      const res = await stack.call<{ code: string }>(
        'GET',
        `/v1/auth/oidc/login?returnTo=${encodeURIComponent(returnTo)}`,
      );
      expect([returnTo, res.status, res.body.code]).toEqual([returnTo, 400, 'invalid_query']);
    }
  });

  it('--local-login off refuses password login with local_login_disabled', async () => {
    stack = await withDownProvider({ localLogin: false });
    const res = await stack.call<{ code: string }>('POST', '/v1/auth/login', {
      body: { username: 'admin', password: 'whatever-it-is' },
    });
    expect([res.status, res.body.code]).toEqual([403, 'local_login_disabled']);
    const methods = await stack.call<{ password: boolean }>('GET', '/v1/auth/methods');
    expect(methods.body.password).toBe(false);
  });
});

describe('accounts the provider made', () => {
  it('have no password: password login answers them as unknown, and none can be set', async () => {
    stack = await withDownProvider();
    const core = await stack.service.auth.core();
    const carol = await core.accounts.upsertOidc('Carol@Example.com', ['devs'], undefined);
    expect(carol).toMatchObject({
      username: 'carol@example.com',
      source: 'oidc',
      groups: ['devs'],
      role: 'member',
    });
    for (const password of ['x', 'not-her-password']) {
      const res = await stack.call<{ code: string }>('POST', '/v1/auth/login', {
        body: { username: 'carol@example.com', password },
      });
      expect([res.status, res.body.code]).toEqual([401, 'invalid_credentials']);
    }
    const admin = await stack.login();
    const patch = await stack.call<{ code: string }>('PATCH', `/v1/auth/accounts/${carol.accountId}`, {
      headers: admin.bearer,
      body: { password: 'a-new-password' },
    });
    expect([patch.status, patch.body.code]).toEqual([409, 'conflict']);
    const listed = await stack.call<Array<{ username: string; source: string; groups: string[] }>>(
      'GET',
      '/v1/auth/accounts',
      { headers: admin.bearer },
    );
    expect(listed.body.map((a) => [a.username, a.source, a.groups])).toEqual([
      ['admin', 'local', []],
      ['carol@example.com', 'oidc', ['devs']],
    ]);
  });

  it('follow the groups: the admin groups decide the role each time, and a local name is never taken over', async () => {
    stack = await withDownProvider();
    const { accounts } = await stack.service.auth.core();
    const erin = await accounts.upsertOidc('erin@example.com', ['ops'], 'admin');
    expect(erin.role).toBe('admin');
    const again = await accounts.upsertOidc('erin@example.com', ['devs'], 'member');
    expect(again).toMatchObject({ accountId: erin.accountId, role: 'member', groups: ['devs'] });
    // Without admin groups the role stays what it is.
    expect((await accounts.upsertOidc('erin@example.com', ['x'], undefined)).role).toBe('member');
    await expect(accounts.upsertOidc('admin', [], undefined)).rejects.toMatchObject({
      code: 'oidc_account_conflict',
    });
  });
});

describe('withParam', () => {
  it('adds the parameter to the query and keeps the rest', () => {
    expect(withParam('/', 'oidc_code', 'c')).toBe('/?oidc_code=c');
    expect(withParam('/pods?ns=shop#top', 'oidc_code', 'c')).toBe('/pods?ns=shop&oidc_code=c#top');
    expect(withParam('/?oidc_code=old', 'oidc_code', 'new')).toBe('/?oidc_code=new');
  });
});
