/**
 * The one-time code works only in the browser that signed in. Real provider, nothing tampered.
 * Login CSRF: an attacker signs in with their own provider account, stops before their page
 * exchanges the code, and sends the victim `https://skiff/?oidc_code=THEIRS`; the page exchanges
 * any code in its address on load, so without the binding the victim would be signed in as the
 * attacker. Proves: the code exchanged by another browser (or with no cookie) is 401 invalid_grant
 * and spent; the same sign-in exchanged by its own browser succeeds (the control); the cookie the
 * callback leaves is HttpOnly, SameSite=Lax, sent only under /v1/auth/oidc and lives the code's 60 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './browser.test-support';
import { type OidcStack, problemCode, startOidcStack } from './oidc-stack.test-support';

let stack: OidcStack;

beforeAll(async () => {
  stack = await startOidcStack();
});
afterAll(async () => {
  await stack?.close();
});

async function codeOf(browser: TestBrowser, login: string): Promise<{ code: string; setCookie: string }> {
  const back = await stack.toCallback(browser, { login });
  const answer = await stack.callback(browser, back, { navigate: true });
  expect(answer.status).toBe(302);
  const code = new URL(answer.headers.get('location') ?? '', stack.url).searchParams.get('oidc_code');
  expect(code).toBeTruthy();
  return { code: code ?? '', setCookie: answer.headers.get('set-cookie') ?? '' };
}

describe('the one-time code', () => {
  it('is refused in another browser and without the cookie, and spent by the attempt', async () => {
    const attacker = new TestBrowser();
    const { code } = await codeOf(attacker, 'bob');
    const victim = new TestBrowser();
    const refused = await stack.exchange(code, {}, victim);
    expect(refused.status).toBe(401);
    expect(problemCode(refused)).toBe('invalid_grant');
    // Spent: not even its own browser can use it afterwards.
    expect((await stack.exchange(code, {}, attacker)).status).toBe(401);

    const bare = await codeOf(new TestBrowser(), 'bob');
    expect((await stack.exchange(bare.code)).status).toBe(401);
  });

  it("opens in the browser that signed in, whose cookie lives the code's 60 s under /v1/auth/oidc", async () => {
    const browser = new TestBrowser();
    const { code, setCookie } = await codeOf(browser, 'alice');
    expect(setCookie).toMatch(/^skiff_oidc=[\w-]{43};/);
    expect(setCookie).toMatch(/Max-Age=60\b/);
    expect(setCookie).toMatch(/Path=\/v1\/auth\/oidc(;|$)/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const ok = await stack.exchange(code, {}, browser);
    expect(ok.status).toBe(200);
  });
});
