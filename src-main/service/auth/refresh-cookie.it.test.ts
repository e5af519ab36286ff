/**
 * The browser's refresh token as a cookie, over real HTTP: its attributes, a refresh from it (a
 * reload), rotation and reuse detection through it, the logout that clears it, and the requests
 * from other sites it never serves. Clock-driven where time matters; no wall-clock bound.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CurrentSession, SessionRecord } from '../../../src-shared/contract/auth-models';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { REFRESH_COOKIE } from './refresh-cookie';
import { type Answer, type AuthStack, CHROME_WINDOWS, startAuthStack } from './stack.test-support';

interface Pair {
  accessToken: string;
  refreshToken?: string;
  sessionId?: string;
  auth: { sid: string; exp: number };
}

let stack: AuthStack;
afterEach(() => stack?.close());

const DAY_S = 24 * 3600;

/** The one Set-Cookie of an answer, split into its value and attributes (names lower-cased). */
function setCookie(res: Answer) {
  const raw = res.headers['set-cookie'];
  expect(raw, 'one Set-Cookie').toHaveLength(1);
  const [pair, ...attrs] = (raw as string[])[0]!.split(';').map((p) => p.trim());
  const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
  const attributes = Object.fromEntries(
    attrs.map((a) => {
      const at = a.indexOf('=');
      return at < 0 ? [a.toLowerCase(), true] : [a.slice(0, at).toLowerCase(), a.slice(at + 1)];
    }),
  ) as Record<string, string | true>;
  return { name, value, attributes };
}

async function cookieLogin(headers: Record<string, string> = {}) {
  const res = await stack.call<Pair>('POST', '/v1/auth/login', {
    body: { username: 'admin', password: TEST_ADMIN_PASSWORD, refreshTokenIn: 'cookie' },
    headers: { 'user-agent': CHROME_WINDOWS, ...headers },
  });
  expect(res.status).toBe(200);
  return { res, cookie: setCookie(res) };
}

/** A page load's refresh: no body, only the cookie the browser holds, as the browser sends it. */
const refreshWith = (token: string | null, headers: Record<string, string> = {}) =>
  stack.call<Pair>('POST', '/v1/auth/refresh', {
    headers: {
      'content-type': 'application/json',
      'user-agent': CHROME_WINDOWS,
      ...(token === null ? {} : { cookie: `other=1; ${REFRESH_COOKIE}=${token}` }),
      ...headers,
    },
  });

const bearer = (p: Pair) => ({ authorization: `Bearer ${p.accessToken}` });

describe('a login that asks for the cookie', () => {
  it('sets it HttpOnly, SameSite=Strict, for the refresh path only, as long as the session idles; the body has no refresh token', async () => {
    stack = await startAuthStack();
    const { res, cookie } = await cookieLogin();
    expect(Object.keys(res.body).sort()).toEqual(['accessToken', 'auth', 'sessionId']);
    expect(cookie.name).toBe(REFRESH_COOKIE);
    expect(cookie.value).toMatch(/^skiff_rt_[\w-]{43}$/);
    expect(cookie.attributes).toEqual({
      httponly: true,
      samesite: 'Strict',
      path: '/v1/auth/refresh',
      'max-age': String(14 * DAY_S),
    });
    // Its lifetime is the session's idle limit, as the session list shows it.
    const sessions = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions', {
      headers: bearer(res.body),
    });
    const expiresAt = Date.parse(sessions.body[0]!.expiresAt);
    expect(Number(cookie.attributes['max-age'])).toBe(Math.floor((expiresAt - stack.clock.now()) / 1000));
  });

  it('is Secure when the client came over https (a trusted proxy says so), and only then', async () => {
    stack = await startAuthStack({ auth: { trustProxy: ['127.0.0.1'] } });
    const secure = await cookieLogin({ 'x-forwarded-proto': 'https' });
    expect(secure.cookie.attributes.secure).toBe(true);
    const plain = await cookieLogin({ 'x-forwarded-proto': 'http' });
    expect(plain.cookie.attributes.secure).toBeUndefined();
  });

  it('a login without it answers the refresh token in the body and sets no cookie', async () => {
    stack = await startAuthStack();
    const res = await stack.call<Pair>('POST', '/v1/auth/login', {
      body: { username: 'admin', password: TEST_ADMIN_PASSWORD, refreshTokenIn: 'body' },
    });
    expect(res.body.refreshToken).toMatch(/^skiff_rt_/);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('a refresh from the cookie (a reload, a new tab)', () => {
  it('continues the same session: a new access token, the cookie rotated, no token in the body, no new session', async () => {
    stack = await startAuthStack();
    const { res: login, cookie } = await cookieLogin();
    stack.clock.advance(60_000);
    const res = await refreshWith(cookie.value);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['accessToken', 'auth']);
    expect(res.body.auth.sid).toBe(login.body.sessionId);
    const next = setCookie(res);
    expect(next.value).toMatch(/^skiff_rt_/);
    expect(next.value).not.toBe(cookie.value);
    expect(next.attributes).toMatchObject({ httponly: true, samesite: 'Strict', path: '/v1/auth/refresh' });

    const probe = await stack.call<CurrentSession>('GET', '/v1/session', { headers: bearer(res.body) });
    expect(probe.body).toMatchObject({ authenticated: true, sessionId: login.body.sessionId });
    const sessions = await stack.call<SessionRecord[]>('GET', '/v1/auth/sessions', {
      headers: bearer(res.body),
    });
    expect(sessions.body.map((s) => s.sessionId)).toEqual([login.body.sessionId]);
    expect(sessions.body[0]).toMatchObject({ clientType: 'browser', browser: { name: 'Chrome' } });
  });

  it('keeps reuse detection: a rotated cookie sent again past the overlap ends the session and clears the cookie', async () => {
    stack = await startAuthStack();
    const { cookie } = await cookieLogin();
    const second = setCookie(await refreshWith(cookie.value));
    // Within the overlap window the previous cookie gets the very same pair (two tabs at once).
    const retry = await refreshWith(cookie.value);
    expect(retry.status).toBe(200);
    expect(setCookie(retry).value).toBe(second.value);

    stack.clock.advance(11_000);
    const reuse = await refreshWith(cookie.value);
    expect(reuse.status).toBe(401);
    expect(reuse.body).toMatchObject({ code: 'refresh_token_reused' });
    expect(reuse.headers['www-authenticate']).toMatch(/^Bearer realm="skiff", error="invalid_token"/);
    const cleared = setCookie(reuse);
    expect(cleared).toMatchObject({ name: REFRESH_COOKIE, value: '' });
    expect(cleared.attributes).toMatchObject({ 'max-age': '0', path: '/v1/auth/refresh', httponly: true });
    // The whole family is dead, the latest cookie included.
    const latest = await refreshWith(second.value);
    expect(latest.status).toBe(401);
    expect(latest.body).toMatchObject({ code: 'invalid_grant' });
    expect(setCookie(latest).attributes['max-age']).toBe('0');
  });

  it('answers 401 invalid_grant with no cookie at all, and sets none', async () => {
    stack = await startAuthStack();
    const res = await refreshWith(null);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'invalid_grant' });
    expect((res.body as unknown as { detail: string }).detail).toContain(REFRESH_COOKIE);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('keeps the cookie when refused for a rate limit: its token is still good', async () => {
    stack = await startAuthStack({
      auth: { rateLimits: { refreshPerAddress: { limit: 1, windowMs: 60_000 } } },
    });
    const { cookie } = await cookieLogin();
    const next = setCookie(await refreshWith(cookie.value));
    const limited = await refreshWith(next.value);
    expect(limited.status).toBe(429);
    expect(limited.headers['set-cookie']).toBeUndefined();
    stack.clock.advance(61_000);
    expect((await refreshWith(next.value)).status).toBe(200);
  });

  it('a token in the body is answered in the body, whatever cookie came with it', async () => {
    stack = await startAuthStack();
    const { cookie } = await cookieLogin();
    const script = await stack.login();
    const res = await stack.call<Pair>('POST', '/v1/auth/refresh', {
      body: { refreshToken: script.refreshToken },
      headers: { cookie: `${REFRESH_COOKIE}=${cookie.value}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.refreshToken).toMatch(/^skiff_rt_/);
    expect(res.body.auth.sid).toBe(script.sessionId);
    expect(res.headers['set-cookie']).toBeUndefined();
    // The cookie's token was not touched.
    expect((await refreshWith(cookie.value)).status).toBe(200);
  });
});

describe('the logout', () => {
  it('of the caller’s own session clears the cookie; ending another session leaves it', async () => {
    stack = await startAuthStack();
    const { res: login, cookie } = await cookieLogin();
    const other = await stack.login();
    const elsewhere = await stack.call('POST', `/v1/auth/sessions/${other.sessionId}/logout`, {
      headers: { ...bearer(login.body), 'content-type': 'application/json' },
    });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers['set-cookie']).toBeUndefined();

    const own = await stack.call('POST', `/v1/auth/sessions/${login.body.sessionId}/logout`, {
      headers: { ...bearer(login.body), 'content-type': 'application/json' },
    });
    expect(own.status).toBe(200);
    const cleared = setCookie(own);
    expect(cleared).toMatchObject({ name: REFRESH_COOKIE, value: '' });
    expect(cleared.attributes).toMatchObject({ 'max-age': '0', path: '/v1/auth/refresh' });
    // A cookie a browser kept anyway is refused, and cleared again.
    const after = await refreshWith(cookie.value);
    expect(after.status).toBe(401);
    expect(setCookie(after).attributes['max-age']).toBe('0');
  });
});

describe('requests from other sites', () => {
  it('are refused before the cookie is read: a foreign Origin, a cross-site fetch, a form post', async () => {
    stack = await startAuthStack();
    const { cookie } = await cookieLogin();
    const foreign = await refreshWith(cookie.value, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 'origin_not_allowed' });
    const crossSite = await refreshWith(cookie.value, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const form = await refreshWith(cookie.value, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    for (const refused of [foreign, crossSite, form]) expect(refused.headers['set-cookie']).toBeUndefined();
    // None of them used the token: the page's own refresh still works with it.
    const own = await refreshWith(cookie.value, { origin: stack.url });
    expect(own.status).toBe(200);
  });
});
