/**
 * The sign-in's own checks (signin.ts finish), each answered with words a person can act on, over
 * real HTTP against the real provider (nothing tampered): a callback without state, a sign-in
 * finished after its 10 minutes (the service clock moved), a provider error with its description,
 * an ID token without the configured username claim; and the activity entry of a user the
 * provider gives no groups. Every refusal starts nothing and is logged with the check that failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './browser.test-support';
import { lastRefusal, type OidcStack, signedInSoFar, startOidcStack } from './oidc-stack.test-support';
import { BOB } from './provider.test-support';

let stack: OidcStack;
let nickname: OidcStack;

beforeAll(async () => {
  stack = await startOidcStack();
  // A claim the test provider never sends: every sign-in lacks it.
  nickname = await startOidcStack({ oidc: { usernameClaim: 'nickname' } });
});
afterAll(async () => {
  await stack?.close();
  await nickname?.close();
});

const detailOf = (answer: { body: unknown }) => (answer.body as { detail?: string }).detail;

describe('the sign-in tells why it refused', () => {
  it('a callback with an empty state: no state', async () => {
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'bob' });
    back.searchParams.set('state', '');
    const refused = await stack.callback(browser, back);
    expect(refused.status).toBe(400);
    expect(detailOf(refused)).toBe('the callback has no state');
    expect(lastRefusal(stack)).toMatchObject({ code: 'oidc_state_mismatch', check: 'state' });
    expect(await signedInSoFar(stack)).toEqual(before);
  });

  it('a sign-in finished after 10 minutes is expired: start again', async () => {
    const before = await signedInSoFar(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'bob' });
    stack.clock.advance(10 * 60_000 + 1);
    const refused = await stack.callback(browser, back);
    expect(refused.status).toBe(400);
    expect(detailOf(refused)).toBe('the sign-in took longer than 10 minutes; start again');
    expect(lastRefusal(stack)).toMatchObject({ code: 'oidc_state_mismatch', check: 'state:expired' });
    expect(await signedInSoFar(stack)).toEqual(before);
  });

  it('a state unknown here, and one from another browser, each say so', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'bob' });
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged');
    expect(detailOf(await stack.callback(browser, forged))).toBe(
      'the sign-in is unknown or was finished already',
    );
    expect(detailOf(await stack.callback(new TestBrowser(), back))).toBe(
      'the sign-in was started in another browser (its skiff_oidc cookie is missing or different)',
    );
  });

  it("the provider's error is passed on with its description", async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice', cancel: true });
    const description = back.searchParams.get('error_description');
    const refused = await stack.callback(browser, back);
    expect(refused.status).toBe(403);
    expect(detailOf(refused)).toBe(
      description
        ? `the identity provider refused the sign-in: access_denied: ${description}`
        : 'the identity provider refused the sign-in: access_denied',
    );
    expect(lastRefusal(stack)).toMatchObject({ code: 'oidc_denied', check: 'provider_error' });
  });

  it('an ID token without the username claim is refused, naming the claim, and starts nothing', async () => {
    const before = await signedInSoFar(nickname);
    const browser = new TestBrowser();
    const back = await nickname.toCallback(browser, { login: 'alice' });
    const refused = await nickname.callback(browser, back);
    expect(refused.status).toBe(401);
    expect(detailOf(refused)).toBe('the ID token has no "nickname" claim to name the account by');
    expect(lastRefusal(nickname)).toMatchObject({ code: 'oidc_token_invalid', check: 'username_claim' });
    expect(await signedInSoFar(nickname)).toEqual(before);
  });
});

describe('a user the provider gives no groups', () => {
  it('signs in, and the activity log says groups: none', async () => {
    const bob = await stack.signIn(BOB.id);
    const activity = await stack.call<{ type: string; sessionId?: string; detail?: string }[]>(
      'GET',
      '/v1/auth/activity',
      { headers: bob.bearer },
    );
    const login = activity.body.find((e) => e.type === 'login' && e.sessionId === bob.sessionId);
    expect(login?.detail).toBe(`signed in with Test IdP (${stack.op.issuer}/); groups: none`);
    const logged = stack.logs.filter((e) => e.msg === 'oidc login').at(-1);
    expect(logged).toMatchObject({ sessionId: bob.sessionId, provider: `${stack.op.issuer}/`, groups: [] });
  });

  it('a one-time code unknown here is refused, saying what a code must be', async () => {
    const refused = await stack.exchange('skiff_oc_not-a-code');
    expect(refused.status).toBe(401);
    expect(detailOf(refused)).toBe(
      'the sign-in code is unknown, used already, expired (60 s), or not from the browser that signed in',
    );
  });
});
