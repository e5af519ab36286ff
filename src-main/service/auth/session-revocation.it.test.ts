import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Account, SessionRecord } from '../../../src-shared/contract/auth-models';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import type { AuthCore } from './core';
import { type AuthStack, queryDataDir, startAuthStack, type Tokens } from './stack.test-support';

/** How sessions end: a logout, a new password for their account, the account's removal. */

let stack: AuthStack;
let core: AuthCore;
let admin: Tokens;
beforeEach(async () => {
  stack = await startAuthStack();
  core = await stack.service.auth.core();
  admin = await stack.login();
});
afterEach(() => stack.close());

async function newAccount(username: string): Promise<string> {
  const res = await stack.call<Account>('POST', '/v1/auth/accounts', {
    headers: admin.bearer,
    body: { username, password: `${username}-password`, workspaces: ['default'] },
  });
  expect(res.status).toBe(201);
  return res.body.accountId;
}

const works = async (t: Tokens) => (await stack.call('GET', '/v1/workspaces', { headers: t.bearer })).status;
const refresh = (t: Tokens) =>
  stack.call<{ code?: string }>('POST', '/v1/auth/refresh', { body: { refreshToken: t.refreshToken } });

it('a logout is on disk before it is answered, with when and why', async () => {
  const phone = await stack.login();
  stack.clock.advance(1_000);
  const out = await stack.call('POST', `/v1/auth/sessions/${phone.sessionId}/logout`, {
    headers: admin.bearer,
  });
  expect(out.status).toBe(200);
  // Read as another process would: a crash now could not bring the session back.
  expect(
    queryDataDir(
      stack.dataDir,
      `SELECT status, ended_at, end_reason FROM sessions WHERE session_id = '${phone.sessionId}'`,
    ),
  ).toEqual([{ status: 'logged_out', ended_at: stack.clock.t, end_reason: 'logout' }]);
});

it('a password change ends the account’s other active sessions, only those, and counts them', async () => {
  await newAccount('dora');
  const dora = await stack.login('dora', 'dora-password');
  const other = await stack.login();
  const earlier = await stack.login();
  await stack.call('POST', `/v1/auth/sessions/${earlier.sessionId}/logout`, { headers: admin.bearer });

  const res = await stack.call('POST', '/v1/auth/password', {
    headers: admin.bearer,
    body: { currentPassword: TEST_ADMIN_PASSWORD, newPassword: 'another-password-1' },
  });
  expect(res.body).toEqual({ endedSessions: 1 });

  expect(await works(other)).toBe(401);
  expect((await refresh(other)).status).toBe(401);
  expect(await works(admin)).toBe(200);
  // Another account is not touched.
  expect(await works(dora)).toBe(200);
  const all = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions?includeExpired=true', {
    headers: admin.bearer,
  });
  expect(Object.fromEntries(all.body.map((s) => [s.sessionId, [s.status, s.endReason]]))).toEqual({
    [admin.sessionId]: ['active', null],
    [other.sessionId]: ['logged_out', 'password_changed'],
    [earlier.sessionId]: ['logged_out', 'logout'],
  });
});

it('removing an account forgets its sessions: its tokens get 401, nothing of them stays in memory or on disk', async () => {
  const id = await newAccount('erin');
  const erin = await stack.login('erin', 'erin-password');
  const ended = await stack.login('erin', 'erin-password');
  await stack.call('POST', `/v1/auth/sessions/${ended.sessionId}/logout`, { headers: ended.bearer });
  const colleague = await stack.login();

  const removed = await stack.call('DELETE', `/v1/auth/accounts/${id}`, { headers: admin.bearer });
  expect(removed.status).toBe(200);

  // Still well signed and unexpired, but of a session that no longer exists.
  expect(await works(erin)).toBe(401);
  expect((await refresh(erin)).body.code).toBe('invalid_grant');
  expect(await core.sessions.get(erin.sessionId)).toBeUndefined();
  expect(await core.sessions.get(ended.sessionId)).toBeUndefined();
  expect(queryDataDir(stack.dataDir, `SELECT session_id FROM sessions WHERE account_id = '${id}'`)).toEqual(
    [],
  );
  // The other accounts' sessions are kept.
  expect(await works(admin)).toBe(200);
  expect((await core.sessions.get(colleague.sessionId))?.status).toBe('active');
});
