/**
 * An OIDC account belongs to one user at the provider: the issuer and subject (`sub`) of its first
 * sign-in. Real provider, nothing tampered: another provider user whose username claim (default
 * `email`) names the same account — an email changed or reassigned at the provider, or a second
 * user the provider lets set it — must not sign in as it. Proves: the second subject is refused
 * with oidc_account_conflict, starts nothing, and the account still belongs to its first subject;
 * the first user keeps signing in; when two first sign-ins of one name race, the link written first
 * wins and the other is refused the same way (the race is staged by writing the competing link at
 * the moment this sign-in seals its refresh token, between its check and its own write).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './browser.test-support';
import { loadLink, saveLink, TokenSeal } from './links';
import {
  adminBearer,
  lastRefusal,
  type OidcStack,
  problemCode,
  signedInSoFar,
  startOidcStack,
} from './oidc-stack.test-support';
import { SignIn } from './signin';

let stack: OidcStack;
const detailOf = (answer: { body: unknown }) => (answer.body as { detail?: string }).detail;

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
    expect(detailOf(refused)).toBe(
      'the account "alice@example.com" belongs to another user of the identity provider (another subject)',
    );
    expect(lastRefusal(stack)).toMatchObject({
      code: 'oidc_account_conflict',
      check: 'subject',
      username: 'alice@example.com',
    });
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
    expect(detailOf(refused)).toBe("the ID token's email is not verified (email_verified false)");
    expect(lastRefusal(stack)).toMatchObject({ code: 'oidc_token_invalid', check: 'username_claim' });
    expect(await signedInSoFar(stack)).toEqual(before);
  });
});

describe('two first sign-ins of one username by different subjects at once', () => {
  it('the link written first wins: the other is refused as another subject and starts nothing', async () => {
    stack.op.setUser({ id: 'dave', email: 'dave@example.com', name: 'Dave', groups: [] });
    const oidc = (await stack.service.auth.oidc())!;
    const core = await stack.service.auth.core();
    // Another sign-in (another replica's) writes its link for the account after this one found
    // none and before this one writes its own: sealing the refresh token is that moment.
    let competitor: Promise<boolean> | undefined;
    class RacingSeal extends TokenSeal {
      override seal(accountId: string, token: string): string {
        competitor ??= saveLink(core.backend, {
          accountId,
          issuer: `${stack.op.issuer}/`,
          subject: 'someone-else',
          refreshToken: null,
          checkedAt: stack.clock.now(),
          nextCheckAt: stack.clock.now() + 60_000,
        });
        return super.seal(accountId, token);
      }
    }
    const racing = new SignIn(
      core,
      // biome-ignore lint/complexity/useLiteralKeys: private; this sign-in talks to the service's own provider client
      oidc.signIn['rp'],
      new RacingSeal('a-test-secret-of-at-least-32-bytes!!'),
    );
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'dave' });
    const before = await signedInSoFar(stack);
    const refused = racing.finish(
      Object.fromEntries(back.searchParams),
      browser.cookie(stack.callbackUrl, 'skiff_oidc'),
      await core.describe({ address: '127.0.0.1', userAgent: 'vitest' }),
    );
    await expect(refused).rejects.toMatchObject({
      code: 'oidc_account_conflict',
      message:
        'the account "dave@example.com" belongs to another user of the identity provider (another subject)',
    });
    expect(await competitor).toBe(true);
    expect(lastRefusal(stack)).toMatchObject({ check: 'subject', username: 'dave@example.com' });
    // The account is the one the other sign-in is creating: it keeps that subject, no session here.
    expect((await signedInSoFar(stack)).sessions).toBe(before.sessions);
    const dave = core.accounts.byUsername('dave@example.com')!;
    expect(await loadLink(core.backend, dave.accountId)).toMatchObject({ subject: 'someone-else' });
  });
});
