/**
 * A provider user whose username is already a local account's. Real provider, nothing tampered:
 * the service names OIDC accounts by `preferred_username` (--oidc-username-claim), an administrator
 * made a local account "bob", then bob signs in at the provider, whose claim names the same user. Proves: the sign-in is refused (409
 * oidc_account_conflict) and starts nothing; the local account stays local with its password (an
 * identity provider never takes over a break-glass account); and an OIDC account has no password
 * to log in with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './browser.test-support';
import {
  adminBearer,
  lastRefusal,
  type OidcStack,
  problemCode,
  signedInSoFar,
  startOidcStack,
} from './oidc-stack.test-support';

let stack: OidcStack;

beforeAll(async () => {
  stack = await startOidcStack({ oidc: { usernameClaim: 'preferred_username' } });
});
afterAll(async () => {
  await stack?.close();
});

const passwordLogin = (username: string, password: string) =>
  stack.call<{ code?: string }>('POST', '/v1/auth/login', { body: { username, password } });

describe('a username both local and at the provider', () => {
  it('is refused with oidc_account_conflict, and the local account keeps working with its password', async () => {
    const created = await stack.call('POST', '/v1/auth/accounts', {
      headers: await adminBearer(stack),
      body: { username: 'bob', password: 'bob-local-password-0123', workspaces: ['default'] },
    });
    expect(created.status).toBe(201);
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'bob' });
    const refused = await stack.callback(browser, back);
    expect(refused.status).toBe(409);
    expect(problemCode(refused)).toBe('oidc_account_conflict');
    expect(lastRefusal(stack)).toMatchObject({
      code: 'oidc_account_conflict',
      check: 'account',
      username: 'bob',
    });
    expect(await signedInSoFar(stack)).toEqual(before);
    expect((await passwordLogin('bob', 'bob-local-password-0123')).status).toBe(200);
  });

  it('an OIDC account has no password to log in with', async () => {
    const alice = await stack.signIn('alice');
    const me = await stack.call<{ account: { username: string; source: string } }>('GET', '/v1/auth/me', {
      headers: alice.bearer,
    });
    expect(me.body.account).toMatchObject({ username: 'alice', source: 'oidc' });
    const res = await passwordLogin('alice', 'any-password-at-all-0123');
    expect(res.status).toBe(401);
  });
});
