import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AuthStack, startAuthStack, type Tokens } from './stack.test-support';

interface Pair {
  accessToken: string;
  refreshToken: string;
  auth: { sub: string; sid: string; jti: string; iat: number; exp: number };
}

let stack: AuthStack;
let first: Tokens;

beforeEach(async () => {
  stack = await startAuthStack();
  first = await stack.login();
});
afterEach(() => stack.close());

const refresh = (token: string) =>
  stack.call<Pair>('POST', '/v1/auth/refresh', { body: { refreshToken: token } });
const workspaces = (t: { accessToken: string }) =>
  stack.call('GET', '/v1/workspaces', { headers: { authorization: `Bearer ${t.accessToken}` } });

function decode(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

describe('rotation', () => {
  it('replaces both tokens and answers the decoded payload of the new access token', async () => {
    stack.clock.advance(60_000);
    const res = await refresh(first.refreshToken);
    expect(res.status).toBe(200);
    const pair = res.body;
    expect(Object.keys(pair).sort()).toEqual(['accessToken', 'auth', 'refreshToken']);
    expect(pair.accessToken).not.toBe(first.accessToken);
    expect(pair.refreshToken).not.toBe(first.refreshToken);
    expect(pair.refreshToken).toMatch(/^skiff_rt_[\w-]{43}$/);
    expect(pair.auth).toEqual(decode(pair.accessToken));
    expect(pair.auth).toMatchObject({ sub: first.auth.sub, sid: first.sessionId });
    expect(pair.auth.jti).not.toBe(first.auth.jti);
    expect(pair.auth.iat).toBe(Math.floor(stack.clock.t / 1000));
    expect(pair.auth.exp).toBe(pair.auth.iat + 15 * 60);
    expect((await workspaces(pair)).status).toBe(200);
  });

  it('keeps a chain of refreshes going, each token good once', async () => {
    let token = first.refreshToken;
    for (let i = 0; i < 5; i++) {
      stack.clock.advance(20_000);
      const res = await refresh(token);
      expect(res.status).toBe(200);
      token = res.body.refreshToken;
    }
    const sessions = await stack.call<unknown[]>('GET', '/v1/auth/sessions', { headers: first.bearer });
    expect(sessions.body).toHaveLength(1);
  });

  it('moves the session expiry with each refresh, never past its absolute limit', async () => {
    stack.clock.advance(10 * 86_400_000);
    const pair = (await refresh(first.refreshToken)).body;
    const [s] = (
      await stack.call<Array<{ expiresAt: string }>>('GET', '/v1/auth/sessions', {
        headers: { authorization: `Bearer ${pair.accessToken}` },
      })
    ).body;
    expect(Date.parse(s!.expiresAt)).toBe(stack.clock.t + 14 * 86_400_000);
  });
});

describe('reuse detection', () => {
  it('revokes the whole session when an already rotated token comes back after the overlap window', async () => {
    const second = (await refresh(first.refreshToken)).body;
    stack.clock.advance(11_000);
    const reuse = await refresh(first.refreshToken);
    expect(reuse.status).toBe(401);
    expect(reuse.body).toMatchObject({ code: 'refresh_token_reused' });
    expect(reuse.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
    // The legitimate holder is cut off too: the family is dead.
    expect((await refresh(second.refreshToken)).status).toBe(401);
    expect((await workspaces(second)).status).toBe(401);
    expect((await workspaces(first)).status).toBe(401);

    const other = await stack.login();
    const all = await stack.call<Array<{ sessionId: string; status: string; endReason: string }>>(
      'GET',
      '/v1/auth/sessions?includeExpired=true',
      { headers: other.bearer },
    );
    expect(all.body.find((s) => s.sessionId === first.sessionId)).toMatchObject({
      status: 'logged_out',
      endReason: 'refresh_token_reused',
    });
    const log = await stack.call<Array<{ type: string; sessionId: string }>>('GET', '/v1/auth/activity', {
      headers: other.bearer,
    });
    expect(log.body.map((e) => e.type)).toEqual(['login', 'refresh_token_reused', 'refresh', 'login']);
  });

  it('revokes on a token older than the previous one, even inside the window', async () => {
    const second = (await refresh(first.refreshToken)).body;
    const third = (await refresh(second.refreshToken)).body;
    const res = await refresh(first.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'refresh_token_reused' });
    expect((await refresh(third.refreshToken)).status).toBe(401);
  });
});

describe('overlap window', () => {
  it('answers a retry of the previous token within 10 s with the very same pair', async () => {
    const a = (await refresh(first.refreshToken)).body;
    stack.clock.advance(9_000);
    const retry = await refresh(first.refreshToken);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(a);
    // The retry does not rotate again: the pair it returned still works and moves the chain on.
    const b = await refresh(a.refreshToken);
    expect(b.status).toBe(200);
    expect((await workspaces(b.body)).status).toBe(200);
  });

  it('joins two concurrent refreshes with the same token into one pair', async () => {
    const [x, y] = await Promise.all([refresh(first.refreshToken), refresh(first.refreshToken)]);
    expect(x.status).toBe(200);
    expect(y.body).toEqual(x.body);
  });

  it('stops at the window’s end', async () => {
    await refresh(first.refreshToken);
    stack.clock.advance(10_001);
    expect((await refresh(first.refreshToken)).body).toMatchObject({ code: 'refresh_token_reused' });
  });

  it('honours a configured window, and none at 0', async () => {
    await stack.close();
    stack = await startAuthStack({ auth: { overlapSeconds: 0 } });
    first = await stack.login();
    await refresh(first.refreshToken);
    stack.clock.advance(1);
    expect((await refresh(first.refreshToken)).status).toBe(401);
  });
});

describe('ended sessions', () => {
  it('refuses the refresh token of a logged-out session', async () => {
    await stack.call('POST', `/v1/auth/sessions/${first.sessionId}/logout`, { headers: first.bearer });
    const res = await refresh(first.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'invalid_grant' });
    expect(JSON.stringify(res.body)).toMatch(/logged out/);
  });

  it('refuses the refresh token of an expired session, saying it expired', async () => {
    stack.clock.advance(14 * 86_400_000);
    const res = await refresh(first.refreshToken);
    expect(res.body).toMatchObject({ code: 'invalid_grant' });
    expect(JSON.stringify(res.body)).toMatch(/expired/);
  });

  it('refuses a refresh token it never issued, with or without the token prefix: 401 invalid_grant', async () => {
    const forged = `${first.refreshToken.slice(0, -4)}AAAA`;
    for (const token of [forged, 'not-a-refresh-token']) {
      const res = await refresh(token);
      expect([res.status, (res.body as { code?: string }).code], token).toEqual([401, 'invalid_grant']);
    }
  });
});
