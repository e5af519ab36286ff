import { generateKeyPair, SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import { type AuthStack, startAuthStack, type Tokens } from './stack.test-support';

/**
 * Access tokens and their `kid` over real HTTP (signing-keys.ts, tokens.ts): a token naming a key
 * the service does not hold, or none, gets the same 401 problem+json and Bearer challenge as any
 * other bad token. A stack per test, for mutation testing (docs/mutation-testing.md).
 */

let stack: AuthStack;
let admin: Tokens;

beforeEach(async () => {
  stack = await startAuthStack();
  admin = await stack.login();
});
afterEach(() => stack.close());

const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid?: string }).kid;

describe('a token and its signing key', () => {
  it('names the key that signed it, and a token with an unknown kid or none is refused with the usual 401', async () => {
    expect(kidOf(admin.accessToken)).toEqual(expect.any(String));
    expect((await stack.call('GET', '/v1/auth/me', { headers: admin.bearer })).status).toBe(200);
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const iat = Math.floor(stack.clock.now() / 1000);
    const forged = (kid?: string) =>
      new SignJWT({ sid: admin.sessionId })
        .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', ...(kid ? { kid } : {}) })
        .setSubject('admin')
        .setJti('forged')
        .setIssuedAt(iat)
        .setExpirationTime(iat + 600)
        .sign(privateKey);
    for (const [token, detail] of [
      [await forged('no-such-key'), 'the access token was signed with an unknown key'],
      [await forged(), 'the access token does not name its signing key'],
    ] as const) {
      const res = await stack.call<Problem>('GET', '/v1/auth/me', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 401, code: 'invalid_token', detail });
      expect(res.headers['www-authenticate']).toBe(
        `Bearer realm="skiff", error="invalid_token", error_description="${detail}"`,
      );
    }
  });
});
