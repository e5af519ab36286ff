import {
  type CryptoKey,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from 'jose';
import { z } from 'zod';
import type { AuthPayload } from '../../../src-shared/contract/auth-models';
import { ProblemError } from '../errors';
import type { Logger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { newId } from './secrets';

const KEY = 'signingKey';
const ALG = 'EdDSA';
/** RFC 9068's type for access-token JWTs; checked so no other JWT of ours can pass as one. */
const TYP = 'at+jwt';
/** Verified tokens remembered; a token lives 15 to 60 minutes, and each session holds one at a time. */
const VERIFIED_CACHE_SIZE = 1_024;

const storedKeySchema = z.object({
  kid: z.string(),
  jwk: z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string(), d: z.string() }),
});

/** RFC 6750 §3: error_description is printable ASCII without `"` or `\` (a header cannot carry more). */
export const bearerChallenge = (description: string) => ({
  'WWW-Authenticate': `Bearer realm="skiff", error="invalid_token", error_description="${description.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, '?')}"`,
});

export const invalidToken = (detail: string) =>
  new ProblemError('invalid_token', detail, {}, bearerChallenge(detail));

export interface AccessTokensOptions {
  /** Where the signing keys are kept (the service's storage, opened and closed by its owner). */
  backend: StorageBackend;
  now: () => number;
  /** An access token's lifetime: a key that stopped signing still verifies for this long. */
  ttlMs: number;
  /** Encrypts the private keys at rest (`--secret-key-file` / `SKIFF_SECRET_KEY`); required on PostgreSQL. */
  secretKey?: string | undefined;
  logger: Logger;
}

/**
 * Access tokens: Ed25519-signed JWTs with sub, sid, jti, iat and exp. The key is made on first
 * start and kept in the data dir (mode 0600), so tokens survive a restart and die with the dir.
 */
export class AccessTokens {
  private constructor(
    private readonly kid: string,
    private readonly privateKey: CryptoKey | Uint8Array,
    private readonly publicKey: CryptoKey | Uint8Array,
    private readonly now: () => number,
    readonly ttlMs: number,
  ) {}

  static async load(opts: AccessTokensOptions): Promise<AccessTokens> {
    const { backend: db, now, ttlMs } = opts;
    const row = await db.get<{ value: string }>('SELECT value FROM auth_meta WHERE key = $key', { key: KEY });
    let raw: unknown;
    try {
      raw = row === undefined ? undefined : JSON.parse(row.value);
    } catch {
      raw = null;
    }
    let stored = raw === undefined ? undefined : storedKeySchema.safeParse(raw).data;
    if (raw !== undefined && !stored)
      throw new Error(`${db.where}: "${KEY}" is not an Ed25519 key; remove it to make a new one`);
    if (!stored) {
      const { privateKey } = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
      const jwk = await exportJWK(privateKey);
      stored = storedKeySchema.parse({ kid: newId(), jwk });
      await db.run(
        'INSERT INTO auth_meta (key, value) VALUES ($key, $value) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        { key: KEY, value: JSON.stringify(stored) },
      );
    }
    const { d: _private, ...publicJwk } = stored.jwk;
    return new AccessTokens(
      stored.kid,
      await importJWK(stored.jwk as JWK, ALG),
      await importJWK(publicJwk as JWK, ALG),
      now,
      ttlMs,
    );
  }

  /** A token for one session; never outliving the session itself. */
  async sign(
    accountId: string,
    sessionId: string,
    notAfterMs: number,
  ): Promise<{ token: string; payload: AuthPayload }> {
    const iat = Math.floor(this.now() / 1000);
    const exp = Math.max(iat + 1, Math.floor(Math.min(this.now() + this.ttlMs, notAfterMs) / 1000));
    const payload: AuthPayload = { sub: accountId, sid: sessionId, jti: newId(), iat, exp };
    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: ALG, typ: TYP, kid: this.kid })
      .setSubject(accountId)
      .setJti(payload.jti)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.privateKey);
    return { token, payload };
  }

  /**
   * Tokens whose signature already checked out, to their payload. An Ed25519 check costs more than
   * serving a page from the cache, and a client sends the same token with every request until it
   * refreshes. Only the expiry can change a cached answer, so it is checked on every hit; whether
   * the session still lives is the caller's check, made per request either way.
   */
  private readonly verified = new Map<string, AuthPayload>();

  /** The payload of a valid, unexpired token; a 401 invalid_token otherwise. */
  async verify(token: string): Promise<AuthPayload> {
    const known = this.verified.get(token);
    if (known) {
      // jose's rule: expired once exp is not after the current second.
      if (known.exp > Math.floor(this.now() / 1000)) return { ...known };
      this.verified.delete(token);
      throw invalidToken('the access token has expired');
    }
    const payload = await this.verifySignature(token);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, payload);
    return { ...payload };
  }

  private async verifySignature(token: string): Promise<AuthPayload> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, {
        algorithms: [ALG],
        typ: TYP,
        currentDate: new Date(this.now()),
        requiredClaims: ['sub', 'sid', 'jti', 'iat', 'exp'],
      });
      const { sub, sid, jti, iat, exp } = payload;
      if (typeof sid !== 'string' || typeof sub !== 'string' || typeof jti !== 'string') {
        throw invalidToken('the access token lacks its session');
      }
      return { sub, sid, jti, iat: iat ?? 0, exp: exp ?? 0 };
    } catch (err) {
      if (err instanceof ProblemError) throw err;
      if (err instanceof errors.JWTExpired) throw invalidToken('the access token has expired');
      if (err instanceof errors.JWSSignatureVerificationFailed)
        throw invalidToken('the access token signature is invalid');
      throw invalidToken('the access token is malformed');
    }
  }
}
