import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import type { AuthStack } from './stack.test-support';
import { stackPerTest } from './stack-per-test.test-support';

/** What each login limit counts under (auth/login.ts): the client's address, the normalised username. */
const started = stackPerTest();

const attempt = (s: AuthStack, username: string, password: string, from: string) =>
  s.call<{ code?: string }>('POST', '/v1/auth/login', {
    body: { username, password },
    headers: { 'x-forwarded-for': from },
  });

describe('the per-address login limit', () => {
  it('counts each client address on its own', async () => {
    const s = await started({
      auth: { trustProxy: ['127.0.0.1'], rateLimits: { loginPerAddress: { limit: 2, windowMs: 60_000 } } },
    });
    expect((await attempt(s, 'admin', 'bad-password', '203.0.113.9')).status).toBe(401);
    expect((await attempt(s, 'admin', 'bad-password', '203.0.113.9')).status).toBe(401);
    expect((await attempt(s, 'admin', TEST_ADMIN_PASSWORD, '203.0.113.9')).status).toBe(429);
    expect((await attempt(s, 'admin', TEST_ADMIN_PASSWORD, '198.51.100.4')).status).toBe(200);
  });
});

describe('the per-source failure backoff', () => {
  it('counts a username whatever its case and surrounding spaces', async () => {
    const s = await started({
      auth: {
        trustProxy: ['127.0.0.1'],
        rateLimits: { loginFailuresPerSource: { free: 2, baseMs: 60_000, maxMs: 60_000, forgetMs: 600_000 } },
      },
    });
    expect((await attempt(s, 'ADMIN', 'bad-password', '203.0.113.1')).status).toBe(401);
    expect((await attempt(s, '  Admin ', 'bad-password', '203.0.113.1')).status).toBe(401);
    const limited = await attempt(s, 'admin', TEST_ADMIN_PASSWORD, '203.0.113.1');
    expect([limited.status, limited.body.code]).toEqual([429, 'rate_limited']);
    expect((await attempt(s, 'admin', TEST_ADMIN_PASSWORD, '203.0.113.2')).status).toBe(200);
  });

  it('starts again for the address that logged in, and for no other', async () => {
    const s = await started({
      auth: {
        trustProxy: ['127.0.0.1'],
        rateLimits: { loginFailuresPerSource: { free: 2, baseMs: 60_000, maxMs: 60_000, forgetMs: 600_000 } },
      },
    });
    for (const from of ['203.0.113.1', '203.0.113.2']) {
      expect((await attempt(s, 'admin', 'bad-password', from)).status).toBe(401);
      expect((await attempt(s, 'admin', 'bad-password', from)).status).toBe(401);
    }
    s.clock.advance(60_000);
    expect((await attempt(s, 'admin', TEST_ADMIN_PASSWORD, '203.0.113.1')).status).toBe(200);
    // .1 has its free failures back; .2 does not, so its next failure waits at once.
    for (const from of ['203.0.113.1', '203.0.113.2'])
      expect((await attempt(s, 'admin', 'bad-password', from)).status, from).toBe(401);
    expect((await attempt(s, 'admin', TEST_ADMIN_PASSWORD, '203.0.113.1')).status).toBe(200);
    expect((await attempt(s, 'admin', TEST_ADMIN_PASSWORD, '203.0.113.2')).status).toBe(429);
  });
});
