import { expect, it } from 'vitest';
import { hashSecret, newSecret, REFRESH_TOKEN_PREFIX, sameSecret } from './secrets';

/** sameSecret: the constant-time comparison every token and key check goes through. */

it('a secret is the same only as an identical one, whatever the lengths', () => {
  const secret = newSecret(REFRESH_TOKEN_PREFIX);
  expect(sameSecret(secret, `${secret}`)).toBe(true);
  expect(sameSecret(hashSecret(secret), hashSecret(secret))).toBe(true);
  // Same length, one character off.
  const other = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
  expect(sameSecret(secret, other)).toBe(false);
  // A prefix, a longer one, and the empty string: different lengths are different, without throwing.
  expect(sameSecret(secret, secret.slice(0, 20))).toBe(false);
  expect(sameSecret(secret.slice(0, 20), secret)).toBe(false);
  expect(sameSecret(secret, `${secret}x`)).toBe(false);
  expect(sameSecret('', secret)).toBe(false);
  expect(sameSecret('', '')).toBe(true);
});
