/**
 * An OIDC account belongs to one user at the provider: the issuer and subject (`sub`) of its first
 * sign-in. Real provider, nothing tampered: another provider user whose username claim (default
 * `email`) names the same account — an email changed or reassigned at the provider, or a second
 * user the provider lets set it — must not sign in as it. Proves: the second subject is refused
 * with oidc_account_conflict, starts nothing, and the account still belongs to its first subject;
 * the first user keeps signing in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './browser.test-support';
import {
  adminBearer,
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

describe("a second provider subject with an OIDC account's username", () => {
  it('is refused with oidc_account_conflict and never signs in as the first user', async () => {
    const alice = await stack.signIn('alice');
    expect(alice.accessToken).toBeTruthy();
    // Another user at the same provider whose email claim is alice's.
    stack.op.setUser({
      id: 'mallory',
      email: 'alice@example.com',
      name: 'Mallory',
      groups: ['skiff-admins'],
    });
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'mallory' });
    const refused = await stack.callback(browser, back);
    expect(refused.status).toBe(409);
    expect(problemCode(refused)).toBe('oidc_account_conflict');
    expect(await signedInSoFar(stack)).toEqual(before);
    // Nor did the refused sign-in touch the account (mallory's admin group would make it admin).
    const accounts = await stack.call<{ username: string; role: string; groups?: string[] }[]>(
      'GET',
      '/v1/auth/accounts',
      { headers: await adminBearer(stack) },
    );
    expect(accounts.body.find((a) => a.username === 'alice@example.com')).toMatchObject({
      role: 'member',
      groups: ['shop-devs'],
    });
    const me = await stack.call<{ account: { username: string; role: string } }>('GET', '/v1/auth/me', {
      headers: (await stack.signIn('alice')).bearer,
    });
    expect(me.body.account).toMatchObject({ username: 'alice@example.com', role: 'member' });
  });
});

describe('an email the provider has not verified', () => {
  it('names no account: refused with oidc_token_invalid, nothing started', async () => {
    stack.op.setUser({
      id: 'eve',
      email: 'carol@example.com',
      emailVerified: false,
      name: 'Eve',
      groups: [],
    });
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const refused = await stack.callback(browser, await stack.toCallback(browser, { login: 'eve' }));
    expect(refused.status).toBe(401);
    expect(problemCode(refused)).toBe('oidc_token_invalid');
    expect(await signedInSoFar(stack)).toEqual(before);
  });
});
