/**
 * The auth tables' rows, read and written: accounts, sessions with their refresh-token family,
 * API keys and the signing key's row. It runs past 300 lines because each table's row mapping (zod
 * check on read, column list on write) is kept next to the others, so a schema change in
 * migrations.ts and migrations-postgres.ts is answered in one place.
 *
 * Rules:
 * - Reads and writes go through the StorageBackend (storage/backend.ts), so the same text runs on
 *   SQLite and PostgreSQL; where the dialects differ the text is picked by `dialect`.
 * - Writes take a `Queryable` (a transaction's handle): the caller decides what commits together.
 * - The older JSON files' import (legacy-import.ts) runs inside SQLite's synchronous open, so the
 *   column lists and parameters it shares with these writes are exported as plain values.
 */
import type { z } from 'zod';
import type { Queryable, StorageBackend } from '../storage/backend';
import {
  AuthStateError,
  accountSchema,
  apiKeySchema,
  clientDescriptionSchema,
  type StoredAccount,
  type StoredApiKey,
  type StoredSession,
  sessionSchema,
} from './state';

/**
 * Rows of the auth tables (schema in storage/migrations.ts) to and from the shapes the auth
 * classes keep in memory. Every read is validated: a row Skiff cannot read stops the start with
 * its table and key named, rather than locking anyone out by dropping it.
 */

/** A row Skiff cannot read; the start stops (exit 2 from `serve`) rather than drop it. */
export class AuthTableError extends AuthStateError {}

const json = (value: unknown) => JSON.stringify(value);

function parsed<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new AuthTableError(`${where}: "${issue.path.join('.')}" ${issue.message}`);
}

function readJson(text: unknown, where: string): unknown {
  try {
    return typeof text === 'string' ? JSON.parse(text) : text;
  } catch {
    throw new AuthTableError(`${where}: not JSON`);
  }
}

// ---- signing key -----------------------------------------------------------------------------

export async function readMeta(db: StorageBackend, key: string): Promise<unknown> {
  const row = await db.get<{ value: string }>('SELECT value FROM auth_meta WHERE key = $key', { key });
  return row === undefined ? undefined : readJson(row.value, `${db.where} auth_meta ${key}`);
}

// ---- accounts --------------------------------------------------------------------------------

interface AccountRow {
  account_id: string;
  username: string;
  role: string;
  workspaces: string;
  password_hash: string;
  created_at: number;
  password_changed_at: number;
  source?: string;
  oidc_groups?: string;
}

function toAccount(r: AccountRow, where: string): StoredAccount {
  const at = `${where} accounts ${r.account_id}`;
  return parsed(
    accountSchema,
    {
      accountId: r.account_id,
      username: r.username,
      role: r.role,
      workspaces: readJson(r.workspaces, at),
      passwordHash: r.password_hash,
      createdAt: r.created_at,
      passwordChangedAt: r.password_changed_at,
      source: r.source ?? 'local',
      groups: r.oidc_groups === undefined ? [] : readJson(r.oidc_groups, at),
    },
    at,
  );
}

export async function loadAccounts(db: StorageBackend): Promise<StoredAccount[]> {
  const rows = await db.all<AccountRow>('SELECT * FROM accounts ORDER BY created_at, account_id');
  return rows.map((r) => toAccount(r, db.where));
}

/** One account as the table holds it now (another replica may have changed it); undefined when gone. */
export async function loadAccount(db: StorageBackend, accountId: string): Promise<StoredAccount | undefined> {
  const r = await db.get<AccountRow>('SELECT * FROM accounts WHERE account_id = $id', { id: accountId });
  return r && toAccount(r, db.where);
}

// An upsert, never REPLACE: a replaced row would cascade into the account's sessions and keys.
export const SAVE_ACCOUNT = `INSERT INTO accounts (account_id, username, role, workspaces, password_hash, created_at, password_changed_at, source, oidc_groups)
     VALUES ($id, $username, $role, $workspaces, $hash, $created, $changed, $source, $groups)
     ON CONFLICT (account_id) DO UPDATE SET username = excluded.username, role = excluded.role,
       workspaces = excluded.workspaces, password_hash = excluded.password_hash,
       password_changed_at = excluded.password_changed_at, source = excluded.source,
       oidc_groups = excluded.oidc_groups`;

export const accountParams = (a: StoredAccount) => ({
  id: a.accountId,
  username: a.username,
  role: a.role,
  workspaces: json(a.workspaces),
  hash: a.passwordHash,
  created: a.createdAt,
  changed: a.passwordChangedAt,
  source: a.source,
  groups: json(a.groups),
});

export async function saveAccount(db: Queryable, a: StoredAccount): Promise<void> {
  await db.run(SAVE_ACCOUNT, accountParams(a));
}

export async function deleteAccount(db: Queryable, accountId: string): Promise<void> {
  await db.run('DELETE FROM accounts WHERE account_id = $id', { id: accountId });
}

// ---- sessions --------------------------------------------------------------------------------

interface SessionRow {
  session_id: string;
  account_id: string;
  status: string;
  client: string;
  first_login_at: number;
  last_seen_at: number;
  expires_at: number;
  absolute_expires_at: number;
  ended_at: number | null;
  end_reason: string | null;
  refresh_hash: string;
  refresh_generation: number;
  refresh_rotated_at: number;
  refresh_previous_hash: string | null;
}

function toSession(r: SessionRow, usedHashes: string[], where: string): StoredSession {
  const at = `${where} sessions ${r.session_id}`;
  return parsed(
    sessionSchema,
    {
      sessionId: r.session_id,
      accountId: r.account_id,
      status: r.status,
      client: parsed(clientDescriptionSchema, readJson(r.client, at), at),
      firstLoginAt: r.first_login_at,
      lastSeenAt: r.last_seen_at,
      expiresAt: r.expires_at,
      absoluteExpiresAt: r.absolute_expires_at,
      endedAt: r.ended_at,
      endReason: r.end_reason,
      refresh: {
        hash: r.refresh_hash,
        generation: r.refresh_generation,
        rotatedAt: r.refresh_rotated_at,
        previousHash: r.refresh_previous_hash,
        usedHashes,
      },
    },
    at,
  );
}

const SESSION_COLUMNS = `session_id, account_id, status, client, first_login_at, last_seen_at, expires_at,
  absolute_expires_at, ended_at, end_reason, refresh_hash, refresh_generation, refresh_rotated_at, refresh_previous_hash`;

/** `sessionId` given: that session's family only. */
async function usedHashesOf(db: StorageBackend, sessionId?: string): Promise<Map<string, string[]>> {
  const used = new Map<string, string[]>();
  const rows = await db.all<{ hash: string; session_id: string }>(
    `SELECT t.hash, t.session_id FROM refresh_tokens t JOIN sessions s USING (session_id)
     WHERE t.hash != s.refresh_hash${sessionId === undefined ? '' : ' AND t.session_id = $id'}
     ORDER BY t.session_id, t.generation`,
    sessionId === undefined ? {} : { id: sessionId },
  );
  for (const t of rows) {
    const list = used.get(t.session_id) ?? [];
    list.push(t.hash);
    used.set(t.session_id, list);
  }
  return used;
}

export async function loadSessions(db: StorageBackend): Promise<StoredSession[]> {
  const used = await usedHashesOf(db);
  // SQLite's rowid is insertion order: two logins in the same millisecond keep the order they had
  // in memory. PostgreSQL has no such order; there the tie is broken by id (docs/api.md, Sessions).
  const order = db.dialect === 'sqlite' ? 'first_login_at, rowid' : 'first_login_at, session_id';
  const rows = await db.all<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions ORDER BY ${order}`);
  return rows.map((r) => toSession(r, used.get(r.session_id) ?? [], db.where));
}

/** One session as the table holds it now; undefined when it is gone. */
export async function loadSession(db: StorageBackend, sessionId: string): Promise<StoredSession | undefined> {
  const r = await db.get<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE session_id = $id`, {
    id: sessionId,
  });
  if (!r) return undefined;
  const used = await usedHashesOf(db, sessionId);
  return toSession(r, used.get(sessionId) ?? [], db.where);
}

/** The ids of an account's sessions (another replica may have made some). */
export async function sessionIdsOf(db: StorageBackend, accountId: string): Promise<string[]> {
  const rows = await db.all<{ session_id: string }>(
    'SELECT session_id FROM sessions WHERE account_id = $id',
    {
      id: accountId,
    },
  );
  return rows.map((r) => r.session_id);
}

/** The session a refresh-token hash belongs to (current or earlier), by the table. */
export async function sessionIdOfRefreshHash(db: StorageBackend, hash: string): Promise<string | undefined> {
  const r = await db.get<{ session_id: string }>('SELECT session_id FROM refresh_tokens WHERE hash = $hash', {
    hash,
  });
  return r?.session_id;
}

export const INSERT_SESSION = `INSERT INTO sessions (${SESSION_COLUMNS})
     VALUES ($id, $account, $status, $client, $first, $seen, $expires, $absolute, $ended, $reason, $hash, $gen, $rotated, $previous)`;

export const sessionParams = (s: StoredSession) => ({
  id: s.sessionId,
  account: s.accountId,
  status: s.status,
  client: json(s.client),
  first: s.firstLoginAt,
  seen: s.lastSeenAt,
  expires: s.expiresAt,
  absolute: s.absoluteExpiresAt,
  ended: s.endedAt,
  reason: s.endReason,
  hash: s.refresh.hash,
  gen: s.refresh.generation,
  rotated: s.refresh.rotatedAt,
  previous: s.refresh.previousHash,
});

export const ADD_REFRESH_HASH =
  'INSERT INTO refresh_tokens (hash, session_id, generation) VALUES ($hash, $id, $gen) ON CONFLICT DO NOTHING';

/** The family's hashes with their generations; `usedHashes` are numbered before the current one. */
export function familyOf(s: StoredSession): Array<{ hash: string; id: string; gen: number }> {
  const first = s.refresh.generation - s.refresh.usedHashes.length;
  return [
    ...s.refresh.usedHashes.map((hash, i) => ({ hash, id: s.sessionId, gen: first + i })),
    { hash: s.refresh.hash, id: s.sessionId, gen: s.refresh.generation },
  ];
}

/** The whole row, and the family's hashes. */
export async function insertSession(db: Queryable, s: StoredSession): Promise<void> {
  await db.run(INSERT_SESSION, sessionParams(s));
  for (const h of familyOf(s)) await db.run(ADD_REFRESH_HASH, h);
}

/**
 * A rotation, only if the session's current token is still `expectedHash` and the session is
 * active: of two replicas rotating the same token at once, exactly one changes the row (the
 * other's UPDATE, run after the first commits, matches nothing). False: nothing was written.
 * `grace` is the sealed pair (refresh-grace.ts) the replaced token may fetch within the overlap.
 */
export async function saveRotation(
  db: Queryable,
  s: StoredSession,
  expectedHash: string,
  grace: string | null,
): Promise<boolean> {
  const changed = await db.run(
    `UPDATE sessions SET refresh_hash = $hash, refresh_generation = $gen, refresh_rotated_at = $rotated,
       refresh_previous_hash = $previous, refresh_grace = $grace, expires_at = $expires, last_seen_at = $seen
     WHERE session_id = $id AND refresh_hash = $expected AND status = 'active'`,
    {
      id: s.sessionId,
      hash: s.refresh.hash,
      gen: s.refresh.generation,
      rotated: s.refresh.rotatedAt,
      previous: s.refresh.previousHash,
      grace,
      expires: s.expiresAt,
      seen: s.lastSeenAt,
      expected: expectedHash,
    },
  );
  if (changed === 0) return false;
  await db.run(ADD_REFRESH_HASH, { hash: s.refresh.hash, id: s.sessionId, gen: s.refresh.generation });
  await db.run('DELETE FROM refresh_tokens WHERE session_id = $id AND generation < $oldest', {
    id: s.sessionId,
    oldest: s.refresh.generation - s.refresh.usedHashes.length,
  });
  return true;
}

/** What a replaced token may still fetch: the sealed pair, and when and from which token it was rotated. */
export async function loadGrace(
  db: StorageBackend,
  sessionId: string,
): Promise<{ previousHash: string | null; rotatedAt: number; grace: string | null } | undefined> {
  const r = await db.get<{
    refresh_previous_hash: string | null;
    refresh_rotated_at: number;
    refresh_grace: string | null;
  }>('SELECT refresh_previous_hash, refresh_rotated_at, refresh_grace FROM sessions WHERE session_id = $id', {
    id: sessionId,
  });
  return (
    r && { previousHash: r.refresh_previous_hash, rotatedAt: r.refresh_rotated_at, grace: r.refresh_grace }
  );
}

/** Ends the session unless it has ended already (another replica may have ended it first); true if this did. */
export async function saveSessionEnd(db: Queryable, s: StoredSession): Promise<boolean> {
  const changed = await db.run(
    `UPDATE sessions SET status = $status, ended_at = $ended, end_reason = $reason, refresh_grace = NULL
     WHERE session_id = $id AND status = 'active'`,
    { id: s.sessionId, status: s.status, ended: s.endedAt, reason: s.endReason },
  );
  return changed > 0;
}

export async function saveLastSeen(db: Queryable, s: StoredSession): Promise<void> {
  // Never backwards: another replica may have written a later use.
  await db.run('UPDATE sessions SET last_seen_at = $seen WHERE session_id = $id AND last_seen_at < $seen', {
    id: s.sessionId,
    seen: s.lastSeenAt,
  });
}

export async function deleteSession(db: Queryable, sessionId: string): Promise<void> {
  await db.run('DELETE FROM sessions WHERE session_id = $id', { id: sessionId });
}

// ---- API keys --------------------------------------------------------------------------------

interface ApiKeyRow {
  api_key_id: string;
  account_id: string;
  name: string;
  hash: string;
  hint: string;
  workspaces: string | null;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

function toApiKey(r: ApiKeyRow, where: string): StoredApiKey {
  const at = `${where} api_keys ${r.api_key_id}`;
  return parsed(
    apiKeySchema,
    {
      apiKeyId: r.api_key_id,
      accountId: r.account_id,
      name: r.name,
      hash: r.hash,
      hint: r.hint,
      workspaces: r.workspaces === null ? null : readJson(r.workspaces, at),
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      lastUsedAt: r.last_used_at,
      revokedAt: r.revoked_at,
    },
    at,
  );
}

export async function loadApiKeys(db: StorageBackend): Promise<StoredApiKey[]> {
  const rows = await db.all<ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, api_key_id');
  return rows.map((r) => toApiKey(r, db.where));
}

/** One key by id or by hash, as the table holds it now; undefined when there is none. */
export async function loadApiKey(
  db: StorageBackend,
  by: { id: string } | { hash: string },
): Promise<StoredApiKey | undefined> {
  const r =
    'id' in by
      ? await db.get<ApiKeyRow>('SELECT * FROM api_keys WHERE api_key_id = $id', { id: by.id })
      : await db.get<ApiKeyRow>('SELECT * FROM api_keys WHERE hash = $hash', { hash: by.hash });
  return r && toApiKey(r, db.where);
}

export const INSERT_API_KEY = `INSERT INTO api_keys (api_key_id, account_id, name, hash, hint, workspaces, created_at, expires_at, last_used_at, revoked_at)
     VALUES ($id, $account, $name, $hash, $hint, $workspaces, $created, $expires, $used, $revoked)`;

export const apiKeyParams = (k: StoredApiKey) => ({
  id: k.apiKeyId,
  account: k.accountId,
  name: k.name,
  hash: k.hash,
  hint: k.hint,
  workspaces: k.workspaces === null ? null : json(k.workspaces),
  created: k.createdAt,
  expires: k.expiresAt,
  used: k.lastUsedAt,
  revoked: k.revokedAt,
});

export async function insertApiKey(db: Queryable, k: StoredApiKey): Promise<void> {
  await db.run(INSERT_API_KEY, apiKeyParams(k));
}

/** A revocation, kept if another replica revoked first (the earlier time stays). */
export async function saveApiKeyRevoked(db: Queryable, k: StoredApiKey): Promise<void> {
  await db.run('UPDATE api_keys SET revoked_at = $revoked WHERE api_key_id = $id AND revoked_at IS NULL', {
    id: k.apiKeyId,
    revoked: k.revokedAt,
  });
}

export async function saveApiKeyUse(db: Queryable, k: StoredApiKey): Promise<void> {
  // Never backwards, and never over a revocation: only the use time is this write's.
  await db.run(
    'UPDATE api_keys SET last_used_at = $used WHERE api_key_id = $id AND (last_used_at IS NULL OR last_used_at < $used)',
    { id: k.apiKeyId, used: k.lastUsedAt },
  );
}

export async function deleteApiKeysOf(db: Queryable, accountId: string): Promise<void> {
  await db.run('DELETE FROM api_keys WHERE account_id = $id', { id: accountId });
}
