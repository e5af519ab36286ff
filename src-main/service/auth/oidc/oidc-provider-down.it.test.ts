/**
 * The provider down. Real provider, its port closed (`down()`: connections refused) and opened
 * again on the same issuer (`up()`). Proves: GET /v1/auth/methods says it is unavailable, and why;
 * the login sends a browser back to the login page with oidc_unavailable (a script gets 503
 * problem+json), a callback whose token request cannot reach the provider is oidc_unavailable
 * and starts nothing; the local administrator still signs in with a password; a service started
 * while the provider is down starts anyway; and once the provider is back, people sign in again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './browser.test-support';
import {
  adminBearer,
  type OidcStack,
  oidcErrorOf,
  problemCode,
  signedInSoFar,
  startOidcStack,
  waitUntil,
} from './oidc-stack.test-support';

interface Methods {
  password: boolean;
  oidc: { name: string; loginPath: string; available: boolean; detail?: string } | null;
}

const stacks: OidcStack[] = [];
afterAll(async () => {
  await Promise.all(stacks.map((s) => s.close()));
});

const methods = async (stack: OidcStack) => (await stack.call<Methods>('GET', '/v1/auth/methods')).body;
const available = (stack: OidcStack, want: boolean) =>
  waitUntil(async () => (await methods(stack)).oidc?.available === want, `available: ${want}`);

describe('with the provider down', () => {
  it('says so, refuses the login clearly, and the local administrator still signs in', async () => {
    const stack = await startOidcStack();
    stacks.push(stack);
    await available(stack, true);
    await stack.op.down();
    await available(stack, false);
    const said = await methods(stack);
    expect(said).toMatchObject({ password: true, oidc: { name: 'Test IdP', available: false } });
    expect(said.oidc?.detail).toBeTruthy();

    const navigation = await new TestBrowser().request(`${stack.url}/v1/auth/oidc/login?returnTo=%2F`, {
      headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' },
    });
    expect(navigation.status).toBe(302);
    expect(oidcErrorOf({ status: 302, headers: navigation.headers, body: '' })).toBe('oidc_unavailable');
    const script = await stack.call('GET', '/v1/auth/oidc/login?returnTo=%2F');
    expect(script.status).toBe(503);
    expect(problemCode(script)).toBe('oidc_unavailable');

    expect(Object.keys(await adminBearer(stack))).toEqual(['authorization']);

    await stack.op.up();
    await available(stack, true);
    const alice = await stack.signIn('alice');
    expect((await stack.call('GET', '/v1/auth/me', { headers: alice.bearer })).status).toBe(200);
  });

  it('a callback whose code cannot be traded (provider gone meanwhile) is oidc_unavailable and starts nothing', async () => {
    const stack = await startOidcStack();
    stacks.push(stack);
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'alice' });
    const before = await signedInSoFar(stack);
    await stack.op.down();
    try {
      const refused = await stack.callback(browser, back);
      expect(refused.status).toBe(503);
      expect(problemCode(refused)).toBe('oidc_unavailable');
      expect(await signedInSoFar(stack)).toEqual(before);
    } finally {
      await stack.op.up();
    }
  });

  it('a service started while the provider is down starts, lets the administrator in, and signs people in once it is up', async () => {
    const stack = await startOidcStack({ providerDown: true });
    stacks.push(stack);
    expect((await methods(stack)).oidc?.available).toBe(false);
    expect(Object.keys(await adminBearer(stack))).toEqual(['authorization']);
    await stack.op.up();
    await available(stack, true);
    const bob = await stack.signIn('bob');
    expect((await stack.call('GET', '/v1/auth/me', { headers: bob.bearer })).status).toBe(200);
  });
});
