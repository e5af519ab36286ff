/**
 * The relying party: openid-client v6 against one OpenID Provider. Rules:
 * - Discovery is lazy and retried: a provider down at start never stops the service (local
 *   administrators still sign in). A success is kept for an hour, a failure for a few seconds, and
 *   concurrent callers share one request; every request to the provider has a bounded timeout.
 * - ID tokens are verified whole: issuer, audience, expiry, nonce (openid-client), and the
 *   signature against the provider's JWKS (enableNonRepudiationChecks), with the accepted
 *   algorithms pinned to the ones the provider publishes, `none` never among them.
 * - The clock is the service's: each operation builds its Configuration with a clockSkew equal to
 *   the service clock's offset, so tests drive expiry with the same clock as everything else.
 *   The JWKS cache is carried from one Configuration to the next (a key rotation is still
 *   followed: an unknown kid makes openid-client fetch the JWKS again).
 * - Errors come back classified (OidcFailure), so callers map them to problem codes without
 *   knowing openid-client's classes.
 */
import * as client from 'openid-client';
import type { ResolvedOidc } from './options';

export type FailureKind = 'unavailable' | 'rejected' | 'invalid' | 'denied';

/** A refusal or failure of the provider, with which check failed (for the log and the problem). */
export class OidcFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const DISCOVERY_TTL_MS = 3_600_000;
const FAILURE_TTL_MS = 5_000;
/** How fresh discovery must be for a login redirect and the methods probe. */
export const PROBE_MS = 5_000;
/** Seconds: every request to the provider (discovery, token, JWKS). */
const REQUEST_TIMEOUT_S = 5;

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function causeCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Whether a cause of `err` is a timeout: openid-client wraps the fetch's TimeoutError in a
 * ClientError, and a provider that never answers is unavailable, not an invalid token.
 */
function timedOut(err: unknown): boolean {
  let e: unknown = (err as { cause?: unknown })?.cause;
  for (let i = 0; i < 5 && e; i++) {
    const name = (e as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** What kind of failure `err` is, as openid-client and fetch report them. */
export function classify(err: unknown): OidcFailure {
  if (err instanceof OidcFailure) return err;
  const message = err instanceof Error ? err.message : String(err);
  const name = (err as { name?: unknown })?.name;
  if (name === 'TimeoutError' || name === 'AbortError' || causeCode(err) !== undefined)
    return new OidcFailure('unavailable', `the provider did not answer: ${causeCode(err) ?? message}`, {
      cause: err,
    });
  if (timedOut(err))
    return new OidcFailure('unavailable', 'the provider did not answer in time', { cause: err });
  if (err instanceof client.AuthorizationResponseError)
    return new OidcFailure(
      'denied',
      `the provider answered ${err.error}${err.error_description ? `: ${err.error_description}` : ''}`,
      { cause: err },
    );
  if (err instanceof client.ResponseBodyError) {
    if (err.status >= 500)
      return new OidcFailure('unavailable', `the provider failed (${err.status} ${err.error})`, {
        cause: err,
      });
    return new OidcFailure(
      'rejected',
      `the provider refused: ${err.error}${err.error_description ? ` (${err.error_description})` : ''}`,
      { cause: err },
    );
  }
  if (err instanceof client.ClientError) {
    if (err.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || err.code === 'OAUTH_RESPONSE_IS_NOT_JSON')
      return new OidcFailure('unavailable', `the provider answered unexpectedly: ${message}`, { cause: err });
    const inner = (err.cause as { message?: string } | undefined)?.message;
    return new OidcFailure('invalid', inner ? `${message}: ${inner}` : message, { cause: err });
  }
  if (err instanceof TypeError && message === 'fetch failed')
    return new OidcFailure('unavailable', `the provider cannot be reached: ${message}`, { cause: err });
  return new OidcFailure('invalid', message, { cause: err });
}

export interface Tokens {
  claims: Record<string, unknown>;
  refreshToken: string | undefined;
}

export class RelyingParty {
  private server: client.ServerMetadata | undefined;
  private serverAt = 0;
  private failure: { at: number; error: OidcFailure } | undefined;
  private discovering: Promise<client.ServerMetadata> | undefined;
  private jwks: client.ExportedJWKSCache | undefined;

  constructor(
    readonly options: ResolvedOidc,
    private readonly now: () => number,
  ) {}

  /**
   * The provider's metadata: cached, shared by concurrent callers, failures remembered briefly.
   * `maxAgeMs` short (PROBE_MS): asks the provider again unless it answered within that time, so
   * a login or the methods probe notices a provider that went down.
   */
  async metadata(maxAgeMs = DISCOVERY_TTL_MS): Promise<client.ServerMetadata> {
    const at = Date.now();
    if (this.server && at - this.serverAt < maxAgeMs) return this.server;
    if (this.failure && at - this.failure.at < FAILURE_TTL_MS) throw this.failure.error;
    this.discovering ??= this.discover().finally(() => {
      this.discovering = undefined;
    });
    return this.discovering;
  }

  /** Whether discovery answers now (or answered lately), and why not. */
  async availability(): Promise<{ available: boolean; detail?: string }> {
    try {
      await this.metadata(PROBE_MS);
      return { available: true };
    } catch (err) {
      return { available: false, detail: classify(err).message };
    }
  }

  private async discover(): Promise<client.ServerMetadata> {
    const o = this.options;
    try {
      const config = await client.discovery(o.issuer, o.clientId, undefined, undefined, {
        timeout: REQUEST_TIMEOUT_S,
        ...(o.insecure ? { execute: [client.allowInsecureRequests] } : {}),
      });
      // Plain JSON: serverMetadata() adds helper methods a Configuration must not be given.
      const server = JSON.parse(JSON.stringify(config.serverMetadata())) as client.ServerMetadata;
      // Pinned to what the provider publishes, and never `none` (unsigned tokens).
      const algs = (server.id_token_signing_alg_values_supported ?? ['RS256']).filter((a) => a !== 'none');
      if (algs.length === 0)
        throw new OidcFailure('invalid', 'the provider publishes no ID token signing algorithm but none');
      if (!server.jwks_uri) throw new OidcFailure('invalid', 'the provider publishes no jwks_uri');
      const pinned: client.ServerMetadata = { ...server, id_token_signing_alg_values_supported: algs };
      this.server = pinned;
      this.serverAt = Date.now();
      this.failure = undefined;
      return pinned;
    } catch (err) {
      const failure = classify(err);
      const error =
        failure.kind === 'invalid'
          ? failure
          : new OidcFailure('unavailable', failure.message, { cause: err });
      this.failure = { at: Date.now(), error };
      throw error;
    }
  }

  /** A Configuration for one operation, on the service's clock. */
  private async configuration(maxAgeMs?: number): Promise<client.Configuration> {
    const server = await this.metadata(maxAgeMs);
    const o = this.options;
    const methods = server.token_endpoint_auth_methods_supported;
    const auth =
      o.clientSecret === undefined
        ? client.None()
        : methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')
          ? client.ClientSecretPost(o.clientSecret)
          : client.ClientSecretBasic(o.clientSecret);
    const skew = Math.round((this.now() - Date.now()) / 1000);
    const config = new client.Configuration(server, o.clientId, { [client.clockSkew]: skew }, auth);
    config.timeout = REQUEST_TIMEOUT_S;
    if (o.insecure) client.allowInsecureRequests(config);
    client.enableNonRepudiationChecks(config);
    // Carried with its age at least 60 s: openid-client refetches for an unknown kid only then, and
    // a rotation at the provider must be followed at once. ID tokens come only from the token
    // endpoint (back channel), so an unknown kid costs at most one JWKS fetch per sign-in.
    if (this.jwks)
      client.setJwksCache(config, {
        ...this.jwks,
        uat: Math.min(this.jwks.uat, Math.floor(Date.now() / 1000) - 60),
      });
    return config;
  }

  private keep(config: client.Configuration) {
    this.jwks = client.getJwksCache(config) ?? this.jwks;
  }

  /** The provider's authorization URL for one sign-in (PKCE S256, state, nonce). */
  async authorizationUrl(flow: { state: string; nonce: string; codeVerifier: string }): Promise<URL> {
    // Fresh: a browser is not sent to a provider that is down.
    const config = await this.configuration(PROBE_MS).catch((err: unknown) => {
      throw classify(err);
    });
    return client.buildAuthorizationUrl(config, {
      redirect_uri: this.options.redirectUri,
      scope: this.options.scopes,
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /** Trades the callback's code and verifies the ID token; throws OidcFailure. */
  async codeGrant(
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<Tokens> {
    const config = await this.configuration().catch((err: unknown) => {
      throw classify(err);
    });
    try {
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new OidcFailure('invalid', 'the provider sent no ID token');
      return { claims: { ...claims }, refreshToken: tokens.refresh_token };
    } catch (err) {
      throw classify(err);
    } finally {
      this.keep(config);
    }
  }

  /**
   * Asks the provider again about a user, with its refresh token: the new claims (from a new ID
   * token, when the provider sends one) and the refresh token to keep. Throws OidcFailure;
   * `rejected` means the provider no longer honours the token (the user is gone or lost access).
   */
  async refresh(refreshToken: string): Promise<Tokens & { claimsFresh: boolean }> {
    const config = await this.configuration().catch((err: unknown) => {
      throw classify(err);
    });
    try {
      const tokens = await client.refreshTokenGrant(config, refreshToken);
      const claims = tokens.claims();
      return {
        claims: claims ? { ...claims } : {},
        claimsFresh: claims !== undefined,
        refreshToken: tokens.refresh_token ?? refreshToken,
      };
    } catch (err) {
      throw classify(err);
    } finally {
      this.keep(config);
    }
  }
}
