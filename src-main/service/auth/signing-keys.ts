import { hkdfSync } from 'node:crypto';
import { CompactEncrypt, compactDecrypt, errors, exportJWK, generateKeyPair } from 'jose';
import { z } from 'zod';
import type { Logger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { newId } from './secrets';
import { AuthStateError } from './state';

/**
 * The access tokens' signing keys, as rows of `auth_signing_keys` (migration 4) that every replica
 * sharing the database reads: each key has a `kid` (the JWT header names it) and a `generation`;
 * the newest generation signs, and every key still held verifies.
 *
 * Rules:
 * - The private half is stored sealed with the secret key (`--secret-key-file` / SKIFF_SECRET_KEY):
 *   a compact JWE (`dir`, A256GCM) whose protected header names the row's kid, so a sealed key
 *   cannot be moved to another row. The public half is stored as it is: it is public.
 * - Without a secret key the private half is stored as plain JWK JSON, which only SQLite allows
 *   (one data dir, mode 0600, as before issue 25). PostgreSQL refuses to start without one.
 * - A key is added with `generation = the newest + 1`, unique: replicas that rotate or start at
 *   once make one key, the others' inserts do nothing and they read the winner's.
 * - A secret key that does not open a stored key stops the start with a message that says so;
 *   nothing is rewritten or thrown away.
 */

export const ALG = 'EdDSA';
/** The shortest secret key taken: 32 bytes, what `openssl rand -base64 32` gives (as 44 characters). */
export const MIN_SECRET_BYTES = 32;
const LEGACY_META_KEY = 'signingKey';

/** A signing-key problem that stops the start (exit 2 from `serve`), with what to do about it. */
export class SigningKeyError extends AuthStateError {}

const privateJwkSchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string(),
  d: z.string(),
});
export type PrivateJwk = z.infer<typeof privateJwkSchema>;

export interface StoredSigningKey {
  kid: string;
  generation: number;
  createdAt: number;
  /** The private JWK; its public half is the same without `d`. */
  jwk: PrivateJwk;
}

interface KeyRow {
  kid: string;
  generation: number;
  private_key: string;
  sealed: number;
  created_at: number;
}

/**
 * The 256-bit key that seals the private keys, from the operator's secret. HKDF rather than the
 * raw bytes, so a secret of any length at or above 32 bytes gives a uniform key, and this use of
 * it cannot collide with another.
 */
export function sealingKey(secret: string): Uint8Array {
  const bytes = Buffer.from(secret);
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new SigningKeyError(
      `the secret key is ${bytes.length} bytes; it must be at least ${MIN_SECRET_BYTES} (make one with: openssl rand -base64 32)`,
    );
  }
  return new Uint8Array(hkdfSync('sha256', bytes, 'skiff', 'skiff signing keys v1', 32));
}

export class SigningKeyStore {
  private readonly seal: Uint8Array | undefined;

  constructor(
    private readonly backend: StorageBackend,
    secretKey: string | undefined,
    private readonly logger: Logger,
  ) {
    if (secretKey === undefined && backend.dialect === 'postgres') {
      throw new SigningKeyError(
        `${backend.where}: a shared database needs a secret key to keep the token signing keys encrypted; give every replica the same --secret-key-file or SKIFF_SECRET_KEY`,
      );
    }
    this.seal = secretKey === undefined ? undefined : sealingKey(secretKey);
  }

  /** Every stored key, oldest first. */
  async read(): Promise<StoredSigningKey[]> {
    const rows = await this.backend.all<KeyRow>(
      'SELECT kid, generation, private_key, sealed, created_at FROM auth_signing_keys ORDER BY generation',
    );
    const keys: StoredSigningKey[] = [];
    for (const row of rows) keys.push(await this.open(row));
    return keys;
  }

  /**
   * Adds a key as generation `generation`, unless another replica added that generation first:
   * read() then answers theirs.
   */
  async add(generation: number, now: number): Promise<void> {
    const { privateKey } = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
    const jwk = privateJwkSchema.parse(await exportJWK(privateKey));
    return this.insert({ kid: newId(), generation, createdAt: now, jwk });
  }

  /** Forgets the keys older than `generation`: the caller knows no token they signed is still valid. */
  async prune(generation: number): Promise<number> {
    return this.backend.run('DELETE FROM auth_signing_keys WHERE generation < $generation', { generation });
  }

  /**
   * Before migration 4 the one key lived in auth_meta: it becomes generation 1 with its kid, so
   * tokens issued before the upgrade keep verifying. Keys stored in plain JSON are sealed once a
   * secret key is given.
   */
  async upgrade(now: number): Promise<void> {
    const legacy = await this.backend.get<{ value: string }>('SELECT value FROM auth_meta WHERE key = $key', {
      key: LEGACY_META_KEY,
    });
    if (legacy) {
      const parsed = z.object({ kid: z.string(), jwk: privateJwkSchema }).safeParse(readJson(legacy.value));
      if (!parsed.success) {
        throw new SigningKeyError(
          `${this.backend.where}: "${LEGACY_META_KEY}" is not an Ed25519 key; remove it to make a new one`,
        );
      }
      await this.backend.transaction('auth_signing_keys import', async (tx) => {
        await tx.run(
          `INSERT INTO auth_signing_keys (kid, generation, public_jwk, private_key, sealed, created_at)
           VALUES ($kid, 1, $public, $private, $sealed, $now) ON CONFLICT DO NOTHING`,
          { kid: parsed.data.kid, now, ...(await this.sealed(parsed.data.kid, parsed.data.jwk)) },
        );
        await tx.run('DELETE FROM auth_meta WHERE key = $key', { key: LEGACY_META_KEY });
      });
    }
    if (!this.seal) return;
    const plain = await this.backend.all<KeyRow>(
      'SELECT kid, generation, private_key, sealed, created_at FROM auth_signing_keys WHERE sealed = 0',
    );
    for (const row of plain) {
      const { jwk } = await this.open(row);
      await this.backend.run(
        'UPDATE auth_signing_keys SET private_key = $private, sealed = $sealed WHERE kid = $kid AND sealed = 0',
        { kid: row.kid, private: (await this.sealed(row.kid, jwk)).private, sealed: 1 },
      );
      this.logger.info({ kid: row.kid }, 'token signing key encrypted with the secret key');
    }
  }

  private async insert(key: StoredSigningKey): Promise<void> {
    await this.backend.run(
      `INSERT INTO auth_signing_keys (kid, generation, public_jwk, private_key, sealed, created_at)
       VALUES ($kid, $generation, $public, $private, $sealed, $now) ON CONFLICT DO NOTHING`,
      {
        kid: key.kid,
        generation: key.generation,
        now: key.createdAt,
        ...(await this.sealed(key.kid, key.jwk)),
      },
    );
  }

  private async sealed(kid: string, jwk: PrivateJwk) {
    const { d: _private, ...publicJwk } = jwk;
    const base = { public: JSON.stringify(publicJwk) };
    if (!this.seal) return { ...base, private: JSON.stringify(jwk), sealed: 0 };
    const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(jwk)))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid })
      .encrypt(this.seal);
    return { ...base, private: jwe, sealed: 1 };
  }

  private async open(row: KeyRow): Promise<StoredSigningKey> {
    const where = `${this.backend.where}: token signing key ${row.kid}`;
    let text = row.private_key;
    if (row.sealed) {
      if (!this.seal) {
        throw new SigningKeyError(
          `${where} is encrypted and no secret key was given; start with the --secret-key-file or SKIFF_SECRET_KEY it was stored with`,
        );
      }
      try {
        const { plaintext, protectedHeader } = await compactDecrypt(row.private_key, this.seal);
        if (protectedHeader.kid !== row.kid)
          throw new SigningKeyError(`${where} holds the key of ${protectedHeader.kid}`);
        text = new TextDecoder().decode(plaintext);
      } catch (err) {
        if (err instanceof SigningKeyError) throw err;
        if (err instanceof errors.JWEDecryptionFailed) {
          throw new SigningKeyError(
            `${where} does not open with this secret key; give every replica the --secret-key-file or SKIFF_SECRET_KEY the keys were stored with`,
          );
        }
        throw new SigningKeyError(`${where} is not a sealed key`);
      }
    }
    const jwk = privateJwkSchema.safeParse(readJson(text));
    if (!jwk.success) throw new SigningKeyError(`${where} is not an Ed25519 key`);
    return { kid: row.kid, generation: row.generation, createdAt: row.created_at, jwk: jwk.data };
  }
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
