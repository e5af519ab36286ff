/**
 * Login failures and the rate limits, on a service with a fake clock. That an unknown username and
 * a wrong password cost the same is checked as the scrypt work each does (the real scrypt, counted);
 * their times side by side are bench/login-timing.ts.
 */
import type * as Crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { type AuthStack, startAuthStack } from './stack.test-support';

/** The cost parameters of each scrypt derivation the service ran (the real one: only counted). */
const derivations = vi.hoisted(() => [] as Array<{ N?: number; r?: number; p?: number }>);
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof Crypto>();
  const scrypt = (...args: unknown[]) => {
    const options = args[3];
    if (typeof options === 'object' && options !== null) {
      const { N, r, p } = options as Crypto.ScryptOptions;
      derivations.push({ N, r, p });
    }
    return (real.scrypt as (...a: unknown[]) => void)(...args);
  };
  return { ...real, default: { ...real, scrypt }, scrypt };
});

let stack: AuthStack;
afterEach(() => stack.close());

const attempt = (username: string, password: string, headers: Record<string, string> = {}) =>
  stack.call<{ code?: string; detail?: string }>('POST', '/v1/auth/login', {
    body: { username, password },
    headers,
  });

describe('login failures', () => {
  it('answer a wrong username and a wrong password with the same 401', async () => {
    stack = await startAuthStack();
    const unknown = await attempt('nobody', 'whatever-password');
    const wrong = await attempt('admin', 'whatever-password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body.code).toBe('invalid_credentials');
    expect(unknown.body.detail).toBe('the username or password is wrong');
    const { date: _a, ...h1 } = unknown.headers;
    const { date: _b, ...h2 } = wrong.headers;
    expect(h1).toEqual(h2);
    expect(h1['www-authenticate']).toBe('Bearer realm="skiff"');
  });

  it('do the same work for an unknown username as for a wrong password: one scrypt at the accounts’ cost', async () => {
    // The time a failed login takes is scrypt's (an unknown name is checked against a stand-in
    // hash, so it cannot be told by its speed). Which derivations each failure ran, and at what
    // cost, is that rule as a state; the two failures' times side by side are a figure of
    // `npm run bench` (bench/login-timing.ts).
    stack = await startAuthStack({
      auth: { passwordCost: 12, rateLimits: { loginPerAddress: { limit: 100, windowMs: 60_000 } } },
    });
    const work = async (username: string) => {
      derivations.length = 0;
      expect((await attempt(username, 'not-the-password')).status).toBe(401);
      return [...derivations];
    };
    const unknown = await work('ghost');
    const wrong = await work('admin');
    expect(unknown).toEqual([{ N: 2 ** 12, r: 8, p: 1 }]);
    expect(wrong).toEqual(unknown);
    // Not only the first time: the stand-in hash is made once, before any login.
    expect(await work('ghost2')).toEqual(unknown);
  });
});

describe('429 with Retry-After', () => {
  it('limits login attempts per client address', async () => {
    stack = await startAuthStack({
      auth: { rateLimits: { loginPerAddress: { limit: 3, windowMs: 60_000 } } },
    });
    for (let i = 0; i < 3; i++) expect((await attempt(`user${i}`, 'x-password')).status).toBe(401);
    const limited = await attempt('admin', TEST_ADMIN_PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBe('60');
    // The detail says which limit was hit, so someone locked out knows what to wait for.
    expect(limited.body.detail).toBe('too many login attempts from this address; try again in 60 s');
    stack.clock.advance(45_000);
    expect((await attempt('admin', TEST_ADMIN_PASSWORD)).headers['retry-after']).toBe('15');
    stack.clock.advance(15_000);
    expect((await attempt('admin', TEST_ADMIN_PASSWORD)).status).toBe(200);
  });

  it('slows the addresses that failed on an account, existing or not, and tells nothing of it', async () => {
    stack = await startAuthStack({
      auth: {
        trustProxy: ['127.0.0.1'],
        rateLimits: { loginFailuresPerAccount: { limit: 2, windowMs: 300_000 } },
      },
    });
    for (const name of ['admin', 'nobody']) {
      expect((await attempt(name, 'bad-password', { 'x-forwarded-for': '203.0.113.1' })).status).toBe(401);
      expect((await attempt(name, 'bad-password', { 'x-forwarded-for': '203.0.113.2' })).status).toBe(401);
      // Past the account's ceiling an address that failed on it waits, the right password or not.
      const limited = await attempt(name, TEST_ADMIN_PASSWORD, { 'x-forwarded-for': '203.0.113.1' });
      expect(limited.status, name).toBe(429);
      expect(limited.headers['retry-after']).toBe('30');
      expect(limited.body.detail).toBe(
        'too many failed logins for this account from this address; try again in 30 s',
      );
    }
    // An address that has not failed is let in; the waiting one is, once its wait ran out.
    expect((await attempt('admin', TEST_ADMIN_PASSWORD, { 'x-forwarded-for': '203.0.113.3' })).status).toBe(
      200,
    );
    stack.clock.advance(30_000);
    expect((await attempt('admin', TEST_ADMIN_PASSWORD, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(
      200,
    );
  });

  it('limits refreshes per client address and per account', async () => {
    stack = await startAuthStack({
      auth: {
        trustProxy: ['127.0.0.1'],
        rateLimits: {
          refreshPerAddress: { limit: 3, windowMs: 60_000 },
          refreshPerAccount: { limit: 4, windowMs: 60_000 },
        },
      },
    });
    const t = await stack.login();
    let token = t.refreshToken;
    const refresh = (ip: string) =>
      stack.call<{ refreshToken: string; detail?: string }>('POST', '/v1/auth/refresh', {
        body: { refreshToken: token },
        headers: { 'x-forwarded-for': ip },
      });
    for (let i = 0; i < 3; i++) {
      const r = await refresh('198.51.100.7');
      expect(r.status).toBe(200);
      token = r.body.refreshToken;
    }
    const byAddress = await refresh('198.51.100.7');
    expect(byAddress.status).toBe(429);
    expect(Number(byAddress.headers['retry-after'])).toBeGreaterThan(0);
    expect(byAddress.body.detail).toMatch(/^too many refreshes from this address; try again in \d+ s$/);
    const r4 = await refresh('198.51.100.8');
    expect(r4.status).toBe(200);
    token = r4.body.refreshToken;
    const byAccount = await refresh('198.51.100.9');
    expect(byAccount.status).toBe(429);
    expect(byAccount.body.detail).toMatch(/^too many refreshes for this account; try again in \d+ s$/);
    // A limited refresh did not consume the token.
    stack.clock.advance(60_000);
    expect((await refresh('198.51.100.9')).status).toBe(200);
  });
});
