/**
 * Refusal: a sign-in answered in another issuer's name. Two ways:
 * - TAMPERED: the real provider always signs its own issuer, so the harness rewrites the token
 *   endpoint's ID token with `iss` = another issuer, re-signed with the provider's own private key
 *   (signature, kid, audience and nonce all valid).
 * - Real provider, nothing tampered in the provider: the authorization response's `iss` parameter
 *   (RFC 9207, which the provider sends) is changed on the way back, as in a mix-up attack.
 * Proves: both refused before anything starts (oidc_token_invalid for the ID token), the refusal
 * logged naming the issuer.
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
});
afterAll(async () => {
  await stack?.close();
});

describe('another issuer', () => {
  it('an ID token from another issuer, signed by the provider key, is refused with oidc_token_invalid', async () => {
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    stack.op.tamperIdToken((claims) => ({ ...claims, iss: 'https://idp.attacker.example' }));
    const refused = await stack.callback(browser, back);
    expect(refused.status).toBe(401);
    expect(problemCode(refused)).toBe('oidc_token_invalid');
    expect(lastRefusal(stack)).toMatchObject({ code: 'oidc_token_invalid', check: 'code_grant' });
    const after = await signedInSoFar(stack);
    expect(after.oidcAccounts).toEqual(before.oidcAccounts);
    expect(after.sessions).toBe(before.sessions);
  });

  it('an authorization response naming another issuer (RFC 9207 iss) is refused before the code is spent', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    expect(back.searchParams.get('iss')).toBe(stack.op.issuer);
    const grants = stack.op.events.get('grant.success') ?? 0;
    const mixedUp = new URL(back);
    mixedUp.searchParams.set('iss', 'https://idp.attacker.example');
    const refused = await stack.callback(browser, mixedUp);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(problemCode(refused)).toMatch(/^oidc_/);
    expect(String(lastRefusal(stack)?.reason)).toMatch(/iss/);
    expect(stack.op.events.get('grant.success') ?? 0).toBe(grants);
  });

  it('untampered, the same sign-in is accepted', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    expect((await stack.callback(browser, back)).status).toBe(302);
  });
});
