import { describe, expect, it } from 'vitest';
import type { AuthStack } from './stack.test-support';
import { stackPerTest } from './stack-per-test.test-support';

/**
 * An Origin is the same origin only with the request's own scheme, host and port (issue 22 §6):
 * on the plain-HTTP port, `https://127.0.0.1:<port>` is another origin. Behind a TLS-terminating
 * proxy the scheme is https only when a trusted proxy says so.
 */
const started = stackPerTest();

const health = (s: AuthStack, headers: Record<string, string>) =>
  s.call<{ code?: string }>('GET', '/v1/health', { headers });

describe('the request’s own origin', () => {
  it('on the http port: http with this host and port only', async () => {
    const s = await started();
    expect((await health(s, { origin: `http://127.0.0.1:${s.port}` })).status).toBe(200);
    for (const origin of [
      `https://127.0.0.1:${s.port}`,
      `http://127.0.0.1:${s.port + 1}`,
      'http://127.0.0.1',
    ]) {
      const res = await health(s, { origin });
      expect([res.status, res.body.code], origin).toEqual([403, 'origin_not_allowed']);
    }
  });

  it('behind a trusted TLS-terminating proxy: https when it says so, and only then', async () => {
    const s = await started({ auth: { trustProxy: ['127.0.0.1'], allowedHosts: ['skiff.example.test'] } });
    const proxied = (origin: string, proto?: string) =>
      health(s, { host: 'skiff.example.test', origin, ...(proto ? { 'x-forwarded-proto': proto } : {}) });
    expect((await proxied('https://skiff.example.test', 'https')).status).toBe(200);
    expect((await proxied('https://skiff.example.test')).status).toBe(403);
    expect((await proxied('http://skiff.example.test', 'https')).status).toBe(403);
    expect((await proxied('https://skiff.example.test:8443', 'https')).status).toBe(403);
    expect((await proxied('http://skiff.example.test')).status).toBe(200);
  });

  it('from a peer that is not a trusted proxy, X-Forwarded-Proto is not believed', async () => {
    const s = await started({ auth: { trustProxy: ['10.9.9.9'] } });
    const res = await health(s, { origin: `https://127.0.0.1:${s.port}`, 'x-forwarded-proto': 'https' });
    expect(res.status).toBe(403);
  });
});
