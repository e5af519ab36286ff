/**
 * Refusal: a callback whose `state` is not the one this browser's sign-in started with. Real
 * provider, nothing tampered: the browser signs in at the provider, and the callback it is sent
 * back with is altered (another state) or delivered by another browser (no skiff_oidc cookie).
 * Proves: 400 oidc_state_mismatch (302 /?oidc_error= for a navigation), nothing started, the
 * refusal logged with the state check; and that the refusal was the state's alone, since the
 * untouched callback still signs the user in afterwards (the code was never spent).
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

function withState(callback: URL, state: string): URL {
  const url = new URL(callback);
  url.searchParams.set('state', state);
  return url;
}

describe('a callback with the wrong state', () => {
  it('is refused with oidc_state_mismatch, starts nothing, and leaves the genuine callback working', async () => {
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    const forged = withState(back, 'not-the-state-this-browser-started-with');

    const refused = await stack.callback(browser, forged);
    expect(refused.status).toBe(400);
    expect(problemCode(refused)).toBe('oidc_state_mismatch');
    expect(lastRefusal(stack)).toMatchObject({ code: 'oidc_state_mismatch', check: 'state:unknown' });
    const after = await signedInSoFar(stack);
    expect(after.oidcAccounts).toEqual(before.oidcAccounts);
    expect(after.sessions).toBe(before.sessions);

    // The code was not spent: the callback as the provider sent it still signs alice in.
    const genuine = await stack.callback(browser, back, { navigate: true });
    expect(genuine.status).toBe(302);
    expect(genuine.headers.get('location')).toMatch(/[?&]oidc_code=/);
    expect((await signedInSoFar(stack)).oidcAccounts).toContain('alice@example.com');
  });

  it('a navigation is sent back to the login page with ?oidc_error=oidc_state_mismatch', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'bob' });
    const refused = await stack.callback(browser, withState(back, 'forged'), { navigate: true });
    expect(refused.status).toBe(302);
    expect(oidcErrorOf(refused)).toBe('oidc_state_mismatch');
    expect(new URL(refused.headers.get('location') ?? '', stack.url).pathname).toBe('/');
  });

  it('the right state from another browser (no skiff_oidc cookie) is refused, and spends the state', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'bob' });
    const before = await signedInSoFar(stack);
    const elsewhere = new TestBrowser();
    const refused = await stack.callback(elsewhere, back);
    expect(refused.status).toBe(400);
    expect(problemCode(refused)).toBe('oidc_state_mismatch');
    expect(lastRefusal(stack)).toMatchObject({ check: 'state:other_browser' });
    // Whoever holds a state without its cookie is not the user: the state is gone for both.
    const original = await stack.callback(browser, back);
    expect(problemCode(original)).toBe('oidc_state_mismatch');
    expect((await signedInSoFar(stack)).sessions).toBe(before.sessions);
  });

  it('a callback without any state is refused the same way', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'bob' });
    const stripped = new URL(back);
    stripped.searchParams.delete('state');
    const refused = await stack.callback(browser, stripped);
    expect(problemCode(refused)).toBe('oidc_state_mismatch');
  });
});
