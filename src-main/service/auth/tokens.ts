import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CryptoKey,
  errors,
  importJWK,
  type JWK,
  type JWSHeaderParameters,
  jwtVerify,
  SignJWT,
} from 'jose';
import type { AuthPayload } from '../../../src-shared/contract/auth-models';
import { ProblemError } from '../errors';
import type { Logger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { newId } from './secrets';
import { ALG, SigningKeyStore, type StoredSigningKey } from './signing-keys';

/**
 * Access tokens: Ed25519-signed JWTs (RFC 9068 `at+jwt`) with sub, sid, jti, iat and exp, whose
 * header names the signing key by `kid`. The keys live in the database (signing-keys.ts), so any
 * replica sharing it verifies any replica's token, and a restart keeps them.
 *
 * Rules:
 * - The newest key signs; every key held verifies. A key is replaced once it has signed for
 *   ROTATE_AFTER_MS, and forgotten once no token it signed can still be valid (its successor is
 *   older than a token's lifetime plus KEEP_MARGIN_MS).
 * - Each replica keeps the keys in memory and reads them again before signing once its copy is
 *   REREAD_MS old, so another replica's rotation is followed within that. A token naming a kid
 *   this replica does not hold makes it read them again (at most once per UNKNOWN_KID_REREAD_MS,
 *   shared by every such token, so made-up kids cannot become a flood of reads), then refuses.
 * - A failed re-read is logged and the keys held stay in use: the database being away for a
 *   moment must not refuse tokens this replica can check.
 */

/** How long a key signs before a new one replaces it. */
export const ROTATE_AFTER_MS = 30 * 24 * 3_600_000;
/** How old this replica's copy of the keys may be when it signs. */
export const REREAD_MS = 30_000;
/** Tokens with an unknown kid make at most one read of the keys per this long, shared by all waiting. */
export const UNKNOWN_KID_REREAD_MS = 1_000;
/**
 * A replaced key still verifies for a token's lifetime after its successor was made, plus this:
 * replicas that had not read the successor yet signed with it for up to REREAD_MS longer, and
 * their clocks may differ.
 */
export const KEEP_MARGIN_MS = 3_600_000;
/** RFC 9068's type for access-token JWTs; checked so no other JWT of ours can pass as one. */
const TYP = 'at+jwt';
/** Verified tokens remembered; a token lives 15 to 60 minutes, and each session holds one at a time. */
const VERIFIED_CACHE_SIZE = 1_024;

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
  /** An access token's lifetime: a replaced key keeps verifying for this long (plus a margin). */
  ttlMs: number;
  /** Encrypts the private keys at rest (`--secret-key-file` / `SKIFF_SECRET_KEY`); required on PostgreSQL. */
  secretKey?: string | undefined;
  logger: Logger;
}

interface Signer {
  kid: string;
  generation: number;
  createdAt: number;
  privateKey: CryptoKey | Uint8Array;
}

interface Keyring {
  signer: Signer;
  /** Every key held, the signer's included, by kid. */
  verifiers: ReadonlyMap<string, CryptoKey | Uint8Array>;
  /** When it was read (this replica's clock). */
  readAt: number;
}

async function keyringOf(keys: readonly StoredSigningKey[], readAt: number): Promise<Keyring> {
  const verifiers = new Map<string, CryptoKey | Uint8Array>();
  for (const { kid, jwk } of keys) {
    const { d: _private, ...publicJwk } = jwk;
    verifiers.set(kid, await importJWK(publicJwk as JWK, ALG));
  }
  const newest = keys.at(-1)!;
  return {
    signer: {
      kid: newest.kid,
      generation: newest.generation,
      createdAt: newest.createdAt,
      privateKey: await importJWK(newest.jwk as JWK, ALG),
    },
    verifiers,
    readAt,
  };
}

export class AccessTokens {
  private reading: Promise<void> | undefined;
  private unknownKidRead: Promise<void> | undefined;
  private unknownKidReadAt = Number.NEGATIVE_INFINITY;

  private constructor(
    private readonly store: SigningKeyStore,
    private keyring: Keyring,
    private readonly now: () => number,
    readonly ttlMs: number,
    private readonly logger: Logger,
  ) {}

  /**
   * The keys as stored, the first one made if there is none. Throws SigningKeyError (the start
   * stops) without a secret key on PostgreSQL, and for a stored key the secret key does not open.
   */
  static async load(opts: AccessTokensOptions): Promise<AccessTokens> {
    const { backend, now, ttlMs, logger } = opts;
    const store = new SigningKeyStore(backend, opts.secretKey, logger);
    await store.upgrade(now());
    const tokens = new AccessTokens(store, await AccessTokens.readKeyring(store, now), now, ttlMs, logger);
    return tokens;
  }

  private static async readKeyring(store: SigningKeyStore, now: () => number): Promise<Keyring> {
    let keys = await store.read();
    if (keys.length === 0) {
      // Replicas starting together on an empty database: one insert wins, every one reads it.
      await store.add(1, now());
      keys = await store.read();
    }
    return keyringOf(keys, now());
  }

  /** The kid that signs now. */
  get kid(): string {
    return this.keyring.signer.kid;
  }

  /** Reads the keys again; one read at a time, shared by whoever asks meanwhile. */
  private reread(): Promise<void> {
    this.reading ??= AccessTokens.readKeyring(this.store, this.now)
      .then((keyring) => {
        this.keyring = keyring;
      })
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  /**
   * Makes a new key the signer (or takes the one another replica just made); the replaced ones
   * keep verifying, and those whose tokens have all expired are forgotten. Answers the new kid.
   */
  async rotate(): Promise<string> {
    await this.store.add(this.keyring.signer.generation + 1, this.now());
    await this.reread();
    await this.forgetExpired();
    return this.keyring.signer.kid;
  }

  private async forgetExpired(): Promise<void> {
    const keys = await this.store.read();
    const cutoff = this.now() - this.ttlMs - KEEP_MARGIN_MS;
    // A key is needed while its successor is younger than the cutoff; the newest successor older
    // than it marks everything before it as unneeded.
    const spent = keys.filter((k, i) => i > 0 && k.createdAt < cutoff).at(-1);
    if (spent && (await this.store.prune(spent.generation)) > 0) {
      this.logger.info({ before: spent.kid }, 'token signing keys past their last token forgotten');
      await this.reread();
    }
  }

  /** The key to sign with: this replica's copy read again when stale, and rotated when due. */
  private async signer(): Promise<Signer> {
    if (this.now() - this.keyring.readAt >= REREAD_MS) {
      await this.reread().catch((err: unknown) =>
        this.logger.warn({ err }, 'could not read the token signing keys again; signing with the one held'),
      );
    }
    if (this.now() - this.keyring.signer.createdAt >= ROTATE_AFTER_MS) {
      await this.rotate().catch((err: unknown) =>
        this.logger.warn({ err }, 'could not rotate the token signing key; signing with the one held'),
      );
    }
    return this.keyring.signer;
  }

  /** A token for one session; never outliving the session itself. */
  async sign(
    accountId: string,
    sessionId: string,
    notAfterMs: number,
  ): Promise<{ token: string; payload: AuthPayload }> {
    const signer = await this.signer();
    const iat = Math.floor(this.now() / 1000);
    const exp = Math.max(iat + 1, Math.floor(Math.min(this.now() + this.ttlMs, notAfterMs) / 1000));
    const payload: AuthPayload = { sub: accountId, sid: sessionId, jti: newId(), iat, exp };
    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: ALG, typ: TYP, kid: signer.kid })
      .setSubject(accountId)
      .setJti(payload.jti)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(signer.privateKey);
    return { token, payload };
  }

  /** The public key a token's header names: read again once if this replica does not hold it. */
  private async keyFor(header: JWSHeaderParameters): Promise<CryptoKey | Uint8Array> {
    const { kid } = header;
    if (typeof kid !== 'string') throw invalidToken('the access token does not name its signing key');
    let key = this.keyring.verifiers.get(kid);
    if (!key) {
      await this.readForUnknownKid();
      key = this.keyring.verifiers.get(kid);
    }
    if (!key) throw invalidToken('the access token was signed with an unknown key');
    return key;
  }

  private readForUnknownKid(): Promise<void> {
    this.unknownKidRead ??= (async () => {
      const wait = this.unknownKidReadAt + UNKNOWN_KID_REREAD_MS - this.now();
      if (wait > 0) await sleep(wait);
      this.unknownKidReadAt = this.now();
      await this.reread().catch((err: unknown) =>
        this.logger.warn({ err }, 'could not read the token signing keys again for an unknown kid'),
      );
    })().finally(() => {
      this.unknownKidRead = undefined;
    });
    return this.unknownKidRead;
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
      const { payload } = await jwtVerify(token, (header) => this.keyFor(header), {
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
