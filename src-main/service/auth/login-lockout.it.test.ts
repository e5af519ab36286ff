import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import type { AuthStack } from './stack.test-support';
import { stackPerTest } from './stack-per-test.test-support';

/**
 * Wrong passwords cannot lock anyone else out (issue 22 §6): failures count per account and
 * source address, with a wait that doubles, and a source that has not failed gets in with the
 * right password whatever others sent. Every case runs on the default limits.
 */
const started = stackPerTest();

type Answer = { code?: string; detail?: string; retryAfterSeconds?: number };

/** A login from a real loopback source address (127.0.0.2, 127.0.0.3…): no proxy involved. */
const from = (s: AuthStack, localAddress: string, password: string, username = 'admin') =>
  s.call<Answer>('POST', '/v1/auth/login', { body: { username, password }, localAddress });

/** A login a trusted proxy forwarded for `address`. */
const forwarded = (s: AuthStack, address: string, password: string, username = 'admin') =>
  s.call<Answer>('POST', '/v1/auth/login', {
    body: { username, password },
    headers: { 'x-forwarded-for': address },
  });

const WAIT = 'too many failed logins for this account from this address';

describe('wrong passwords from one address', () => {
  it('never lock the administrator out of another address that has not failed', async () => {
    const s = await started();
    for (let i = 0; i < 12; i++) await from(s, '127.0.0.2', `wrong-${i}`);
    expect((await from(s, '127.0.0.2', TEST_ADMIN_PASSWORD)).status).toBe(429);
    expect((await from(s, '127.0.0.3', TEST_ADMIN_PASSWORD)).status).toBe(200);
  });

  it('lock that address with a wait that doubles, while another address gets in with the right password', async () => {
    const s = await started();
    // Five free failures, then 30 s, doubling with each failure: ten wrong guesses no longer lock anyone else out.
    for (let i = 0; i < 5; i++) expect((await from(s, '127.0.0.2', `wrong-${i}`)).status).toBe(401);
    const waits: number[] = [];
    for (let round = 0; round < 5; round++) {
      const refused = await from(s, '127.0.0.2', TEST_ADMIN_PASSWORD);
      expect(refused.status, `round ${round}`).toBe(429);
      expect(refused.body.code).toBe('rate_limited');
      expect(refused.body.detail).toMatch(new RegExp(`^${WAIT}; try again in \\d+ s$`));
      const seconds = Number(refused.headers['retry-after']);
      expect(refused.body.retryAfterSeconds).toBe(seconds);
      waits.push(seconds);
      // The wait runs out, and the next wrong guess makes the next wait twice as long.
      s.clock.advance(seconds * 1000);
      expect((await from(s, '127.0.0.2', `late-wrong-${round}`)).status).toBe(401);
    }
    expect(waits).toEqual([30, 60, 120, 240, 480]);
    // Ten wrong passwords later: the administrator at another address logs in at once.
    expect((await from(s, '127.0.0.3', TEST_ADMIN_PASSWORD)).status).toBe(200);
    // The wait is capped at 15 minutes.
    const capped = await from(s, '127.0.0.2', TEST_ADMIN_PASSWORD);
    expect(capped.headers['retry-after']).toBe('900');
    s.clock.advance(900_000);
    expect((await from(s, '127.0.0.2', 'wrong-again')).status).toBe(401);
    expect((await from(s, '127.0.0.2', TEST_ADMIN_PASSWORD)).headers['retry-after']).toBe('900');
    // Once the wait has run out, the right password gets in, and that address starts afresh.
    s.clock.advance(900_000);
    expect((await from(s, '127.0.0.2', TEST_ADMIN_PASSWORD)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await from(s, '127.0.0.2', `fresh-${i}`)).status).toBe(401);
  });

  it('lock only the account they were sent for', async () => {
    const s = await started();
    for (let i = 0; i < 6; i++) await from(s, '127.0.0.2', `wrong-${i}`, 'nobody');
    expect((await from(s, '127.0.0.2', 'still-wrong', 'nobody')).status).toBe(429);
    expect((await from(s, '127.0.0.2', TEST_ADMIN_PASSWORD)).status).toBe(200);
  });

  it('reach an address behind a trusted proxy by its forwarded address, and an IPv6 one by its /64', async () => {
    const s = await started({ auth: { trustProxy: ['127.0.0.1'] } });
    // Six addresses of one /64: one source, so the sixth attempt already waits.
    for (let i = 1; i <= 5; i++) expect((await forwarded(s, `2001:db8:0:7::${i}`, 'wrong')).status).toBe(401);
    expect((await forwarded(s, '2001:db8:0:7::6', TEST_ADMIN_PASSWORD)).status).toBe(429);
    expect((await forwarded(s, '2001:db8:0:8::1', TEST_ADMIN_PASSWORD)).status).toBe(200);
    expect((await forwarded(s, '203.0.113.5', TEST_ADMIN_PASSWORD)).status).toBe(200);
  });
});

describe('an account many addresses fail on', () => {
  it('slows every address that failed on it, and never one that has not', async () => {
    const s = await started({ auth: { trustProxy: ['127.0.0.1'] } });
    // Twelve addresses, one wrong guess each: past the account's ceiling of ten failures.
    for (let i = 1; i <= 12; i++) expect((await forwarded(s, `198.51.100.${i}`, 'guess')).status).toBe(401);
    // An address that failed now waits from its first failure, the right password or not.
    const slowed = await forwarded(s, '198.51.100.3', TEST_ADMIN_PASSWORD);
    expect([slowed.status, slowed.headers['retry-after']]).toEqual([429, '30']);
    // A clean address with the right password is let in.
    expect((await forwarded(s, '192.0.2.10', TEST_ADMIN_PASSWORD)).status).toBe(200);
    // A clean address is still checked: a wrong guess is a 401, and that address then waits too.
    expect((await forwarded(s, '192.0.2.11', 'guess')).status).toBe(401);
    expect((await forwarded(s, '192.0.2.11', TEST_ADMIN_PASSWORD)).status).toBe(429);
    // The ceiling slides: 15 minutes after the guesses, an address's first failure is free again.
    s.clock.advance(15 * 60_000);
    expect((await forwarded(s, '198.51.100.3', TEST_ADMIN_PASSWORD)).status).toBe(200);
  });
});

describe('the per-address attempt limit', () => {
  it('counts wrong passwords, not successful logins', async () => {
    const s = await started();
    // Twenty attempts per ten minutes: successful ones do not use them up.
    for (let i = 0; i < 25; i++)
      expect((await from(s, '127.0.0.4', TEST_ADMIN_PASSWORD)).status, `login ${i}`).toBe(200);
  });

  it('does not count an attempt refused for its wait', async () => {
    const s = await started();
    for (let i = 0; i < 5; i++) await from(s, '127.0.0.5', `wrong-${i}`);
    // Twenty refusals while waiting cost no password check, and leave the address its attempts.
    for (let i = 0; i < 20; i++) expect((await from(s, '127.0.0.5', TEST_ADMIN_PASSWORD)).status).toBe(429);
    expect((await from(s, '127.0.0.5', 'wrong', 'someone-else')).status).toBe(401);
  });
});

describe('a wrong current password on a password change', () => {
  it('counts against the address it came from, not the account everywhere', async () => {
    const s = await started();
    const me = await s.login();
    const change = (currentPassword: string, localAddress: string) =>
      s.call<Answer>('POST', '/v1/auth/password', {
        headers: me.bearer,
        body: { currentPassword, newPassword: 'next-admin-password' },
        localAddress,
      });
    for (let i = 0; i < 5; i++) expect((await change(`wrong-${i}`, '127.0.0.6')).status).toBe(403);
    const refused = await change(TEST_ADMIN_PASSWORD, '127.0.0.6');
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(
      /^too many failed password checks for this account from this address/,
    );
    expect((await from(s, '127.0.0.6', TEST_ADMIN_PASSWORD)).status).toBe(429);
    expect((await from(s, '127.0.0.7', TEST_ADMIN_PASSWORD)).status).toBe(200);
  });
});
