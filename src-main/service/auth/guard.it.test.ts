import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AuthStack, startAuthStack, type Tokens } from './stack.test-support';

// A stack per test: the allowlist is parsed when the service starts, and a mutation run credits
// code run in a beforeAll to no test (docs/mutation-testing.md).
let stack: AuthStack;
let admin: Tokens;
beforeEach(async () => {
  stack = await startAuthStack({
    auth: {
      allowedHosts: ['skiff.example.test', 'box.lan:8443'],
      allowedOrigins: ['https://Tools.Example.TEST/', 'http://dash.lan:8080'],
    },
  });
  admin = await stack.login();
});
afterEach(() => stack.close());

const get = (headers: Record<string, string>) =>
  stack.call<{ code?: string }>('GET', '/v1/workspaces', { headers: { ...admin.bearer, ...headers } });

describe('Host allowlist (DNS rebinding)', () => {
  it('accepts the loopback names with the port the request came in on', async () => {
    for (const host of [`127.0.0.1:${stack.port}`, `localhost:${stack.port}`, `LOCALHOST:${stack.port}`]) {
      expect((await get({ host })).status, host).toBe(200);
    }
  });

  it('refuses other names, other ports and no Host at all, before authentication', async () => {
    for (const host of [
      `evil.example:${stack.port}`,
      'localhost:1',
      'localhost',
      `127.0.0.2:${stack.port}`,
      '',
    ]) {
      const res = await stack.call<{ code: string }>('GET', '/v1/health', { headers: { host } });
      expect(res.status, host).toBe(403);
      expect(res.body.code).toBe('host_not_allowed');
    }
  });

  it('accepts configured names: without a port on any port, with one only on it', async () => {
    expect((await get({ host: 'skiff.example.test' })).status).toBe(200);
    expect((await get({ host: 'skiff.example.test:9999' })).status).toBe(200);
    expect((await get({ host: 'box.lan:8443' })).status).toBe(200);
    expect((await get({ host: 'box.lan:8444' })).status).toBe(403);
  });
});

describe('Origin', () => {
  it('accepts same-origin browser requests and requests without Origin', async () => {
    expect((await get({ origin: `http://127.0.0.1:${stack.port}` })).status).toBe(200);
    expect(
      (await get({ host: `localhost:${stack.port}`, origin: `http://localhost:${stack.port}` })).status,
    ).toBe(200);
    expect((await get({ host: 'skiff.example.test', origin: 'http://skiff.example.test' })).status).toBe(200);
    expect((await get({})).status).toBe(200);
  });

  it('refuses foreign, null and mismatched origins, and says nothing for CORS', async () => {
    for (const origin of [
      'https://evil.example',
      'null',
      `http://localhost:${stack.port}`,
      'http://127.0.0.1:1',
      `http://127.0.0.1:${stack.port + 1}`,
      `https://127.0.0.1:${stack.port}`,
      'file://',
    ]) {
      const res = await get({ origin });
      expect(res.status, origin).toBe(403);
      expect(res.body.code).toBe('origin_not_allowed');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    const login = await stack.call('POST', '/v1/auth/login', {
      body: { username: 'admin', password: 'x' },
      headers: { origin: 'https://evil.example' },
    });
    expect(login.status).toBe(403);
  });

  it('accepts a configured origin whatever its case and trailing slash, and no neighbour of it', async () => {
    for (const origin of [
      'https://tools.example.test',
      'HTTPS://TOOLS.EXAMPLE.TEST',
      'http://dash.lan:8080',
    ]) {
      expect((await get({ origin })).status, origin).toBe(200);
    }
    for (const origin of [
      'http://tools.example.test',
      'https://tools.example.test:8443',
      'http://dash.lan',
    ]) {
      const res = await get({ origin });
      expect(res.status, origin).toBe(403);
      expect(res.body.code).toBe('origin_not_allowed');
    }
  });

  it('refuses a preflight from another origin', async () => {
    const res = await stack.call('OPTIONS', '/v1/workspaces', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a request the browser marks cross-site', async () => {
    expect((await get({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await get({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });
});
