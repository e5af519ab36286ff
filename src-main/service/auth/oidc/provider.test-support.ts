/**
 * A real OpenID Provider in the test process: the certified `oidc-provider` package on a loopback
 * port, not a mock. Rules:
 * - Everything the tests see comes from the provider's own code paths: discovery, its
 *   authorization endpoint, its login and consent pages (devInteractions), its token endpoint and
 *   JWKS. The harness only configures it (users, clients, keys, TTLs) through its documented
 *   options, and swaps the whole instance (same issuer, same port) when keys or clients change.
 * - Tampering is opt-in and explicit: `tamperIdToken` rewrites the ID token of the next token
 *   responses (re-signed with the provider's own private key, or `alg: none`), `hideKeys` drops
 *   keys from the published JWKS. Only for refusals the real provider cannot be made to produce;
 *   each test that uses them says so in its opening comment.
 * - `down()` closes the port (connections refused, as a stopped provider), `up()` listens on the
 *   same port again: the issuer URL never changes.
 * - Loopback only, http (openid-client accepts it only with allowInsecureRequests).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import Provider, { type ProviderClient, type ProviderContext } from 'oidc-provider';

export interface ProviderUser {
  /** The `sub`, and what the login form's "login" field takes. */
  id: string;
  email: string;
  /** The email_verified claim; true unless said (a provider letting users set an unchecked email). */
  emailVerified?: boolean;
  name?: string;
  groups: string[];
}

export interface ProviderClientConfig {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** Default RS256 (the provider's key); HS256 signs with the client secret. */
  idTokenAlg?: string;
}

export interface TestProviderOptions {
  users?: ProviderUser[];
  clients?: ProviderClientConfig[];
  /** Seconds; the provider's defaults otherwise (ID token 1 h, refresh 14 d). */
  ttl?: { IdToken?: number; AccessToken?: number; RefreshToken?: number };
}

export type TokenTamper = (claims: Record<string, unknown>) => Record<string, unknown>;

export interface TestProvider {
  /** http://127.0.0.1:PORT, the same across down()/up() and key rotations. */
  readonly issuer: string;
  readonly users: Map<string, ProviderUser>;
  /** The kid the provider signs ID tokens with now. */
  signingKid(): string;
  /** Every kid published now. */
  publishedKids(): Promise<string[]>;
  /**
   * A new signing key. `keepOld` publishes the old one beside it (a graceful rotation, as Keycloak
   * and Dex do); otherwise the old key is gone from the JWKS at once.
   */
  rotateKeys(opts?: { keepOld?: boolean }): Promise<void>;
  setClients(clients: ProviderClientConfig[]): void;
  setUser(user: ProviderUser): void;
  /** The user is gone at the provider: logins and refresh tokens of theirs are refused from now on. */
  removeUser(id: string): void;
  /** Rewrites the ID token of every following token response until cleared (undefined). */
  tamperIdToken(tamper: TokenTamper | undefined, opts?: { alg?: 'none' | 'provider' | 'unpublished' }): void;
  /** Drops these kids from the published JWKS (the provider keeps signing with them). */
  hideKeys(kids: string[]): void;
  /** Counts of the provider's own events (grant.success, grant.error, …) since start. */
  events: Map<string, number>;
  /** Errors the token endpoint answered, newest last (what the provider said and why). */
  grantErrors: string[];
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export const ALICE: ProviderUser = {
  id: 'alice',
  email: 'alice@example.com',
  name: 'Alice',
  groups: ['shop-devs'],
};
export const BOB: ProviderUser = { id: 'bob', email: 'bob@example.com', name: 'Bob', groups: [] };
/** A member of the group the tests name with --oidc-admin-groups. */
export const CAROL: ProviderUser = {
  id: 'carol',
  email: 'carol@example.com',
  name: 'Carol',
  groups: ['skiff-admins', 'ops'],
};
export const ADMIN_GROUP = 'skiff-admins';
export const SKIFF_CLIENT_ID = 'skiff';
export const SKIFF_CLIENT_SECRET = 'skiff-test-client-secret-0123456789';
/** Another relying party at the same provider (tokens for it must not sign anyone in to Skiff). */
export const OTHER_CLIENT_ID = 'other-app';
export const OTHER_CLIENT_SECRET = 'other-test-client-secret-0123456789';

interface SigningKey {
  privateJwk: JWK;
  kid: string;
}

async function newSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { privateJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' }, kid };
}

function clientMetadata(c: ProviderClientConfig): Record<string, unknown> {
  return {
    client_id: c.clientId,
    client_secret: c.clientSecret,
    redirect_uris: c.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    id_token_signed_response_alg: c.idTokenAlg ?? 'RS256',
  };
}

/** Starts the provider on a free loopback port. */
export async function startTestProvider(opts: TestProviderOptions = {}): Promise<TestProvider> {
  const users = new Map((opts.users ?? [ALICE, BOB, CAROL]).map((u) => [u.id, u]));
  let clients = opts.clients ?? [];
  let keys: SigningKey[] = [await newSigningKey()];
  let unpublished: SigningKey | undefined;
  let hidden = new Set<string>();
  let tamper: { fn: TokenTamper; alg: 'none' | 'provider' | 'unpublished' } | undefined;
  const events = new Map<string, number>();
  const grantErrors: string[] = [];

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  const build = (): Provider => {
    const provider = new Provider(issuer, {
      clients: clients.map(clientMetadata),
      async findAccount(_ctx: unknown, sub: string) {
        const user = users.get(sub);
        if (!user) return undefined;
        return {
          accountId: user.id,
          claims: () => ({
            sub: user.id,
            email: user.email,
            email_verified: user.emailVerified ?? true,
            name: user.name ?? user.id,
            preferred_username: user.id,
            groups: [...user.groups],
          }),
        };
      },
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', 'preferred_username'],
        groups: ['groups'],
      },
      scopes: ['openid', 'offline_access', 'profile', 'email', 'groups'],
      // As Dex and Keycloak do: the scope's claims go into the ID token of a code flow too, not
      // only the userinfo response (the provider's spec-strict default).
      conformIdTokenClaims: false,
      // Keycloak issues a refresh token to every confidential client; oidc-provider by default only
      // with offline_access and prompt=consent. Skiff keeps it to recheck the user.
      issueRefreshToken: async (_ctx: unknown, client: ProviderClient) =>
        client.grantTypeAllowed('refresh_token'),
      jwks: { keys: keys.map((k) => k.privateJwk) },
      cookies: { keys: ['provider-test-cookie-key-0123456789'] },
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true }, revocation: { enabled: true } },
      // Every TTL named (the provider prints a notice for each default it falls back to).
      ttl: {
        Interaction: 600,
        Session: 3600,
        Grant: 3600,
        AccessToken: 600,
        RefreshToken: 14 * 86_400,
        IdToken: 3600,
        ...opts.ttl,
      },
    });
    for (const name of ['grant.success', 'grant.error', 'authorization.success', 'server_error']) {
      provider.on(name, (...args: unknown[]) => {
        events.set(name, (events.get(name) ?? 0) + 1);
        if (name === 'grant.error') {
          const err = args[1] as { message?: string; error_description?: string } | undefined;
          grantErrors.push(`${err?.message ?? ''}: ${err?.error_description ?? ''}`);
        }
      });
    }
    provider.use(async (ctx: ProviderContext, next) => {
      await next();
      if (ctx.path === '/jwks' && hidden.size > 0) {
        const body = ctx.body as { keys: JWK[] };
        ctx.body = { keys: body.keys.filter((k) => !k.kid || !hidden.has(k.kid)) };
      }
      if (ctx.path === '/token' && ctx.status === 200 && tamper) {
        const body = ctx.body as Record<string, unknown>;
        if (typeof body.id_token === 'string') {
          body.id_token = await retoken(body.id_token, tamper.fn, tamper.alg);
        }
      }
    });
    return provider;
  };

  const retoken = async (
    idToken: string,
    fn: TokenTamper,
    alg: 'none' | 'provider' | 'unpublished',
  ): Promise<string> => {
    const payload = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const claims = fn({ ...payload });
    if (alg === 'none') return new UnsecuredJWT(claims).encode();
    let key: SigningKey | undefined = keys[0];
    if (alg === 'unpublished') {
      unpublished ??= await newSigningKey();
      key = unpublished;
    }
    if (!key) throw new Error('the provider has no signing key');
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .sign(await importJWK(key.privateJwk, 'RS256'));
  };

  let current = build();
  let handler = current.callback();
  const rebuild = () => {
    current = build();
    handler = current.callback();
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => handler(req, res));

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });

  return {
    issuer,
    users,
    signingKid: () => keys[0]?.kid ?? '',
    async publishedKids() {
      const res = await fetch(`${issuer}/jwks`);
      const body = (await res.json()) as { keys: JWK[] };
      return body.keys.map((k) => k.kid ?? '');
    },
    async rotateKeys(o = {}) {
      const next = await newSigningKey();
      keys = o.keepOld ? [next, ...keys] : [next];
      rebuild();
    },
    setClients(next) {
      clients = next;
      rebuild();
    },
    setUser(user) {
      users.set(user.id, user);
    },
    removeUser(id) {
      users.delete(id);
    },
    tamperIdToken(fn, o = {}) {
      tamper = fn ? { fn, alg: o.alg ?? 'provider' } : undefined;
    },
    hideKeys(kids) {
      hidden = new Set(kids);
    },
    events,
    grantErrors,
    down: stop,
    up: listen,
    close: stop,
  };
}
