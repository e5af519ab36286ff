/**
 * The OIDC sign-in as people meet it, against the real provider (provider.test-support.ts): the
 * first sign-in makes a `source: "oidc"` account named by the email claim with the provider's
 * groups; the session is Skiff's own, listed with device and browser; the activity `login` entry
 * names the provider and the groups; the page gets tokens only through a one-time code, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROME_WINDOWS } from '../stack.test-support';
import { signInAtProvider, TestBrowser } from './browser.test-support';
import { type OidcStack, startOidcStack } from './oidc-stack.test-support';
import { ALICE } from './provider.test-support';

let stack: OidcStack;

beforeAll(async () => {
  stack = await startOidcStack();
});
afterAll(async () => {
  await stack?.close();
});

interface Me {
  username: string;
  role: string;
  source: string;
  groups: string[];
}

describe('signing in with the provider', () => {
  it('the login redirects to the provider with PKCE S256, state and nonce, and binds the flow to the browser', async () => {
    const browser = new TestBrowser();
    const page = await browser.request(`${stack.url}/v1/auth/oidc/login?returnTo=%2F`);
    expect(page.status).toBe(302);
    const to = new URL(page.headers.get('location') ?? '');
    expect(to.origin + to.pathname).toBe(`${stack.op.issuer}/auth`);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(to.searchParams.get('state')).toBeTruthy();
    expect(to.searchParams.get('nonce')).toBeTruthy();
    expect(to.searchParams.get('redirect_uri')).toBe(stack.callbackUrl);
    expect(to.searchParams.get('scope')).toBe('openid profile email groups');
    const setCookie = page.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^skiff_oidc=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
  });

  it('a first sign-in creates an oidc account named by the email claim, with the provider groups', async () => {
    const alice = await stack.signIn(ALICE.id, { userAgent: CHROME_WINDOWS });
    const me = await stack.call<{ account: Me }>('GET', '/v1/auth/me', { headers: alice.bearer });
    expect(me.status).toBe(200);
    expect(me.body.account).toMatchObject({
      username: 'alice@example.com',
      role: 'member',
      source: 'oidc',
      groups: ['shop-devs'],
    });
  });

  it('the session is listed like a password one, with device and browser', async () => {
    const alice = await stack.signIn(ALICE.id, { userAgent: CHROME_WINDOWS });
    const sessions = await stack.call<
      { sessionId: string; browser: { name?: string }; os: { name?: string } }[]
    >('GET', '/v1/auth/sessions', { headers: alice.bearer });
    expect(sessions.status).toBe(200);
    const mine = sessions.body.find((s) => s.sessionId === alice.sessionId);
    expect(mine).toBeDefined();
    expect(mine?.browser.name).toBe('Chrome');
    expect(mine?.os.name).toBe('Windows');
  });

  it('the activity login entry names the provider and the groups', async () => {
    const alice = await stack.signIn(ALICE.id);
    const activity = await stack.call<{ type: string; sessionId?: string; detail?: string }[]>(
      'GET',
      '/v1/auth/activity',
      { headers: alice.bearer },
    );
    expect(activity.status).toBe(200);
    const login = activity.body.find((e) => e.type === 'login' && e.sessionId === alice.sessionId);
    expect(login?.detail).toContain('Test IdP');
    expect(login?.detail).toContain(stack.op.issuer);
    expect(login?.detail).toContain('shop-devs');
  });

  it('a member of --oidc-admin-groups is an administrator; the others are members', async () => {
    const carol = await stack.signIn('carol');
    const me = await stack.call<{ account: Me }>('GET', '/v1/auth/me', { headers: carol.bearer });
    expect(me.body.account).toMatchObject({ username: 'carol@example.com', role: 'admin', source: 'oidc' });
    // Two groups: the login entry lists them one by one, comma-separated.
    const activity = await stack.call<{ type: string; sessionId?: string; detail?: string }[]>(
      'GET',
      '/v1/auth/activity',
      { headers: carol.bearer },
    );
    const login = activity.body.find((e) => e.type === 'login' && e.sessionId === carol.sessionId);
    expect(login?.detail).toBe(`signed in with Test IdP (${stack.op.issuer}/); groups: ops, skiff-admins`);
    const accounts = await stack.call<Me[]>('GET', '/v1/auth/accounts', { headers: carol.bearer });
    expect(accounts.status).toBe(200);
    const bob = await stack.signIn('bob');
    const bobMe = await stack.call<{ account: Me }>('GET', '/v1/auth/me', { headers: bob.bearer });
    expect(bobMe.body.account).toMatchObject({ role: 'member', groups: [] });
    expect((await stack.call('GET', '/v1/auth/accounts', { headers: bob.bearer })).status).toBe(403);
  });

  it('the one-time code is single use, and no token is ever in a URL', async () => {
    const browser = new TestBrowser();
    const back = await stack.toCallback(browser, { login: 'bob' });
    const answer = await stack.callback(browser, back, { navigate: true });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '', stack.url);
    expect([...location.searchParams.keys()]).toEqual(['oidc_code']);
    const code = location.searchParams.get('oidc_code') ?? '';
    const first = await stack.exchange(code, {}, browser);
    expect(first.status).toBe(200);
    const tokens = first.body as { accessToken: string; refreshToken: string };
    expect(location.href).not.toContain(tokens.accessToken);
    expect(back.href).not.toContain(tokens.accessToken);
    const again = await stack.exchange(code, {}, browser);
    expect(again.status).toBe(401);
    expect((again.body as { code: string }).code).toBe('invalid_grant');
  });

  it('lands on the returnTo path it started from, and refuses a returnTo that leaves the service', async () => {
    const browser = new TestBrowser();
    const back = await signInAtProvider(
      browser,
      `${stack.url}/v1/auth/oidc/login?returnTo=${encodeURIComponent('/clusters/sim?tab=pods')}`,
      stack.op.issuer,
      stack.callbackUrl,
      { login: 'bob' },
    );
    const answer = await stack.callback(browser, back, { navigate: true });
    const landed = new URL(answer.headers.get('location') ?? '', stack.url);
    expect(landed.pathname).toBe('/clusters/sim');
    expect(landed.searchParams.get('tab')).toBe('pods');
    expect(landed.searchParams.get('oidc_code')).toBeTruthy();
    for (const away of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const res = await stack.call('GET', `/v1/auth/oidc/login?returnTo=${encodeURIComponent(away)}`);
      expect(res.status).toBe(400);
    }
  });
});
