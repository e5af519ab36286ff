/**
 * returnTo never sends the browser to another host, as a URL parser resolves it. The contract's
 * pattern refuses `//host` and `/\host` as text, but dot segments resolve to them: `/.//evil`
 * becomes `//evil`, which the callback's redirect sent the browser to, with the one-time code.
 * Real provider, nothing tampered. Proves: each such returnTo is refused at the login (400
 * invalid_query) and starts no flow; an ordinary path with a dot segment still lands here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtProvider, TestBrowser } from './browser.test-support';
import { type OidcStack, problemCode, startOidcStack } from './oidc-stack.test-support';

let stack: OidcStack;

beforeAll(async () => {
  stack = await startOidcStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('a returnTo with dot segments', () => {
  it('that resolves to another host is refused at the login', async () => {
    for (const away of [
      '/.//evil.example/x',
      '/a/..//evil.example',
      '/%2e//evil.example',
      '/./\\evil.example',
    ]) {
      const res = await stack.call('GET', `/v1/auth/oidc/login?returnTo=${encodeURIComponent(away)}`);
      expect([away, res.status, problemCode(res)]).toEqual([away, 400, 'invalid_query']);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('that stays here lands here', async () => {
    const browser = new TestBrowser();
    const back = await signInAtProvider(
      browser,
      `${stack.url}/v1/auth/oidc/login?returnTo=${encodeURIComponent('/a/../clusters')}`,
      stack.op.issuer,
      stack.callbackUrl,
      { login: 'bob' },
    );
    const answer = await stack.callback(browser, back, { navigate: true });
    const landed = new URL(answer.headers.get('location') ?? '', stack.url);
    expect(landed.origin).toBe(stack.url);
    expect(landed.pathname).toBe('/clusters');
  });
});
