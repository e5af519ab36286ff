/** What `--oidc-*` resolves to (options.ts): defaults, the derived redirect URI, and the refusals. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RECHECK_MS, MIN_RECHECK_MS, OidcConfigError, resolveOidc } from './options';

const base = { issuer: 'https://idp.example.com/realms/team', clientId: 'skiff' };
const PUBLIC = 'https://skiff.example.com';

describe('resolveOidc', () => {
  it('fills the defaults and derives the redirect URI from the public URL', () => {
    const o = resolveOidc(base, PUBLIC);
    expect(o).toMatchObject({
      clientId: 'skiff',
      clientSecret: undefined,
      scopes: 'openid profile email groups',
      usernameClaim: 'email',
      groupsClaim: 'groups',
      name: 'idp.example.com',
      only: false,
      adminGroups: [],
      recheckMs: DEFAULT_RECHECK_MS,
      insecure: false,
      redirectUri: 'https://skiff.example.com/v1/auth/oidc/callback',
    });
    expect(o.issuer.href).toBe('https://idp.example.com/realms/team');
  });

  it('keeps what is given, and always asks for openid', () => {
    const o = resolveOidc(
      {
        ...base,
        clientSecret: 's3cret',
        scopes: ['email', 'groups'],
        usernameClaim: 'preferred_username',
        groupsClaim: 'roles',
        name: 'Keycloak',
        only: true,
        adminGroups: ['ops'],
        recheckMs: MIN_RECHECK_MS,
      },
      PUBLIC,
    );
    expect(o).toMatchObject({
      clientSecret: 's3cret',
      scopes: 'openid email groups',
      usernameClaim: 'preferred_username',
      groupsClaim: 'roles',
      name: 'Keycloak',
      only: true,
      adminGroups: ['ops'],
      recheckMs: MIN_RECHECK_MS,
    });
    expect(resolveOidc({ ...base, scopes: ['profile', 'openid'] }, PUBLIC).scopes).toBe('profile openid');
    expect(resolveOidc({ ...base, clientSecret: '' }, PUBLIC).clientSecret).toBeUndefined();
  });

  it('refuses what cannot work, saying what to give', () => {
    const refused = (o: Parameters<typeof resolveOidc>[0], url: string | null = PUBLIC) => {
      try {
        resolveOidc(o, url ?? undefined);
      } catch (err) {
        expect(err).toBeInstanceOf(OidcConfigError);
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refused({ ...base, issuer: 'not a url' })).toMatch(/give the provider's https:\/\/ issuer URL/);
    expect(refused({ ...base, issuer: 'ftp://idp.example.com' })).toMatch(/https:\/\/ issuer URL/);
    expect(refused({ ...base, clientId: '' })).toBe('--oidc-client-id is required with --oidc-issuer');
    expect(refused(base, null)).toMatch(/needs --public-url.*\/v1\/auth\/oidc\/callback/);
    expect(refused({ ...base, recheckMs: MIN_RECHECK_MS - 1 })).toBe('--oidc-recheck must be at least 60s');
    expect(refused({ ...base, recheckMs: Number.NaN })).toMatch(/--oidc-recheck/);
  });

  it('allows http:// only for a provider on loopback, and only when asked', () => {
    const http = { ...base, issuer: 'http://127.0.0.1:4000' };
    expect(() => resolveOidc(http, PUBLIC)).toThrow(/must be https/);
    expect(resolveOidc({ ...http, allowInsecureRequests: true }, PUBLIC).insecure).toBe(true);
    expect(
      resolveOidc({ ...base, issuer: 'http://localhost:4000', allowInsecureRequests: true }, PUBLIC).insecure,
    ).toBe(true);
    expect(
      resolveOidc({ ...base, issuer: 'http://[::1]:4000', allowInsecureRequests: true }, PUBLIC).insecure,
    ).toBe(true);
    expect(() =>
      resolveOidc({ ...base, issuer: 'http://idp.example.com', allowInsecureRequests: true }, PUBLIC),
    ).toThrow(/must be https/);
    expect(resolveOidc({ ...base, allowInsecureRequests: true }, PUBLIC).insecure).toBe(false);
  });
});
