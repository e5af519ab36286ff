import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../src-shared/contract/auth-models';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { activityOf, stackPerTest } from './stack-per-test.test-support';

const started = stackPerTest();

describe('logging out', () => {
  it('a session that has already ended stays as it ended, and is not logged a second time', async () => {
    const s = await started();
    const keeper = await s.login();
    const gone = await s.login();
    const first = await s.call<SessionRecord>('POST', `/v1/auth/sessions/${gone.sessionId}/logout`, {
      headers: keeper.bearer,
    });
    expect(first.body).toMatchObject({ status: 'logged_out', endReason: 'logout' });
    s.clock.advance(60_000);
    const second = await s.call<SessionRecord>('POST', `/v1/auth/sessions/${gone.sessionId}/logout`, {
      headers: keeper.bearer,
    });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const logouts = await activityOf(s, keeper.bearer, '?type=logout');
    expect(logouts.map((e) => e.sessionId)).toEqual([gone.sessionId]);
  });

  it('one’s own session is logged without another actor; another session’s names the session that ended it', async () => {
    const s = await started();
    const laptop = await s.login();
    const phone = await s.login();
    const tablet = await s.login();
    await s.call('POST', `/v1/auth/sessions/${phone.sessionId}/logout`, { headers: laptop.bearer });
    s.clock.advance(1_000);
    await s.call('POST', `/v1/auth/sessions/${tablet.sessionId}/logout`, { headers: tablet.bearer });
    const [own, ended] = await activityOf(s, laptop.bearer, '?type=logout');
    expect(own).toMatchObject({ sessionId: tablet.sessionId, by: null, detail: expect.any(String) });
    expect(own!.detail).not.toBe('');
    expect(ended).toMatchObject({
      sessionId: phone.sessionId,
      by: { accountId: laptop.auth.sub, sessionId: laptop.sessionId },
    });
    expect(ended!.detail).toContain(laptop.sessionId);
  });
});

describe('changing one’s own password', () => {
  it('a wrong current password counts toward the account’s failed-login limit', async () => {
    const s = await started({
      auth: { rateLimits: { loginFailuresPerAccount: { limit: 2, windowMs: 60_000 } } },
    });
    const me = await s.login();
    const change = (currentPassword: string) =>
      s.call<{ code: string }>('POST', '/v1/auth/password', {
        headers: me.bearer,
        body: { currentPassword, newPassword: 'next-admin-password' },
      });
    expect((await change('wrong-guess-1')).status).toBe(403);
    expect((await change('wrong-guess-2')).status).toBe(403);
    // The limit now holds for password changes and logins of this account alike, right password or not.
    expect((await change(TEST_ADMIN_PASSWORD)).status).toBe(429);
    const login = await s.call('POST', '/v1/auth/login', {
      body: { username: 'admin', password: TEST_ADMIN_PASSWORD },
    });
    expect(login.status).toBe(429);
    s.clock.advance(60_001);
    expect((await change(TEST_ADMIN_PASSWORD)).status).toBe(200);
  });

  it('is logged for the session that did it, with how many other sessions it ended', async () => {
    const s = await started();
    const me = await s.login();
    await s.login();
    await s.login();
    const res = await s.call<{ endedSessions: number }>('POST', '/v1/auth/password', {
      headers: me.bearer,
      body: { currentPassword: TEST_ADMIN_PASSWORD, newPassword: 'next-admin-password' },
    });
    expect(res.body).toEqual({ endedSessions: 2 });
    const log = await activityOf(s, me.bearer, '?type=password_changed');
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ sessionId: me.sessionId, by: null });
    expect(log[0]!.detail).toMatch(/\b2 other session/);
  });
});
