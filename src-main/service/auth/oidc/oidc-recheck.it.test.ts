/**
 * Staying honest about people removed at the provider, and sessions that are Skiff's own. Real
 * provider, nothing tampered: a user is removed (or their groups changed) at the provider, and the
 * service clock is moved past --oidc-recheck (the default, 15 min; access tokens here live 60 min,
 * so only the recheck can cut them). Proves: until the recheck the user keeps access; within the
 * bound (background sweep, or at Skiff's refresh) every session of theirs ends with end reason
 * oidc_access_removed and the activity log says why, while others keep theirs; new groups (and
 * the admin role they give) apply at the recheck and are logged; an OIDC session refreshes and
 * detects reuse exactly as a password session does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryDataDir } from '../stack.test-support';
import {
  adminBearer,
  type OidcStack,
  problemCode,
  type SignedIn,
  startOidcStack,
} from './oidc-stack.test-support';
import { ADMIN_GROUP } from './provider.test-support';

let stack: OidcStack;

beforeAll(async () => {
  // The service clock runs ahead of the provider's by an hour and more here: ID tokens live a day.
  stack = await startOidcStack({ auth: { accessTokenMinutes: 60 }, provider: { ttl: { IdToken: 86_400 } } });
});
afterAll(async () => {
  await stack?.close();
});

const RECHECK = 15 * 60_000;

const me = (who: { bearer: Record<string, string> }) =>
  stack.call<{ account: { role: string; groups: string[] } }>('GET', '/v1/auth/me', { headers: who.bearer });
const refresh = (token: string) =>
  stack.call<{ accessToken: string; refreshToken: string }>('POST', '/v1/auth/refresh', {
    body: { refreshToken: token },
  });
const sweep = async () => {
  const oidc = await stack.service.auth.oidc();
  if (!oidc) throw new Error('oidc is not configured');
  await oidc.sweep();
};
const rebear = (r: { accessToken: string; refreshToken: string }, was: SignedIn): SignedIn => ({
  ...was,
  ...r,
  bearer: { authorization: `Bearer ${r.accessToken}` },
});

async function activity(type: string): Promise<{ type: string; accountId: string; detail?: string }[]> {
  const res = await stack.call<{ type: string; accountId: string; detail?: string }[]>(
    'GET',
    `/v1/auth/activity?accountId=all&type=${type}`,
    { headers: await adminBearer(stack) },
  );
  return res.body;
}

/** The session's row as the database keeps it (ended sessions are not listed to their owner any more). */
function sessionOf(who: SignedIn): { status: string; endReason: string | null } | undefined {
  const [row] = queryDataDir<{ status: string; end_reason: string | null }>(
    stack.dataDir,
    `SELECT status, end_reason FROM sessions WHERE session_id = '${who.sessionId}'`,
  );
  return row ? { status: row.status, endReason: row.end_reason } : undefined;
}

describe('a user removed at the provider', () => {
  it('keeps access until the recheck, then loses every session within --oidc-recheck; the log says why', async () => {
    const alice = await stack.signIn('alice');
    const aliceToo = await stack.signIn('alice');
    const bob = await stack.signIn('bob');
    const gone = stack.op.users.get('alice');
    stack.op.removeUser('alice');
    try {
      stack.clock.advance(RECHECK - 60_000);
      await sweep();
      expect((await me(alice)).status).toBe(200);

      stack.clock.advance(60_000 + 1_000);
      await sweep();
      expect((await me(alice)).status).toBe(401);
      expect((await me(aliceToo)).status).toBe(401);
      expect((await refresh(alice.refreshToken)).status).toBe(401);
      expect((await me(bob)).status).toBe(200);
      expect(sessionOf(alice)).toMatchObject({ endReason: 'oidc_access_removed' });
      expect(sessionOf(aliceToo)).toMatchObject({ endReason: 'oidc_access_removed' });

      const removed = await activity('oidc_access_removed');
      expect(removed).toHaveLength(1);
      expect(removed[0]?.detail).toMatch(/refused/);
      expect(removed[0]?.detail).toMatch(/2 session\(s\) ended/);
    } finally {
      if (gone) stack.op.setUser(gone);
    }
  });

  it("at Skiff's refresh once the recheck is due: the refresh is refused and the sessions end", async () => {
    const carol = await stack.signIn('carol');
    const gone = stack.op.users.get('carol');
    stack.op.removeUser('carol');
    try {
      stack.clock.advance(RECHECK + 1_000);
      const refused = await refresh(carol.refreshToken);
      // The background sweep (every 15 s of real time) may have got there first: then the session
      // had already ended for the same reason and the refresh is an ordinary 401.
      expect([403, 401]).toContain(refused.status);
      if (refused.status === 403) expect(problemCode(refused)).toBe('oidc_access_removed');
      expect((await me(carol)).status).toBe(401);
      expect(sessionOf(carol)).toMatchObject({ endReason: 'oidc_access_removed' });
    } finally {
      if (gone) stack.op.setUser(gone);
    }
  });
});

describe('the provider unreachable at the recheck', () => {
  it('changes nothing: the sessions stay, the failure is logged, and the recheck is tried again', async () => {
    const bob = await stack.signIn('bob');
    await stack.op.down();
    try {
      stack.clock.advance(RECHECK + 1_000);
      await sweep();
      expect((await me(bob)).status).toBe(200);
      expect(sessionOf(bob)).toMatchObject({ status: 'active', endReason: null });
      expect(stack.logs.some((e) => e.msg?.startsWith('oidc recheck failed'))).toBe(true);
    } finally {
      await stack.op.up();
    }
    // Removed while the provider was away: the retried recheck (a minute later) still catches it.
    const was = stack.op.users.get('bob');
    stack.op.removeUser('bob');
    try {
      stack.clock.advance(60_000 + 1_000);
      await sweep();
      expect((await me(bob)).status).toBe(401);
      expect(sessionOf(bob)).toMatchObject({ endReason: 'oidc_access_removed' });
    } finally {
      if (was) stack.op.setUser(was);
    }
  });
});

describe('groups read again at the recheck', () => {
  it('a user added to the admin group at the provider becomes an administrator at the next recheck, and it is logged', async () => {
    let bob = await stack.signIn('bob');
    expect((await me(bob)).body.account).toMatchObject({ role: 'member', groups: [] });
    const was = stack.op.users.get('bob');
    if (!was) throw new Error('no bob');
    stack.op.setUser({ ...was, groups: [ADMIN_GROUP] });
    try {
      stack.clock.advance(RECHECK + 1_000);
      const renewed = await refresh(bob.refreshToken);
      expect(renewed.status).toBe(200);
      bob = rebear(renewed.body, bob);
      expect((await me(bob)).body.account).toMatchObject({ role: 'admin', groups: [ADMIN_GROUP] });
      const changed = await activity('oidc_groups_changed');
      expect(changed.at(0)?.detail).toContain(ADMIN_GROUP);

      stack.op.setUser(was);
      stack.clock.advance(RECHECK + 1_000);
      await sweep();
      expect((await me(bob)).body.account).toMatchObject({ role: 'member', groups: [] });
    } finally {
      stack.op.setUser(was);
    }
  });
});

describe('an OIDC session is a Skiff session', () => {
  it('refreshes, and a rotated refresh token coming back ends the session (reuse detection)', async () => {
    const alice = await stack.signIn('alice');
    const second = await refresh(alice.refreshToken);
    expect(second.status).toBe(200);
    expect((await me(rebear(second.body, alice))).status).toBe(200);
    stack.clock.advance(11_000);
    const reuse = await refresh(alice.refreshToken);
    expect(reuse.status).toBe(401);
    expect(problemCode(reuse)).toBe('refresh_token_reused');
    expect((await refresh(second.body.refreshToken)).status).toBe(401);
    expect(sessionOf(alice)).toMatchObject({ endReason: 'refresh_token_reused' });
  });
});
