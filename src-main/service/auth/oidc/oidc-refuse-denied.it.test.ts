/**
 * Refusal by the provider itself: the user clicks Cancel on the provider's real login page, and the
 * provider sends the browser back with `error=access_denied` (nothing tampered). Proves: 403
 * oidc_denied for a script, a navigation back to the login page with ?oidc_error=oidc_denied,
 * nothing started, the provider's words kept in the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './browser.test-support';
import {
  lastRefusal,
  type OidcStack,
  oidcErrorOf,
  problemCode,
  signedInSoFar,
  startOidcStack,
} from './oidc-stack.test-support';

let stack: OidcStack;

beforeAll(async () => {
  stack = await startOidcStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('the user cancels at the provider', () => {
  it('is answered oidc_denied and starts nothing', async () => {
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice', cancel: true });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
    const refused = await stack.callback(browser, back);
    expect(refused.status).toBe(403);
    expect(problemCode(refused)).toBe('oidc_denied');
    expect(String(lastRefusal(stack)?.reason)).toContain('access_denied');
    expect(await signedInSoFar(stack)).toEqual(before);
  });

  it('a navigation goes back to the login page with ?oidc_error=oidc_denied', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice', cancel: true });
    const refused = await stack.callback(browser, back, { navigate: true });
    expect(refused.status).toBe(302);
    expect(oidcErrorOf(refused)).toBe('oidc_denied');
  });
});
