/**
 * The overlap window across replicas. A rotated refresh token may be presented again within the
 * window (a client whose answer was lost, or two tabs refreshing at once), and must get the very
 * pair the rotation issued, whichever replica it reaches. So the rotation stores that pair with the
 * session, sealed with a key derived from the token it replaced:
 *
 * - only whoever presents the replaced token can open it, which is exactly who the grace rule
 *   serves; the database alone (which holds only SHA-256 hashes of tokens) cannot;
 * - no server secret is needed, so SQLite without `--secret-key-file` works the same;
 * - AES-256-GCM: a sealed value altered, or opened with another token, gives nothing rather than
 *   a wrong pair.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { type TokenPair, tokenPair } from '../../../src-shared/contract/auth-models';

const INFO = 'skiff refresh overlap v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keyOf = (replacedToken: string) =>
  Buffer.from(hkdfSync('sha256', replacedToken, Buffer.alloc(0), INFO, 32));

/** The pair, sealed for whoever holds `replacedToken` (base64url: iv, ciphertext, tag). */
export function sealGrace(replacedToken: string, pair: TokenPair): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(replacedToken), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(pair)), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The pair sealed for `replacedToken`; undefined for any other token, or a damaged value. */
export function openGrace(replacedToken: string, sealed: string): TokenPair | undefined {
  const raw = Buffer.from(sealed, 'base64url');
  // Too short for a nonce and a tag: the decipher refuses it, and that is caught below.
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(replacedToken), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const text = Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
    const r = tokenPair.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}
