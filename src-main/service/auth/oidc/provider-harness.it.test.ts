/**
 * The test provider on its own, with openid-client as the relying party (no Skiff): proves the
 * harness is a working OpenID Provider (discovery, a login through its real pages yields a code,
 * PKCE token exchange, signed ID token with the user's claims, refresh), and that each of its
 * tamper switches makes a standard relying party refuse for the intended reason. The Skiff
 * refusal tests lean on both.
 */
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtProvider, TestBrowser } from './browser.test-support';
import {
  ALICE,
  OTHER_CLIENT_ID,
  SKIFF_CLIENT_ID,
  SKIFF_CLIENT_SECRET,
  startTestProvider,
  type TestProvider,
} from './provider.test-support';

const REDIRECT = 'http://127.0.0.1:9/v1/auth/oidc/callback';

let op: TestProvider;

beforeAll(async () => {
  op = await startTestProvider({
    clients: [
      { clientId: SKIFF_CLIENT_ID, clientSecret: SKIFF_CLIENT_SECRET, redirectUris: [REDIRECT] },
      { clientId: OTHER_CLIENT_ID, clientSecret: 'other-secret-0123456789', redirectUris: [REDIRECT] },
    ],
  });
});
afterAll(async () => {
  await op.close();
});

async function config(): Promise<oidc.Configuration> {
  const c = await oidc.discovery(new URL(op.issuer), SKIFF_CLIENT_ID, SKIFF_CLIENT_SECRET, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
  oidc.enableNonRepudiationChecks(c);
  return c;
}

async function flow(c: oidc.Configuration, login = ALICE.id) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(c, {
    redirect_uri: REDIRECT,
    scope: 'openid profile email groups',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const callback = await signInAtProvider(new TestBrowser(), url, op.issuer, REDIRECT, { login });
  const grant = () =>
    oidc.authorizationCodeGrant(c, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
  return { callback, grant };
}

describe('the test provider', () => {
  it('publishes discovery with its own issuer, S256 and a JWKS holding its signing key', async () => {
    const c = await config();
    const meta = c.serverMetadata();
    expect(meta.issuer).toBe(op.issuer);
    expect(meta.code_challenge_methods_supported).toContain('S256');
    expect(await op.publishedKids()).toEqual([op.signingKid()]);
  });

  it('signs alice in through its login and consent pages; the code buys a signed ID token with her claims', async () => {
    const c = await config();
    const { callback, grant } = await flow(c);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('iss')).toBe(op.issuer);
    const tokens = await grant();
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: op.issuer,
      aud: SKIFF_CLIENT_ID,
      sub: 'alice',
      email: ALICE.email,
      groups: ['shop-devs'],
    });
    expect(tokens.refresh_token).toBeTruthy();
    const header = JSON.parse(Buffer.from(tokens.id_token?.split('.')[0] ?? '', 'base64url').toString());
    expect(header).toMatchObject({ alg: 'RS256', kid: op.signingKid() });
  });

  it('refuses a code the second time, and then revokes what the first use issued', async () => {
    const c = await config();
    const { grant } = await flow(c, 'bob');
    const tokens = await grant();
    await expect(grant()).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.refreshTokenGrant(c, tokens.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('refreshes with the current groups, and refuses the refresh token once the user is gone', async () => {
    const c = await config();
    const { grant } = await flow(c, 'bob');
    const tokens = await grant();
    const bob = op.users.get('bob');
    if (!bob) throw new Error('no bob');
    op.setUser({ ...bob, groups: ['late-joiners'] });
    try {
      const refreshed = await oidc.refreshTokenGrant(c, tokens.refresh_token ?? '');
      expect(refreshed.claims()).toMatchObject({ sub: 'bob', groups: ['late-joiners'] });
      op.removeUser('bob');
      await expect(oidc.refreshTokenGrant(c, refreshed.refresh_token ?? '')).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    } finally {
      op.setUser(bob);
    }
  });

  it('answers nothing while down and the same issuer once up again', async () => {
    await op.down();
    await expect(fetch(`${op.issuer}/.well-known/openid-configuration`)).rejects.toThrow();
    await op.up();
    const res = await fetch(`${op.issuer}/.well-known/openid-configuration`);
    expect(((await res.json()) as { issuer: string }).issuer).toBe(op.issuer);
  });

  it('rotates keys: the new key signs and is published, the old one is gone unless kept', async () => {
    const before = op.signingKid();
    await op.rotateKeys({ keepOld: true });
    expect(await op.publishedKids()).toEqual([op.signingKid(), before]);
    await op.rotateKeys();
    expect(await op.publishedKids()).toEqual([op.signingKid()]);
    // A fresh relying party follows the rotation: discovery, then the new key verifies.
    const { grant } = await flow(await config());
    expect((await grant()).claims()?.sub).toBe('alice');
  });
});

describe('each tamper switch makes openid-client refuse for its reason', () => {
  const refusal = async (arrange: () => void) => {
    const c = await config();
    const { grant } = await flow(c);
    arrange();
    try {
      return await grant().then(
        () => 'accepted',
        (err: Error & { code?: string; cause?: { cause?: unknown } }) =>
          `${err.code ?? ''} ${err.message} ${JSON.stringify(err.cause?.cause ?? {})}`,
      );
    } finally {
      op.tamperIdToken(undefined);
      op.hideKeys([]);
    }
  };

  it('another audience (re-signed with the provider key)', async () => {
    const why = await refusal(() => op.tamperIdToken((c) => ({ ...c, aud: OTHER_CLIENT_ID })));
    expect(why).toMatch(/aud/);
  });

  it('another issuer (re-signed with the provider key)', async () => {
    const why = await refusal(() => op.tamperIdToken((c) => ({ ...c, iss: 'https://evil.example' })));
    expect(why).toMatch(/iss/);
  });

  it('alg none', async () => {
    const why = await refusal(() => op.tamperIdToken((c) => c, { alg: 'none' }));
    expect(why).toMatch(/alg|none|signature|unexpected/i);
  });

  it('a key the JWKS does not publish', async () => {
    const why = await refusal(() => op.tamperIdToken((c) => c, { alg: 'unpublished' }));
    expect(why).toMatch(/key/i);
  });

  it('the signing key hidden from the JWKS', async () => {
    const why = await refusal(() => op.hideKeys([op.signingKid()]));
    expect(why).toMatch(/key/i);
  });

  it('untampered: accepted (the switches are off again)', async () => {
    expect(await refusal(() => {})).toBe('accepted');
  });
});
