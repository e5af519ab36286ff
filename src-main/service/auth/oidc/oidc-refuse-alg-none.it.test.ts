/**
 * Refusal: an unsigned ID token (`alg: none`). TAMPERED, necessarily: oidc-provider 9 cannot issue
 * one (its discovery publishes no `none`, as the first test shows), so the harness rewrites the
 * token endpoint's genuine ID token into an unsecured JWT with the same claims (issuer, audience,
 * nonce, expiry all valid). The token response still comes over the back channel from the real
 * provider's token endpoint, which is the one place Skiff reads ID tokens from.
 * Proves: 401 oidc_token_invalid and nothing started: the signature is required, whatever
 * travels with it.
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

describe('an unsigned ID token', () => {
  it('the provider never offers alg none', async () => {
    const res = await fetch(`${stack.op.issuer}/.well-known/openid-configuration`);
    const meta = (await res.json()) as { id_token_signing_alg_values_supported: string[] };
    expect(meta.id_token_signing_alg_values_supported).not.toContain('none');
  });

  it('alg none with otherwise valid claims is refused with oidc_token_invalid', async () => {
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    stack.op.tamperIdToken((claims) => claims, { alg: 'none' });
    const refused = await stack.callback(browser, back);
    expect(refused.status).toBe(401);
    expect(problemCode(refused)).toBe('oidc_token_invalid');
    expect(lastRefusal(stack)).toMatchObject({ code: 'oidc_token_invalid', check: 'code_grant' });
    const after = await signedInSoFar(stack);
    expect(after.oidcAccounts).toEqual(before.oidcAccounts);
    expect(after.sessions).toBe(before.sessions);
  });

  it('the same claims re-signed with the provider key are accepted (the refusal was the missing signature)', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    stack.op.tamperIdToken((claims) => claims, { alg: 'provider' });
    const answer = await stack.callback(browser, back);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toMatch(/oidc_code=/);
  });
});
