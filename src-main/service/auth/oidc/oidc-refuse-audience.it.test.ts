/**
 * Refusal: an ID token or code meant for another client. Two ways:
 * - Real provider, nothing tampered: the authorization request's client_id is swapped for another
 *   client registered at the same provider (same redirect URI), so the provider issues the code to
 *   that client; Skiff's token request, authenticated as skiff, is refused by the provider.
 * - TAMPERED: the real provider never signs an ID token for one client in another's token
 *   response, so the harness rewrites the token endpoint's ID token with `aud` = the other client,
 *   re-signed with the provider's own private key (signature, kid, issuer, nonce all valid).
 * Proves: a code for another client is oidc_code_rejected, an ID token for another audience is
 * oidc_token_invalid, nothing is started either way, and the refusal is logged.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './browser.test-support';
import {
  lastRefusal,
  type OidcStack,
  problemCode,
  signedInSoFar,
  startOidcStack,
} from './oidc-stack.test-support';
import { OTHER_CLIENT_ID } from './provider.test-support';

let stack: OidcStack;

beforeAll(async () => {
  stack = await startOidcStack();
});
afterEach(() => {
  stack.op.tamperIdToken(undefined);
});
afterAll(async () => {
  await stack?.close();
});

describe('another audience', () => {
  it('an ID token for another client, signed by the provider key, is refused with oidc_token_invalid', async () => {
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    stack.op.tamperIdToken((claims) => ({ ...claims, aud: OTHER_CLIENT_ID }));
    const refused = await stack.callback(browser, back);
    expect(refused.status).toBe(401);
    expect(problemCode(refused)).toBe('oidc_token_invalid');
    expect(lastRefusal(stack)).toMatchObject({ code: 'oidc_token_invalid', check: 'code_grant' });
    const after = await signedInSoFar(stack);
    expect(after.oidcAccounts).toEqual(before.oidcAccounts);
    expect(after.sessions).toBe(before.sessions);
  });

  it('an ID token for skiff and another client at once (aud array, azp the other) is refused', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    stack.op.tamperIdToken((claims) => ({
      ...claims,
      aud: [OTHER_CLIENT_ID, String(claims.aud)],
      azp: OTHER_CLIENT_ID,
    }));
    const refused = await stack.callback(browser, back);
    expect(problemCode(refused)).toBe('oidc_token_invalid');
  });

  it('a code the provider issued to another client is refused by the provider: oidc_code_rejected', async () => {
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, {
      login: 'alice',
      onAuthorize(url) {
        url.searchParams.set('client_id', OTHER_CLIENT_ID);
        return url;
      },
    });
    const refused = await stack.callback(browser, back);
    expect(refused.status).toBe(400);
    expect(problemCode(refused)).toBe('oidc_code_rejected');
    expect(stack.op.grantErrors.at(-1)).toMatch(/invalid_grant/);
    expect((await signedInSoFar(stack)).oidcAccounts).toEqual(before.oidcAccounts);
  });

  it('untampered, the same sign-in is accepted', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    expect((await stack.callback(browser, back)).status).toBe(302);
  });
});
