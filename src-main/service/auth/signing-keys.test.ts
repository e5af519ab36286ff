import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { recordingLogger } from '../http/recording-logger.test-support';
import { silentLogger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { type SharedDatabase, sharedDatabases } from './shared-database.test-support';
import { SigningKeyError, sealingKey } from './signing-keys';
import { FakeClock } from './stack.test-support';
import { AccessTokens, KEEP_MARGIN_MS, REREAD_MS, ROTATE_AFTER_MS } from './tokens';

/**
 * The signing keys shared through the database (signing-keys.ts, tokens.ts), on both backends:
 * two AccessTokens over one database stand for two replicas. Each test has its own database.
 */

const TTL_MS = 15 * 60_000;
const backends = sharedDatabases();
const newSecret = () => randomBytes(32).toString('base64');

interface KeyRow {
  kid: string;
  generation: number;
  public_jwk: string;
  private_key: string;
  sealed: number;
}

const rows = (b: StorageBackend) =>
  b.all<KeyRow>(
    'SELECT kid, generation, public_jwk, private_key, sealed FROM auth_signing_keys ORDER BY generation',
  );

/** The 401 a verification ends in; fails the test when the token is accepted. */
async function refusal(verifying: Promise<unknown>): Promise<ProblemError> {
  const outcome = await verifying.then(
    (payload) => ({ accepted: payload }),
    (err: unknown) => ({ refused: err }),
  );
  if (!('refused' in outcome)) throw new Error(`accepted: ${JSON.stringify(outcome.accepted)}`);
  expect(outcome.refused).toBeInstanceOf(ProblemError);
  const problem = outcome.refused as ProblemError;
  expect(problem.status).toBe(401);
  expect(problem.code).toBe('invalid_token');
  expect(problem.headers['WWW-Authenticate']).toContain('error="invalid_token"');
  return problem;
}

describe.each(backends)('signing keys on $name', ({ name, skip, shared }) => {
  const test = it.skipIf(skip !== undefined);
  const needsSecret = name === 'postgres';

  async function replicas(count: number, opts: { secretKey?: string; clock?: FakeClock } = {}) {
    const db = await shared();
    const clock = opts.clock ?? new FakeClock();
    const secretKey = opts.secretKey ?? newSecret();
    const list: { tokens: AccessTokens; backend: StorageBackend }[] = [];
    for (let i = 0; i < count; i++) list.push(await replica(db, clock, secretKey));
    return { db, clock, secretKey, list };
  }

  async function replica(db: SharedDatabase, clock: FakeClock, secretKey: string | undefined) {
    const backend = await db.open();
    const tokens = await AccessTokens.load({
      backend,
      now: clock.now,
      ttlMs: TTL_MS,
      secretKey,
      logger: silentLogger(),
    });
    return { tokens, backend };
  }

  test('a token signed by one replica verifies on another sharing the database', async () => {
    const { list, clock } = await replicas(2);
    const [a, b] = list as [(typeof list)[0], (typeof list)[0]];
    expect(b.tokens.kid).toBe(a.tokens.kid);
    const { token, payload } = await a.tokens.sign('alice', 'session-1', clock.now() + TTL_MS);
    expect(await b.tokens.verify(token)).toEqual(payload);
    const other = await b.tokens.sign('bob', 'session-2', clock.now() + TTL_MS);
    expect(await a.tokens.verify(other.token)).toEqual(other.payload);
  });

  test('replicas starting together on an empty database make one key', async () => {
    const db = await shared();
    const clock = new FakeClock();
    const secretKey = newSecret();
    const started = await Promise.all([1, 2, 3].map(() => replica(db, clock, secretKey)));
    expect(new Set(started.map((r) => r.tokens.kid)).size).toBe(1);
    expect(await rows(started[0]!.backend)).toHaveLength(1);
  });

  test("a rotated key's tokens verify everywhere until they expire; the new key signs everywhere", async () => {
    const { list, clock } = await replicas(2);
    const [a, b] = list as [(typeof list)[0], (typeof list)[0]];
    const before = await a.tokens.sign('alice', 'session-1', clock.now() + TTL_MS);
    const oldKid = a.tokens.kid;
    const newKid = await a.tokens.rotate();
    expect(newKid).not.toBe(oldKid);
    expect((await rows(a.backend)).map((r) => r.generation)).toEqual([1, 2]);
    const after = await a.tokens.sign('alice', 'session-1', clock.now() + TTL_MS);
    expect(JSON.parse(Buffer.from(after.token.split('.')[0]!, 'base64url').toString()).kid).toBe(newKid);
    // B has not read the keys since: the new kid makes it read them, the old one still verifies.
    expect(await b.tokens.verify(after.token)).toEqual(after.payload);
    expect(await b.tokens.verify(before.token)).toEqual(before.payload);
    expect(await a.tokens.verify(before.token)).toEqual(before.payload);
    // B follows the rotation for signing once its copy is REREAD_MS old.
    clock.advance(REREAD_MS);
    const fromB = await b.tokens.sign('bob', 'session-2', clock.now() + TTL_MS);
    expect(JSON.parse(Buffer.from(fromB.token.split('.')[0]!, 'base64url').toString()).kid).toBe(newKid);
    clock.advance(TTL_MS);
    expect((await refusal(b.tokens.verify(before.token))).message).toMatch(/expired/);
  });

  test("a replica signs with another's new key once its copy of the keys is REREAD_MS old, not before", async () => {
    const { list, clock } = await replicas(2);
    const [a, b] = list as [(typeof list)[0], (typeof list)[0]];
    const kidSigned = async () => {
      const { token } = await b.tokens.sign('bob', 'session-2', clock.now() + TTL_MS);
      return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid as string;
    };
    const oldKid = b.tokens.kid;
    clock.advance(1);
    const newKid = await a.tokens.rotate();
    expect(await kidSigned()).toBe(oldKid);
    clock.advance(REREAD_MS - 2);
    expect(await kidSigned()).toBe(oldKid);
    clock.advance(1);
    expect(await kidSigned()).toBe(newKid);
  });

  test('a key is rotated once it has signed for ROTATE_AFTER_MS, and forgotten once its tokens are all spent', async () => {
    const { list, clock } = await replicas(1);
    const a = list[0]!;
    const first = a.tokens.kid;
    clock.advance(ROTATE_AFTER_MS - 1);
    await a.tokens.sign('alice', 'session-1', clock.now() + TTL_MS);
    expect(a.tokens.kid).toBe(first);
    clock.advance(1);
    const { token } = await a.tokens.sign('alice', 'session-1', clock.now() + TTL_MS);
    const second = a.tokens.kid;
    expect(second).not.toBe(first);
    expect((await rows(a.backend)).map((r) => r.kid)).toEqual([first, second]);
    // The next rotation forgets the first key, whose successor is older than a token's lifetime and the margin.
    clock.advance(ROTATE_AFTER_MS);
    await a.tokens.sign('alice', 'session-1', clock.now() + TTL_MS);
    const third = a.tokens.kid;
    expect((await rows(a.backend)).map((r) => r.kid)).toEqual([second, third]);
    expect(await a.tokens.verify(token).catch((e: ProblemError) => e.message)).toMatch(/expired/);
  });

  test('a replaced key is kept while a token it signed may still be valid', async () => {
    const { list, clock } = await replicas(1);
    const a = list[0]!;
    const first = a.tokens.kid;
    const second = await a.tokens.rotate();
    clock.advance(TTL_MS + KEEP_MARGIN_MS);
    await a.tokens.rotate();
    expect((await rows(a.backend)).map((r) => r.kid)).toContain(first);
    clock.advance(1);
    const third = await a.tokens.rotate();
    expect((await rows(a.backend)).map((r) => r.kid)).toEqual([second, expect.any(String), third]);
  });

  test('a token with an unknown kid, or none, is refused with 401 invalid_token', async () => {
    const { list, clock } = await replicas(2);
    const a = list[0]!;
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const iat = Math.floor(clock.now() / 1000);
    const claims = { sub: 'alice', sid: 's', jti: 'j', iat, exp: iat + 600 };
    const signed = (kid?: string) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', ...(kid ? { kid } : {}) })
        .sign(privateKey);
    expect((await refusal(a.tokens.verify(await signed('no-such-key')))).message).toMatch(/unknown key/);
    expect((await refusal(a.tokens.verify(await signed()))).message).toMatch(/does not name its signing key/);
    // A known kid with another key's signature is a bad signature, not an unknown key.
    expect((await refusal(a.tokens.verify(await signed(a.tokens.kid)))).message).toMatch(/signature/);
  });

  test('the private key is stored encrypted: the row holds no part of it, and opens only with the secret key', async () => {
    const { list, db, clock, secretKey } = await replicas(1);
    const a = list[0]!;
    const [row] = await rows(a.backend);
    expect(row!.sealed).toBe(1);
    const publicJwk = JSON.parse(row!.public_jwk) as Record<string, string>;
    expect(publicJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: expect.any(String) });
    // The private scalar `d` is nowhere in the row, in any of the encodings it could take.
    expect(row!.private_key.split('.')).toHaveLength(5);
    expect(JSON.stringify(row)).not.toMatch(/"d"/);
    expect(row!.private_key).not.toContain(publicJwk.x);
    const wrong = replica(db, clock, newSecret());
    await expect(wrong).rejects.toThrow(SigningKeyError);
    await expect(wrong).rejects.toThrow(/does not open with this secret key/);
    await expect(wrong).rejects.toThrow(`${a.backend.where}: token signing key ${row!.kid} does not open`);
    const none = replica(db, clock, undefined);
    await expect(none).rejects.toThrow(SigningKeyError);
    await expect(none).rejects.toThrow(
      needsSecret ? /needs a secret key/ : /is encrypted and no secret key was given/,
    );
    // The right one still opens it: nothing was rewritten by the refused starts.
    expect((await replica(db, clock, secretKey)).tokens.kid).toBe(row!.kid);
    expect((await rows(a.backend))[0]).toEqual(row);
  });

  test('a sealed key moved to another row is refused', async () => {
    const { list, db, clock, secretKey } = await replicas(1);
    const a = list[0]!;
    await a.tokens.rotate();
    const [first, second] = await rows(a.backend);
    await a.backend.run('UPDATE auth_signing_keys SET private_key = $p WHERE kid = $kid', {
      p: first!.private_key,
      kid: second!.kid,
    });
    await expect(replica(db, clock, secretKey)).rejects.toThrow(/holds the key of/);
  });

  test('a sealed key that is not a JWE stops the start, naming the database and the kid', async () => {
    const { list, db, clock, secretKey } = await replicas(1);
    const a = list[0]!;
    await a.backend.run("UPDATE auth_signing_keys SET private_key = 'not-a-jwe'");
    await expect(replica(db, clock, secretKey)).rejects.toThrow(
      `${a.backend.where}: token signing key ${a.tokens.kid} is not a sealed key`,
    );
  });

  test('a secret key shorter than 32 bytes is refused, saying how to make one', async () => {
    const db = await shared();
    await expect(replica(db, new FakeClock(), 'x'.repeat(31))).rejects.toThrow(
      /31 bytes; it must be at least 32 \(make one with: openssl rand -base64 32\)/,
    );
    expect((await replica(db, new FakeClock(), 'x'.repeat(32))).tokens.kid).toEqual(expect.any(String));
  });

  test('the key kept in auth_meta before migration 4 becomes generation 1 with its kid, so its tokens still verify', async () => {
    const db = await shared();
    const backend = await db.open();
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const jwk = await exportJWK(privateKey);
    await backend.run('INSERT INTO auth_meta (key, value) VALUES ($key, $value)', {
      key: 'signingKey',
      value: JSON.stringify({ kid: 'legacy-kid', jwk }),
    });
    const clock = new FakeClock();
    const iat = Math.floor(clock.now() / 1000);
    const old = await new SignJWT({ sid: 's' })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: 'legacy-kid' })
      .setSubject('alice')
      .setJti('j')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .sign(privateKey);
    const secretKey = newSecret();
    const tokens = await AccessTokens.load({
      backend,
      now: clock.now,
      ttlMs: TTL_MS,
      secretKey,
      logger: silentLogger(),
    });
    expect(tokens.kid).toBe('legacy-kid');
    expect(await tokens.verify(old)).toMatchObject({ sub: 'alice', sid: 's' });
    expect(
      await backend.get('SELECT value FROM auth_meta WHERE key = $key', { key: 'signingKey' }),
    ).toBeUndefined();
    expect(await rows(backend)).toMatchObject([{ kid: 'legacy-kid', generation: 1, sealed: 1 }]);
  });

  test('a legacy key that is not Ed25519 stops the start, naming the database and the key', async () => {
    const db = await shared();
    const backend = await db.open();
    await backend.run('INSERT INTO auth_meta (key, value) VALUES ($key, $value)', {
      key: 'signingKey',
      value: JSON.stringify({ kid: 'k', jwk: { kty: 'RSA', n: 'x', e: 'AQAB' } }),
    });
    const loading = AccessTokens.load({
      backend,
      now: () => 0,
      ttlMs: TTL_MS,
      secretKey: newSecret(),
      logger: silentLogger(),
    });
    await expect(loading).rejects.toThrow(/"signingKey" is not an Ed25519 key/);
    await expect(loading).rejects.toThrow(backend.where);
  });
});

describe.each(backends.filter((b) => b.name === 'sqlite'))(
  'signing keys on $name without a secret key',
  ({ shared }) => {
    it('are stored in plain JSON, as before issue 25, and sealed once a secret key is given', async () => {
      const db = await shared();
      const clock = new FakeClock();
      const backend = await db.open();
      const load = (secretKey?: string) =>
        AccessTokens.load({ backend, now: clock.now, ttlMs: TTL_MS, secretKey, logger: silentLogger() });
      const plain = await load();
      const { token } = await plain.sign('alice', 's', clock.now() + TTL_MS);
      // A second start without a secret key leaves it as it is.
      expect(await (await load()).verify(token)).toMatchObject({ sub: 'alice' });
      const [row] = await rows(backend);
      expect(row!.sealed).toBe(0);
      expect(JSON.parse(row!.private_key)).toMatchObject({
        kty: 'OKP',
        crv: 'Ed25519',
        d: expect.any(String),
      });
      const secretKey = newSecret();
      const log = recordingLogger();
      const sealed = await AccessTokens.load({
        backend,
        now: clock.now,
        ttlMs: TTL_MS,
        secretKey,
        logger: log.logger,
      });
      expect(log.entries).toContainEqual(
        expect.objectContaining({ kid: row!.kid, msg: 'token signing key encrypted with the secret key' }),
      );
      expect(sealed.kid).toBe(row!.kid);
      expect(await sealed.verify(token)).toMatchObject({ sub: 'alice' });
      const [after] = await rows(backend);
      expect(after!.sealed).toBe(1);
      expect(after!.private_key).not.toContain(JSON.parse(row!.private_key).d);
      await expect(load()).rejects.toThrow(/is encrypted and no secret key was given/);
    });
  },
);

describe.each(backends.filter((b) => b.name === 'sqlite'))('a plain signing key on $name', ({ shared }) => {
  it('that is not an Ed25519 JWK stops the start, naming the database and the kid', async () => {
    const db = await shared();
    const backend = await db.open();
    const tokens = await AccessTokens.load({ backend, now: () => 0, ttlMs: TTL_MS, logger: silentLogger() });
    await backend.run("UPDATE auth_signing_keys SET private_key = 'not json'");
    await expect(
      AccessTokens.load({ backend, now: () => 0, ttlMs: TTL_MS, logger: silentLogger() }),
    ).rejects.toThrow(`${backend.where}: token signing key ${tokens.kid} is not an Ed25519 key`);
  });
});

describe('the key that seals the signing keys', () => {
  it('is derived from the secret key with HKDF-SHA256, so that keys sealed by one release open in the next', () => {
    // A changed derivation would leave every stored signing key unreadable: this value must never change.
    expect(Buffer.from(sealingKey('x'.repeat(32))).toString('hex')).toBe(
      'b2639310640e89dd1edfdf5198b2252d06bcefb59b4ef35926dca0f204d002d1',
    );
    // Bytes, not characters: 16 two-byte characters are enough, 15 and one more are not.
    expect(Buffer.from(sealingKey('é'.repeat(16))).length).toBe(32);
    expect(() => sealingKey(`${'é'.repeat(15)}x`)).toThrow(/31 bytes/);
  });
});
