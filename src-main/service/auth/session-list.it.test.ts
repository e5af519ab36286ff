import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Account, SessionRecord } from '../../../src-shared/contract/auth-models';
import { ENDED_RETENTION_MS } from './sessions';
import { type AuthStack, queryDataDir, startAuthStack, T0, type Tokens } from './stack.test-support';

/** What GET /v1/auth/sessions answers: whose sessions, in which order, and for how long ended ones stay. */

const HOUR = 3_600_000;

let stack: AuthStack;
beforeEach(async () => {
  stack = await startAuthStack();
});
afterEach(() => stack.close());

const list = async (t: Tokens, includeExpired = false) =>
  (
    await stack.call<SessionRecord[]>('GET', `/v1/auth/sessions?includeExpired=${includeExpired}`, {
      headers: t.bearer,
    })
  ).body;

it('lists the newest login first by its login time, whatever order the sessions were created in', async () => {
  // The wall clock is set back between logins, so creation order is neither order of the answer.
  stack.clock.t = T0 + 2 * HOUR;
  const late = await stack.login();
  stack.clock.t = T0;
  const early = await stack.login();
  stack.clock.t = T0 + HOUR;
  const middle = await stack.login();

  const sessions = await list(middle);
  expect(sessions.map((s) => s.sessionId)).toEqual([late.sessionId, middle.sessionId, early.sessionId]);
  expect(sessions.map((s) => Date.parse(s.firstLoginAt) - T0)).toEqual([2 * HOUR, HOUR, 0]);
});

it('lists the caller’s own sessions only, never another account’s', async () => {
  const admin = await stack.login();
  const created = await stack.call<Account>('POST', '/v1/auth/accounts', {
    headers: admin.bearer,
    body: { username: 'carol', password: 'carol-password', workspaces: ['default'] },
  });
  expect(created.status).toBe(201);
  const carol = await stack.login('carol', 'carol-password');
  const admin2 = await stack.login();

  expect((await list(admin, true)).map((s) => s.sessionId).sort()).toEqual(
    [admin.sessionId, admin2.sessionId].sort(),
  );
  expect((await list(carol, true)).map((s) => s.sessionId)).toEqual([carol.sessionId]);
});

it('keeps an ended session listable for 90 days after it ended, then drops it from the list and the disk', async () => {
  const gone = await stack.login();
  const me = await stack.login();
  stack.clock.advance(60_000);
  const out = await stack.call('POST', `/v1/auth/sessions/${gone.sessionId}/logout`, { headers: me.bearer });
  expect(out.status).toBe(200);
  const endedAt = stack.clock.t;
  const rows = () =>
    queryDataDir<{ session_id: string }>(stack.dataDir, 'SELECT session_id FROM sessions').map(
      (r) => r.session_id,
    );

  // `me` expired (idle) long before; a new login asks.
  stack.clock.t = endedAt + ENDED_RETENTION_MS;
  const now = await stack.login();
  expect((await list(now, true)).map((s) => [s.sessionId, s.status])).toEqual([
    [now.sessionId, 'active'],
    [me.sessionId, 'expired'],
    [gone.sessionId, 'logged_out'],
  ]);

  stack.clock.advance(1);
  expect((await list(now, true)).map((s) => s.sessionId)).toEqual([now.sessionId, me.sessionId]);
  expect(rows().sort()).toEqual([now.sessionId, me.sessionId].sort());
});
