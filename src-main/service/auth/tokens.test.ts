import { importJWK, type JWK, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { silentLogger } from '../logger';
import { AppDatabase } from '../storage/database';
import { SqliteBackend } from '../storage/sqlite-backend';
import { FakeClock } from './stack.test-support';
import { AccessTokens, bearerChallenge, invalidToken } from './tokens';

/**
 * Access tokens signed and verified directly, over an in-memory database on a fake clock; each
 * test loads its own key (see docs/mutation-testing.md). The HTTP side is credentials.it.test.ts.
 */

const TTL_MS = 15 * 60_000;

async function openTokens() {
  const clock = new FakeClock();
  const db = AppDatabase.open(':memory:', silentLogger());
  const tokens = await AccessTokens.load({
    backend: new SqliteBackend(db, silentLogger()),
    now: clock.now,
    ttlMs: TTL_MS,
    logger: silentLogger(),
  });
  // Without a secret key, SQLite keeps the private key as plain JWK JSON (signing-keys.ts).
  const row = db.get<{ kid: string; private_key: string }>('SELECT kid, private_key FROM auth_signing_keys');
  const kid = row!.kid;
  const jwk = JSON.parse(row!.private_key) as JWK;
  const privateKey = await importJWK(jwk, 'EdDSA');
  const iat = Math.floor(clock.now() / 1000);
  return {
    clock,
    db,
    tokens,
    /** A token signed with this data dir's own key, with exactly the claims given. */
    forge: (claims: Record<string, unknown>) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid }).sign(privateKey),
    claims: { sub: 'alice', sid: 'session-1', jti: 'token-1', iat, exp: iat + 600 } as Record<
      string,
      unknown
    >,
  };
}

/** The 401 a verification ends in; fails the test when the token is accepted. */
async function refusal(verifying: Promise<unknown>): Promise<ProblemError> {
  const outcome = await verifying.then(
    (payload) => ({ accepted: payload }),
    (err: unknown) => ({ refused: err }),
  );
  if (!('refused' in outcome)) throw new Error(`accepted: ${JSON.stringify(outcome.accepted)}`);
  const err = outcome.refused;
  expect(err).toBeInstanceOf(ProblemError);
  const problem = err as ProblemError;
  expect(problem.code).toBe('invalid_token');
  expect(problem.status).toBe(401);
  expect(problem.message).not.toBe('');
  expect(problem.headers['WWW-Authenticate']).toBe(
    `Bearer realm="skiff", error="invalid_token", error_description="${problem.message}"`,
  );
  return problem;
}

describe('the invalid_token challenge', () => {
  it('carries the description, its double quotes turned into single ones', () => {
    expect(bearerChallenge('the "sid" claim is missing')).toEqual({
      'WWW-Authenticate': `Bearer realm="skiff", error="invalid_token", error_description="the 'sid' claim is missing"`,
    });
    expect(invalidToken('say "no"').headers['WWW-Authenticate']).toContain(`error_description="say 'no'"`);
    // A header carries no character past ASCII: one would make the answer itself fail to be written.
    expect(invalidToken('send {"x": "…"} \\ é').headers['WWW-Authenticate']).toContain(
      `error_description="send {'x': '?'} ' ?"`,
    );
  });
});

describe('verifying an access token', () => {
  it('gives back its subject, session, id, issue and expiry times', async () => {
    const t = await openTokens();
    t.clock.advance(1234);
    const { token, payload } = await t.tokens.sign('alice', 'session-9', t.clock.now() + 3_600_000);
    const iat = Math.floor(t.clock.now() / 1000);
    expect(payload).toMatchObject({ sub: 'alice', sid: 'session-9', iat, exp: iat + TTL_MS / 1000 });
    expect(await t.tokens.verify(token)).toEqual(payload);
    // Twice: the second answer comes from the cache and must be the same.
    expect(await t.tokens.verify(token)).toEqual(payload);
    const forged = await t.forge({ ...t.claims, iat: 1_700_000_000, exp: iat + 60 });
    expect(await t.tokens.verify(forged)).toEqual({ ...t.claims, iat: 1_700_000_000, exp: iat + 60 });
  });

  it('refuses a token without one of its five claims', async () => {
    const t = await openTokens();
    for (const missing of ['sub', 'sid', 'jti', 'iat', 'exp']) {
      const { [missing]: _dropped, ...rest } = t.claims;
      await refusal(t.tokens.verify(await t.forge(rest)));
    }
  });

  it('refuses a token whose subject, session or id is not a string, for lacking its session', async () => {
    const t = await openTokens();
    for (const claim of ['sub', 'sid', 'jti']) {
      const problem = await refusal(t.tokens.verify(await t.forge({ ...t.claims, [claim]: 42 })));
      expect(problem.message, claim).toMatch(/session/);
    }
  });

  it('says why a token is refused: expired, a bad signature, or malformed', async () => {
    const t = await openTokens();
    const { token } = await t.tokens.sign('alice', 'session-1', t.clock.now() + TTL_MS);
    const [header, body, signature] = token.split('.') as [string, string, string];
    const badSignature = `${header}.${body}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect((await refusal(t.tokens.verify(badSignature))).message).toMatch(/signature/);
    for (const malformed of ['not-a-jwt', `${header}.${body}`, `${header}.${body}.${signature}.x`]) {
      expect((await refusal(t.tokens.verify(malformed))).message, malformed).toMatch(/malformed/);
    }
    t.clock.advance(TTL_MS);
    // Never verified before, so the signature check itself finds it expired.
    expect((await refusal(t.tokens.verify(token))).message).toMatch(/expired/);
  });

  it('refuses a cached token from the second it expires', async () => {
    const t = await openTokens();
    const { token, payload } = await t.tokens.sign('alice', 'session-1', t.clock.now() + TTL_MS);
    await t.tokens.verify(token);
    t.clock.t = payload.exp * 1000 - 1;
    expect(await t.tokens.verify(token)).toEqual(payload);
    t.clock.advance(1);
    expect((await refusal(t.tokens.verify(token))).message).toMatch(/expired/);
    expect((await refusal(t.tokens.verify(token))).message).toMatch(/expired/);
  });
});
