/**
 * `--public-url` over real HTTP (issue 25 §3): links in answers are absolute under it, and its
 * host and origin are accepted without listing them again, while X-Forwarded-Proto is still
 * believed only from a trusted proxy.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLinks, type Stack, startStack } from '../test-support/harness.test-support';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';

const PUBLIC = 'https://skiff.example.test';

/** A GET with headers fetch will not send as given (Host). */
function raw(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('--public-url', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ service: { publicUrl: PUBLIC } });
  });
  afterAll(() => stack?.close());

  it('makes the Link header of a page absolute under it, query and all', async () => {
    const res = await stack.get(`${stack.cluster}/kubernetes-proxy/pod?limit=1`);
    expect(res.status).toBe(200);
    const links = parseLinks(res.headers.get('link') ?? '');
    const next = new URL(links.next ?? '');
    expect(next.origin + next.pathname).toBe(`${PUBLIC}${stack.cluster}/kubernetes-proxy/pod`);
    expect([next.searchParams.get('limit'), next.searchParams.get('offset')]).toEqual(['1', '1']);
    expect(links.first).toMatch(new RegExp(`^${PUBLIC}/v1/`));
  });

  it('accepts its host and origin without --allowed-host; X-Forwarded-Proto needs a trusted proxy still', async () => {
    const health = `${stack.url}/v1/health`;
    expect((await raw(health, { host: 'skiff.example.test', origin: PUBLIC })).status).toBe(200);
    const other = await raw(health, { host: 'other.example.test' });
    expect([other.status, JSON.parse(other.body).code]).toEqual([403, 'host_not_allowed']);
    // Its origin is allowed as such; an http origin for that host is not the request's own
    // scheme unless a trusted proxy says so, and none is configured.
    const plain = await raw(health, { host: 'skiff.example.test', origin: 'http://skiff.example.test:8443' });
    expect(plain.status).toBe(403);
  });

  it('does not make X-Forwarded-Proto believed: without --trust-proxy a refresh cookie is not Secure', async () => {
    const login = (proto: string) =>
      fetch(`${stack.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': proto },
        body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD, refreshTokenIn: 'cookie' }),
      });
    const res = await login('https');
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).not.toMatch(/;\s*Secure/i);
  });
});

describe('--public-url behind a trusted proxy', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ service: { publicUrl: PUBLIC, auth: { trustProxy: ['127.0.0.1'] } } });
  });
  afterAll(() => stack?.close());

  it("takes the proxy's X-Forwarded-Proto: https gets a Secure cookie, http does not", async () => {
    const login = (proto: string) =>
      fetch(`${stack.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': proto },
        body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD, refreshTokenIn: 'cookie' }),
      });
    expect((await login('https')).headers.get('set-cookie')).toMatch(/;\s*Secure/i);
    expect((await login('http')).headers.get('set-cookie')).not.toMatch(/;\s*Secure/i);
  });
});
