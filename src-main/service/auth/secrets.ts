import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** Prefixes make a leaked secret recognisable to secret scanners, and tell an API key from a token. */
export const REFRESH_TOKEN_PREFIX = 'skiff_rt_';
export const API_KEY_PREFIX = 'skiff_ak_';

/** 256 bits from the CSPRNG, base64url, behind a prefix. */
export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/**
 * Tokens and keys carry 256 bits of entropy, so a plain SHA-256 is a sufficient one-way store:
 * slow hashing exists for guessable secrets (passwords), and these are not guessable.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export const newId = (): string => randomUUID();
