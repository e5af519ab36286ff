/**
 * The sign-in cookie is Secure when the service is published under https (--public-url), even
 * when the request reaches it as http (a TLS ingress without --trust-proxy): otherwise the cookie
 * binding a sign-in to the browser would also travel over plain http. Real provider. Proves: the
 * login's skiff_oidc cookie carries Secure with an https public URL, and not with an http one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type OidcStack, startOidcStack } from './oidc-stack.test-support';

let stack: OidcStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const loginCookie = async (s: OidcStack) => {
  const res = await s.call('GET', '/v1/auth/oidc/login?returnTo=%2F');
  expect(res.status).toBe(302);
  return res.headers.get('set-cookie') ?? '';
};

describe('the skiff_oidc cookie', () => {
  it('is Secure when the public URL is https, though the request came as http', async () => {
    stack = await startOidcStack({ config: { publicUrl: 'https://skiff.example.com' } });
    expect(await loginCookie(stack)).toMatch(/^skiff_oidc=.*;\s*Secure/i);
  });

  it('is not Secure with an http public URL over http', async () => {
    stack = await startOidcStack();
    expect(await loginCookie(stack)).not.toMatch(/;\s*Secure/i);
  });
});
