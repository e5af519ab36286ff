/**
 * What Skiff keeps of an OIDC account at its provider (table oidc_links): the issuer and subject,
 * the provider's refresh token, and when to ask the provider about the user again. Rules:
 * - The refresh token is kept sealed: AES-256-GCM under a key derived (HKDF) from the operator's
 *   secret key (`--secret-key-file`), with the account id as associated data, so a sealed token
 *   moved to another row does not open. It never leaves the server.
 * - A recheck is claimed with a conditional UPDATE of next_check_at: of two replicas due at once,
 *   exactly one spends the refresh token (a rotated refresh token spent twice would look like
 *   theft to the provider, and end the user's access).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Queryable, StorageBackend } from '../../storage/backend';
import { MIN_SECRET_BYTES } from '../signing-keys';

export interface Link {
  accountId: string;
  issuer: string;
  subject: string;
  /** Sealed; null when the provider gave no refresh token (offline_access not granted). */
  refreshToken: string | null;
  checkedAt: number;
  nextCheckAt: number;
}

export class TokenSeal {
  private readonly key: Buffer;
  constructor(secret: string) {
    const bytes = Buffer.from(secret);
    if (bytes.length < MIN_SECRET_BYTES)
      throw new Error(`the secret key must be at least ${MIN_SECRET_BYTES} bytes`);
    this.key = Buffer.from(hkdfSync('sha256', bytes, 'skiff', 'skiff oidc refresh tokens v1', 32));
  }

  seal(accountId: string, token: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(accountId));
    const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The token; undefined when the value is damaged, or sealed for another account or secret. */
  open(accountId: string, sealed: string): string | undefined {
    const raw = Buffer.from(sealed, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(accountId));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return undefined;
    }
  }
}

interface LinkRow {
  account_id: string;
  issuer: string;
  subject: string;
  refresh_token: string | null;
  checked_at: number;
  next_check_at: number;
}

const toLink = (r: LinkRow): Link => ({
  accountId: r.account_id,
  issuer: r.issuer,
  subject: r.subject,
  refreshToken: r.refresh_token,
  checkedAt: Number(r.checked_at),
  nextCheckAt: Number(r.next_check_at),
});

/**
 * Writes the account's link; false (nothing written) when the account is linked to another issuer
 * or subject already: an account belongs to the provider user of its first sign-in.
 */
export async function saveLink(db: Queryable, link: Link): Promise<boolean> {
  const changed = await db.run(
    `INSERT INTO oidc_links (account_id, issuer, subject, refresh_token, checked_at, next_check_at)
     VALUES ($id, $issuer, $subject, $token, $checked, $next)
     ON CONFLICT (account_id) DO UPDATE SET issuer = excluded.issuer, subject = excluded.subject,
       refresh_token = excluded.refresh_token, checked_at = excluded.checked_at, next_check_at = excluded.next_check_at
     WHERE oidc_links.issuer = excluded.issuer AND oidc_links.subject = excluded.subject`,
    {
      id: link.accountId,
      issuer: link.issuer,
      subject: link.subject,
      token: link.refreshToken,
      checked: link.checkedAt,
      next: link.nextCheckAt,
    },
  );
  return changed === 1;
}

export async function loadLink(db: StorageBackend, accountId: string): Promise<Link | undefined> {
  const r = await db.get<LinkRow>('SELECT * FROM oidc_links WHERE account_id = $id', { id: accountId });
  return r && toLink(r);
}

/** Links whose recheck is due, oldest first, at most `limit`. */
export async function dueLinks(db: StorageBackend, now: number, limit: number): Promise<Link[]> {
  const rows = await db.all<LinkRow>(
    `SELECT * FROM oidc_links WHERE next_check_at <= $now ORDER BY next_check_at, account_id LIMIT ${Math.trunc(limit)}`,
    { now },
  );
  return rows.map(toLink);
}

/**
 * Claims the link's recheck until `until`, only if nobody claimed or checked it since it was read
 * (its next_check_at is still `seen`). True: this caller asks the provider.
 */
export async function claimRecheck(db: StorageBackend, link: Link, until: number): Promise<boolean> {
  const changed = await db.run(
    'UPDATE oidc_links SET next_check_at = $until WHERE account_id = $id AND next_check_at = $seen',
    { id: link.accountId, seen: link.nextCheckAt, until },
  );
  return changed === 1;
}

/** After a recheck: the token to keep (the provider may rotate it), and when to ask again. */
export async function saveChecked(
  db: StorageBackend,
  accountId: string,
  refreshToken: string | null,
  checkedAt: number,
  nextCheckAt: number,
): Promise<void> {
  await db.run(
    'UPDATE oidc_links SET refresh_token = $token, checked_at = $checked, next_check_at = $next WHERE account_id = $id',
    { id: accountId, token: refreshToken, checked: checkedAt, next: nextCheckAt },
  );
}
