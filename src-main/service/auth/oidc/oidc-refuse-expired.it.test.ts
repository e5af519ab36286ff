/**
 * Refusal: an expired ID token. Real provider, nothing tampered: the provider is configured to
 * issue ID tokens that live 60 s (its ttl.IdToken option), and the service's clock is moved 5
 * minutes on between the redirect to the provider and the callback (within the 10-minute flow, so
 * only the token has expired). The provider's own clock is untouched.
 * Proves: 401 oidc_token_invalid, nothing started, the logged reason names the expiry; the same
 * sign-in without the clock moved is accepted.
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
  stack = await startOidcStack({ provider: { ttl: { IdToken: 60 } } });
});
afterAll(async () => {
  await stack?.close();
});

describe('an expired ID token', () => {
  it('a token valid for 60 s, received 5 minutes later on the service clock, is refused', async () => {
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    stack.clock.advance(5 * 60_000);
    const refused = await stack.callback(browser, back).finally(() => {
      stack.clock.t = Date.now();
    });
    expect(refused.status).toBe(401);
    expect(problemCode(refused)).toBe('oidc_token_invalid');
    expect(lastRefusal(stack)).toMatchObject({ code: 'oidc_token_invalid', check: 'code_grant' });
    expect(String(lastRefusal(stack)?.reason)).toMatch(/exp/);
    const after = await signedInSoFar(stack);
    expect(after.oidcAccounts).toEqual(before.oidcAccounts);
    expect(after.sessions).toBe(before.sessions);
  });

  it('the same 60 s token received at once is accepted (the refusal was the expiry)', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    const answer = await stack.callback(browser, back);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toMatch(/oidc_code=/);
  });
});
