/**
 * Refusal: an ID token whose nonce is not the one this sign-in sent. Real provider, nothing
 * tampered: the authorization request Skiff built has its nonce replaced before the provider sees
 * it (as an injected or swapped request would), so the provider itself signs an ID token carrying
 * the other nonce; everything else (state, cookie, code, PKCE, signature) is genuine.
 * Proves: 401 oidc_token_invalid, nothing started, the refusal logged as an ID-token check naming
 * the nonce.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './browser.test-support';
import {
  lastRefusal,
  type OidcStack,
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

describe('an ID token with the wrong nonce', () => {
  it('is refused with oidc_token_invalid and starts nothing', async () => {
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    let sent: string | null = null;
    const back = await stack.toCallback(browser, {
      login: 'alice',
      onAuthorize(url) {
        sent = url.searchParams.get('nonce');
        url.searchParams.set('nonce', 'a-nonce-this-sign-in-never-sent');
        return url;
      },
    });
    expect(sent).toBeTruthy();
    const refused = await stack.callback(browser, back);
    expect(refused.status).toBe(401);
    expect(problemCode(refused)).toBe('oidc_token_invalid');
    expect(lastRefusal(stack)).toMatchObject({ code: 'oidc_token_invalid', check: 'code_grant' });
    expect(String(lastRefusal(stack)?.reason)).toMatch(/nonce/);
    const after = await signedInSoFar(stack);
    expect(after.oidcAccounts).toEqual(before.oidcAccounts);
    expect(after.sessions).toBe(before.sessions);
  });

  it('the same sign-in with its nonce untouched is accepted (the refusal was the nonce)', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    const answer = await stack.callback(browser, back);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toMatch(/oidc_code=/);
  });
});
