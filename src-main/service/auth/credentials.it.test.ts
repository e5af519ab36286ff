import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationNames, operations } from '../../../src-shared/contract/operations';
import { contextsFromYaml } from '../kube/kubeconfig';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { type AuthStack, startAuthStack, type Tokens } from './stack.test-support';

const SAMPLE: Record<string, string> = {
  workspaceId: 'default',
  clusterId: 'sim',
  resourceType: 'pod',
  resourceName: 'web-0',
  namespace: 'default',
  sessionId: 'some-session',
  apiKeyId: 'some-key',
  accountId: 'some-account',
};
const PODS = '/v1/workspaces/default/observability/sim/kubernetes-proxy/pod';

let sim: Simulator;
let stack: AuthStack;
let admin: Tokens;

beforeAll(async () => {
  sim = await startSimulator({ tickMs: false });
  stack = await startAuthStack({ contexts: contextsFromYaml(sim.kubeconfigYaml('sim')) });
  admin = await stack.login();
});
afterAll(async () => {
  await stack.close();
  await sim.close();
});

function expectChallenge(
  res: { status: number; headers: Record<string, unknown>; body: unknown },
  code: string,
) {
  expect(res.status).toBe(401);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="skiff", error="invalid_token"/);
  expect(res.body).toMatchObject({ status: 401, code });
}

describe('no credentials, no answer', () => {
  it('refuses every operation but health, readiness, the sign-ins, refresh and the session probe with a 401 challenge', async () => {
    const open = operationNames.filter((n) => operations[n].auth === 'public');
    // Readiness is asked by the kubelet's probe, which carries no credentials; the sign-in with the
    // identity provider starts before there is any (its methods, the redirect, the callback and the
    // one-time code's exchange).
    expect(open.sort()).toEqual([
      'authMethods',
      'health',
      'healthReady',
      'login',
      'oidcCallback',
      'oidcExchange',
      'oidcLogin',
      'refresh',
    ]);
    const optional = operationNames.filter((n) => operations[n].auth === 'optional');
    expect(optional).toEqual(['currentSession']);
    for (const name of operationNames.filter((n) => !['public', 'optional'].includes(operations[n].auth))) {
      const spec = operations[name];
      const path = spec.path.replace(/:(\w+)/g, (_, p: string) => SAMPLE[p]!);
      const res = await stack.call(
        spec.method,
        path,
        spec.method === 'GET' || spec.method === 'DELETE' ? {} : { body: {} },
      );
      expectChallenge(res, 'unauthorized');
    }
  });

  it('answers health and readiness without credentials', async () => {
    expect((await stack.call('GET', '/v1/health')).status).toBe(200);
    expect((await stack.call('GET', '/v1/health/ready')).status).toBe(200);
  });

  it('serves a cluster endpoint with a valid access token', async () => {
    const res = await stack.call<unknown[]>('GET', PODS, { headers: admin.bearer });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
  });
});

describe('401 for bad access tokens', () => {
  const cases: Array<[string, () => string]> = [
    ['a non-Bearer scheme', () => `Basic ${Buffer.from(`admin:${TEST_ADMIN_PASSWORD}`).toString('base64')}`],
    ['an empty Bearer', () => 'Bearer'],
    ['a malformed token', () => 'Bearer not-a-jwt'],
    [
      'a tampered payload',
      () => {
        const [h, p, s] = admin.accessToken.split('.');
        const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
        return `Bearer ${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${s}`;
      },
    ],
    ['a bad signature', () => `Bearer ${admin.accessToken.slice(0, -6)}AAAAAA`],
    [
      'an unsigned token',
      () => {
        const [, p] = admin.accessToken.split('.');
        return `Bearer ${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${p}.`;
      },
    ],
  ];
  for (const [what, header] of cases) {
    it(`refuses ${what}`, async () => {
      const res = await stack.call('GET', PODS, { headers: { authorization: header() } });
      expectChallenge(res, 'invalid_token');
    });
  }

  it('refuses a token signed by another data dir’s key', async () => {
    const other = await startAuthStack();
    try {
      const foreign = await other.login();
      expectChallenge(await stack.call('GET', PODS, { headers: foreign.bearer }), 'invalid_token');
    } finally {
      await other.close();
    }
  });

  it('refuses an expired token, by the injected clock', async () => {
    const s = await startAuthStack();
    try {
      const t = await s.login();
      expect(t.auth.exp - t.auth.iat).toBe(15 * 60);
      s.clock.advance(15 * 60_000 - 1000);
      expect((await s.call('GET', '/v1/workspaces', { headers: t.bearer })).status).toBe(200);
      s.clock.advance(2000);
      const res = await s.call<{ detail: string }>('GET', '/v1/workspaces', { headers: t.bearer });
      expectChallenge(res, 'invalid_token');
      expect(res.body.detail).toMatch(/expired/);
    } finally {
      await s.close();
    }
  });
});

describe('API keys', () => {
  let key: string;
  let keyId: string;
  beforeAll(async () => {
    const res = await stack.call<{ key: string; apiKey: { apiKeyId: string } }>('POST', '/v1/auth/api-keys', {
      headers: admin.bearer,
      body: { name: 'ci' },
    });
    expect(res.status).toBe(201);
    key = res.body.key;
    keyId = res.body.apiKey.apiKeyId;
  });

  it('works on cluster endpoints, in X-API-Key or as a Bearer value', async () => {
    expect((await stack.call('GET', PODS, { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await stack.call('GET', PODS, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it('is refused with 403 api_key_not_allowed on every session endpoint, however sent', async () => {
    const sessionOps = operationNames.filter((n) => operations[n].auth === 'session');
    expect(sessionOps).toEqual(expect.arrayContaining(['listSessions', 'logoutSession', 'listActivity']));
    for (const name of sessionOps) {
      const spec = operations[name];
      const path = spec.path.replace(/:(\w+)/g, (_, p: string) => SAMPLE[p]!);
      const variants: Array<Record<string, string>> = [
        { 'x-api-key': key },
        { authorization: `Bearer ${key}` },
        { ...admin.bearer, 'x-api-key': key },
      ];
      for (const headers of variants) {
        const res = await stack.call(spec.method, path, {
          headers,
          ...(spec.requiresJson ? { body: {} } : {}),
        });
        expect(res.status, `${name} with ${Object.keys(headers).join('+')}`).toBe(403);
        expect(res.body).toMatchObject({ code: 'api_key_not_allowed' });
      }
    }
  });

  it('is refused when scoped to another workspace (404) and once revoked (401)', async () => {
    const scoped = await stack.call<{ key: string }>('POST', '/v1/auth/api-keys', {
      headers: admin.bearer,
      body: { name: 'elsewhere', workspaces: ['other'] },
    });
    const res = await stack.call('GET', PODS, { headers: { 'x-api-key': scoped.body.key } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'workspace_not_found' });

    const revoked = await stack.call<{ status: string }>('DELETE', `/v1/auth/api-keys/${keyId}`, {
      headers: admin.bearer,
    });
    expect(revoked.body.status).toBe('revoked');
    expectChallenge(await stack.call('GET', PODS, { headers: { 'x-api-key': key } }), 'invalid_token');
  });

  it('expires', async () => {
    const res = await stack.call<{ key: string }>('POST', '/v1/auth/api-keys', {
      headers: admin.bearer,
      body: { name: 'short', expiresInDays: 1 },
    });
    expect(
      (await stack.call('GET', '/v1/workspaces', { headers: { 'x-api-key': res.body.key } })).status,
    ).toBe(200);
    stack.clock.advance(24 * 3_600_000);
    expectChallenge(
      await stack.call('GET', '/v1/workspaces', { headers: { 'x-api-key': res.body.key } }),
      'invalid_token',
    );
    stack.clock.advance(-24 * 3_600_000);
  });

  it('lists keys without their secrets', async () => {
    const res = await stack.call<Array<Record<string, unknown>>>('GET', '/v1/auth/api-keys', {
      headers: admin.bearer,
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-total']).toBe(String(res.body.length));
    expect(JSON.stringify(res.body)).not.toContain(key);
    expect(res.body[0]).toHaveProperty('hint');
  });
});

describe('404 that leaks nothing', () => {
  it('answers an unknown session id and another account’s session alike', async () => {
    await stack.call('POST', '/v1/auth/accounts', {
      headers: admin.bearer,
      body: { username: 'bob', password: 'bob-password-1', workspaces: [] },
    });
    const bob = await stack.login('bob', 'bob-password-1');
    const unknown = await stack.call('POST', '/v1/auth/sessions/no-such-session/logout', {
      headers: admin.bearer,
    });
    const foreign = await stack.call('POST', `/v1/auth/sessions/${bob.sessionId}/logout`, {
      headers: admin.bearer,
    });
    expect(unknown.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'session_not_found' });
    // Bob's session is untouched.
    expect((await stack.call('GET', '/v1/auth/sessions', { headers: bob.bearer })).status).toBe(200);
  });

  it('answers a workspace the caller is not a member of like one that does not exist', async () => {
    const bob = await stack.login('bob', 'bob-password-1');
    const member = await stack.call('GET', PODS, { headers: bob.bearer });
    const missing = await stack.call('GET', '/v1/workspaces/nope/clusters', { headers: admin.bearer });
    expect(member.status).toBe(404);
    expect(member.body).toMatchObject({ code: 'workspace_not_found' });
    expect(missing.status).toBe(404);
    expect((await stack.call<unknown[]>('GET', '/v1/workspaces', { headers: bob.bearer })).body).toEqual([]);
  });

  it('refuses account management to members with 403', async () => {
    const bob = await stack.login('bob', 'bob-password-1');
    const res = await stack.call('GET', '/v1/auth/accounts', { headers: bob.bearer });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'admin_required' });
  });
});

describe('415 and 400 on login and refresh', () => {
  it('needs Content-Type: application/json', async () => {
    for (const path of ['/v1/auth/login', '/v1/auth/refresh']) {
      const plain = await stack.call('POST', path, {
        rawBody: '{"refreshToken":"x"}',
        headers: { 'content-type': 'text/plain' },
      });
      const none = await stack.call('POST', path, { rawBody: '{"refreshToken":"x"}' });
      const empty = await stack.call('POST', path);
      for (const res of [plain, none, empty]) {
        expect(res.status, path).toBe(415);
        expect(res.body).toMatchObject({ code: 'unsupported_media_type' });
      }
    }
  });

  it('needs a string refreshToken, or none at all (then the cookie, here missing: 401)', async () => {
    for (const body of [{ refreshToken: 42 }, { refreshToken: null }, { refreshToken: '' }]) {
      const res = await stack.call('POST', '/v1/auth/refresh', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_body' });
    }
    expectChallenge(await stack.call('POST', '/v1/auth/refresh', { body: {} }), 'invalid_grant');
    const empty = await stack.call('POST', '/v1/auth/refresh', {
      headers: { 'content-type': 'application/json' },
    });
    expectChallenge(empty, 'invalid_grant');
    const broken = await stack.call('POST', '/v1/auth/refresh', {
      rawBody: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ code: 'invalid_json' });
  });

  it('answers an unknown refresh token with 401', async () => {
    expectChallenge(
      await stack.call('POST', '/v1/auth/refresh', { body: { refreshToken: 'skiff_rt_nope' } }),
      'invalid_grant',
    );
  });
});
