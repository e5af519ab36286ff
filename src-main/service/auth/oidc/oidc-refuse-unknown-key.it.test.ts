/**
 * Refusal: an ID token signed with a key the provider's JWKS does not publish. TAMPERED: the real
 * provider only signs with keys it publishes, so two ways are made from its own key material:
 * - the provider's current signing key is hidden from its published JWKS (the provider keeps
 *   signing with it), before Skiff has ever fetched the JWKS;
 * - the genuine ID token is re-signed with a fresh RSA key whose kid the JWKS has never listed.
 * Proves: 401 oidc_token_invalid and nothing started, in both cases; with the key published again
 * the sign-in is accepted.
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

let stack: OidcStack;

beforeAll(async () => {
  stack = await startOidcStack();
});
afterEach(() => {
  stack.op.tamperIdToken(undefined);
  stack.op.hideKeys([]);
});
afterAll(async () => {
  await stack?.close();
});

describe('a key missing from the JWKS', () => {
  it("the provider's signing key hidden from its JWKS: refused with oidc_token_invalid", async () => {
    const before = await signedInSoFar(stack);
    stack.op.hideKeys([stack.op.signingKid()]);
    expect(await stack.op.publishedKids()).toEqual([]);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    const refused = await stack.callback(browser, back);
    expect(refused.status).toBe(401);
    expect(problemCode(refused)).toBe('oidc_token_invalid');
    expect(lastRefusal(stack)).toMatchObject({ code: 'oidc_token_invalid', check: 'code_grant' });
    const after = await signedInSoFar(stack);
    expect(after.oidcAccounts).toEqual(before.oidcAccounts);
    expect(after.sessions).toBe(before.sessions);
  });

  it('a token re-signed with a key the JWKS never listed: refused with oidc_token_invalid', async () => {
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    stack.op.tamperIdToken((claims) => claims, { alg: 'unpublished' });
    const refused = await stack.callback(browser, back);
    expect(problemCode(refused)).toBe('oidc_token_invalid');
    expect((await signedInSoFar(stack)).sessions).toBe(before.sessions);
  });

  it('with the key published, the same sign-in is accepted', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    expect((await stack.callback(browser, back)).status).toBe(302);
  });
});
