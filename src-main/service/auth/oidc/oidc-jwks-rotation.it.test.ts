/**
 * A key rotation at the provider is followed. Real provider, nothing tampered: Skiff signs alice
 * in (and so holds the provider's JWKS with key 1); the provider then rotates to a new key and
 * retires key 1 at once (the abrupt case; and, separately, the graceful one where the old key
 * stays published). The next sign-in's ID token is signed with a kid Skiff has never seen.
 * Proves: that sign-in is accepted (the unknown kid makes Skiff fetch the JWKS again), with no
 * wait, and tokens signed with the retired key are not accepted after it is gone (unknown-key
 * refusal, see oidc-refuse-unknown-key).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './browser.test-support';
import { type OidcStack, startOidcStack } from './oidc-stack.test-support';

let stack: OidcStack;

beforeAll(async () => {
  stack = await startOidcStack();
});
afterAll(async () => {
  await stack?.close();
});

async function signsIn(login: string): Promise<{ status: number; location: string | null; body: unknown }> {
  const browser = new TestBrowser();
  const back = await stack.toCallback(browser, { login });
  const answer = await stack.callback(browser, back);
  return { status: answer.status, location: answer.headers.get('location'), body: answer.body };
}

describe('a JWKS rotation at the provider', () => {
  it('abrupt: the old key retired at once, the next sign-in (new kid) is accepted', async () => {
    expect((await signsIn('alice')).status).toBe(302);
    const old = stack.op.signingKid();
    await stack.op.rotateKeys();
    expect(await stack.op.publishedKids()).not.toContain(old);
    const next = await signsIn('bob');
    expect(next).toMatchObject({ status: 302 });
    expect(next.location).toMatch(/oidc_code=/);
  });

  it('graceful: the new key published beside the old one and signing at once, accepted', async () => {
    expect((await signsIn('alice')).status).toBe(302);
    await stack.op.rotateKeys({ keepOld: true });
    const next = await signsIn('carol');
    expect(next).toMatchObject({ status: 302 });
  });
});
