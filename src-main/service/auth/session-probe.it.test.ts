import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedApiKey, CurrentSession, SessionRecord } from '../../../src-shared/contract/auth-models';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { type AuthStack, startAuthStack, type Tokens } from './stack.test-support';

/**
 * GET /v1/session over real HTTP: a question about credentials that never answers with an error.
 * A stack per test (beforeEach, not beforeAll), so that mutation testing runs each rule's test on
 * the handler it checks (docs/mutation-testing.md, the static trap).
 */

let stack: AuthStack;
let admin: Tokens;

beforeEach(async () => {
  stack = await startAuthStack();
  admin = await stack.login();
});
afterEach(() => stack.close());

const probe = (headers: Record<string, string> = {}) =>
  stack.call<CurrentSession>('GET', '/v1/session', { headers });

describe('GET /v1/session', () => {
  it('answers 200 "not authenticated" to a caller with no credentials, with no challenge', async () => {
    const res = await probe();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(res.body).toEqual({ authenticated: false });
  });

  it("summarises the access token's session: account, session id and when it ends", async () => {
    const res = await probe(admin.bearer);
    expect(res.status).toBe(200);
    const sessions = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions', { headers: admin.bearer });
    const own = sessions.body.find((s) => s.sessionId === admin.sessionId);
    expect(res.body).toEqual({
      authenticated: true,
      account: expect.objectContaining({ username: 'admin', role: 'admin', workspaces: 'all' }),
      sessionId: admin.sessionId,
      apiKeyId: null,
      expiresAt: own?.expiresAt,
    });
    expect(Date.parse((res.body as { expiresAt: string }).expiresAt)).toBeGreaterThan(stack.clock.now());
  });

  it('tells two sessions apart', async () => {
    const other = await stack.login();
    const res = await probe(other.bearer);
    expect(res.body).toMatchObject({ authenticated: true, sessionId: other.sessionId });
    expect(other.sessionId).not.toBe(admin.sessionId);
  });

  it('names the API key, and no session, when a key calls', async () => {
    const created = await stack.call<CreatedApiKey>('POST', '/v1/auth/api-keys', {
      headers: admin.bearer,
      body: { name: 'probe script', expiresInDays: 7 },
    });
    expect(created.status).toBe(201);
    const res = await probe({ 'x-api-key': created.body.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      authenticated: true,
      account: { username: 'admin' },
      sessionId: null,
      apiKeyId: created.body.apiKey.apiKeyId,
      expiresAt: created.body.apiKey.expiresAt,
    });
  });

  it('answers "not authenticated", not 401, for credentials that do not work', async () => {
    const basic = `Basic ${Buffer.from(`admin:${TEST_ADMIN_PASSWORD}`).toString('base64')}`;
    const [h, p] = admin.accessToken.split('.');
    const forged = `${h}.${p}.${'A'.repeat(43)}`;
    const bad: Record<string, string>[] = [
      { authorization: 'Bearer not-a-jwt' },
      { authorization: basic },
      { authorization: `Bearer ${forged}` },
      { 'x-api-key': 'skiff_unknown_key' },
      { ...admin.bearer, 'x-api-key': 'skiff_unknown_key' },
    ];
    for (const headers of bad) {
      const res = await probe(headers);
      expect({ headers, status: res.status, body: res.body }).toEqual({
        headers,
        status: 200,
        body: { authenticated: false },
      });
    }
  });

  it('stops naming a session once it is logged out', async () => {
    const leaving = await stack.login();
    expect((await probe(leaving.bearer)).body).toMatchObject({ authenticated: true });
    const out = await stack.call('POST', `/v1/auth/sessions/${leaving.sessionId}/logout`, {
      headers: leaving.bearer,
    });
    expect(out.status).toBe(200);
    expect((await probe(leaving.bearer)).body).toEqual({ authenticated: false });
    // The session that is still logged in is unaffected.
    expect((await probe(admin.bearer)).body).toMatchObject({ authenticated: true });
  });

  it('stops naming a session once its access token has expired', async () => {
    const short = await stack.login();
    stack.clock.advance((short.auth.exp - short.auth.iat + 1) * 1000);
    expect((await probe(short.bearer)).body).toEqual({ authenticated: false });
  });
});
