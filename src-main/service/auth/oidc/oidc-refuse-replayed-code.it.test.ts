/**
 * Refusal: a replayed authorization code. Real provider, nothing tampered. A callback that already
 * signed someone in is delivered again (the same browser, another browser, and two copies at the
 * same moment); and the spent code is slipped into a fresh sign-in of the same browser (a new,
 * valid state). Proves: the replay is refused and starts nothing, the provider is not asked to
 * spend the code again when the state is already spent, of two simultaneous deliveries exactly
 * one signs in, and a spent code under a valid state is refused by the provider (invalid_grant)
 * and answered oidc_code_rejected.
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
  stack = await startOidcStack();
});
afterAll(async () => {
  await stack?.close();
});

const codeOf = (answer: { headers: Headers }) =>
  new URL(answer.headers.get('location') ?? '', 'http://x.invalid').searchParams.get('oidc_code');

describe('a replayed authorization code', () => {
  it('the same callback again is refused, in the same browser or another, without asking the provider', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    const first = await stack.callback(browser, back, { navigate: true });
    expect(codeOf(first)).toBeTruthy();
    const before = await signedInSoFar(stack);
    const grants = stack.op.events.get('grant.success') ?? 0;

    const again = await stack.callback(browser, back);
    expect(again.status).toBe(400);
    expect(problemCode(again)).toBe('oidc_state_mismatch');
    const elsewhere = await stack.callback(new TestBrowser(), back);
    expect(problemCode(elsewhere)).toBe('oidc_state_mismatch');

    expect((await signedInSoFar(stack)).sessions).toBe(before.sessions);
    expect(stack.op.events.get('grant.success') ?? 0).toBe(grants);
    expect(stack.op.grantErrors).toEqual([]);
  });

  it('two copies of one callback at the same moment: exactly one signs in', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'bob' });
    const before = await signedInSoFar(stack);
    const answers = await Promise.all([stack.callback(browser, back), stack.callback(browser, back)]);
    const signedIn = answers.filter((a) => a.status === 302 && codeOf(a));
    const refused = answers.filter((a) => a.status === 400);
    expect(signedIn).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(problemCode(refused[0] ?? { status: 0, headers: new Headers(), body: {} })).toBe(
      'oidc_state_mismatch',
    );
    expect((await signedInSoFar(stack)).sessions).toBe(before.sessions + 1);
  });

  it('the spent code under a fresh, valid state is refused by the provider: oidc_code_rejected', async () => {
    const browser = new TestBrowser();
    const spent = await stack.toCallback(browser, { login: 'bob' });
    expect(codeOf(await stack.callback(browser, spent))).toBeTruthy();
    // The same browser starts another sign-in: a valid state and its skiff_oidc cookie.
    const login = await browser.request(`${stack.url}/v1/auth/oidc/login?returnTo=%2F`);
    const state = new URL(login.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const before = await signedInSoFar(stack);
    const replay = new URL(spent);
    replay.searchParams.set('state', state);

    const refused = await stack.callback(browser, replay);
    expect(refused.status).toBe(400);
    expect(problemCode(refused)).toBe('oidc_code_rejected');
    expect(lastRefusal(stack)).toMatchObject({
      code: 'oidc_code_rejected',
      check: 'code_grant',
      failure: 'rejected',
    });
    expect(stack.op.grantErrors.at(-1)).toMatch(/invalid_grant/);
    expect((await signedInSoFar(stack)).sessions).toBe(before.sessions);
  });
});
