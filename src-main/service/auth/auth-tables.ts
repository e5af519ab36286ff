/**
 * The auth tables' rows, read and written: accounts, sessions with their refresh-token family,
 * API keys and the signing key. It runs past 300 lines because each table's row mapping (zod
 * check on read, column list on write) is kept next to the others, so a schema change in
 * migrations.ts is answered in one place.
 */
import type { z } from 'zod';
import type { AppDatabase } from '../storage/database';
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

export function readMeta(db: AppDatabase, key: string): unknown {
  const row = db.get<{ value: string }>('SELECT value FROM auth_meta WHERE key = $key', { key });
  return row === undefined ? undefined : readJson(row.value, `${db.path} auth_meta ${key}`);
}

export function writeMeta(db: AppDatabase, key: string, value: unknown): void {
  db.write(`auth_meta ${key}`, () => {
    db.run(
      'INSERT INTO auth_meta (key, value) VALUES ($key, $value) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      { key, value: json(value) },
    );
  });
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
}

export function loadAccounts(db: AppDatabase): StoredAccount[] {
  return db.all<AccountRow>('SELECT * FROM accounts ORDER BY created_at, account_id').map((r) =>
    parsed(
      accountSchema,
      {
        accountId: r.account_id,
        username: r.username,
        role: r.role,
        workspaces: readJson(r.workspaces, `${db.path} accounts ${r.account_id}`),
        passwordHash: r.password_hash,
        createdAt: r.created_at,
        passwordChangedAt: r.password_changed_at,
      },
      `${db.path} accounts ${r.account_id}`,
    ),
  );
}

export function saveAccount(db: AppDatabase, a: StoredAccount): void {
  // An upsert, never REPLACE: a replaced row would cascade into the account's sessions and keys.
  db.run(
    `INSERT INTO accounts (account_id, username, role, workspaces, password_hash, created_at, password_changed_at)
     VALUES ($id, $username, $role, $workspaces, $hash, $created, $changed)
     ON CONFLICT (account_id) DO UPDATE SET username = excluded.username, role = excluded.role,
       workspaces = excluded.workspaces, password_hash = excluded.password_hash,
       password_changed_at = excluded.password_changed_at`,
    {
      id: a.accountId,
      username: a.username,
      role: a.role,
      workspaces: json(a.workspaces),
      hash: a.passwordHash,
      created: a.createdAt,
      changed: a.passwordChangedAt,
    },
  );
}

export function deleteAccount(db: AppDatabase, accountId: string): void {
  db.run('DELETE FROM accounts WHERE account_id = $id', { id: accountId });
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

export function loadSessions(db: AppDatabase): StoredSession[] {
  const used = new Map<string, string[]>();
  for (const t of db.all<{ hash: string; session_id: string }>(
    'SELECT t.hash, t.session_id FROM refresh_tokens t JOIN sessions s USING (session_id) WHERE t.hash != s.refresh_hash ORDER BY t.session_id, t.generation',
  )) {
    const list = used.get(t.session_id) ?? [];
    list.push(t.hash);
    used.set(t.session_id, list);
  }
  // rowid is insertion order: two logins in the same millisecond keep the order they had in memory.
  return db.all<SessionRow>('SELECT * FROM sessions ORDER BY first_login_at, rowid').map((r) => {
    const where = `${db.path} sessions ${r.session_id}`;
    return parsed(
      sessionSchema,
      {
        sessionId: r.session_id,
        accountId: r.account_id,
        status: r.status,
        client: parsed(clientDescriptionSchema, readJson(r.client, where), where),
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
          usedHashes: used.get(r.session_id) ?? [],
        },
      },
      where,
    );
  });
}

/** The whole row, and the family's hashes; `usedHashes` are numbered before the current one. */
export function insertSession(db: AppDatabase, s: StoredSession): void {
  db.run(
    `INSERT INTO sessions (session_id, account_id, status, client, first_login_at, last_seen_at, expires_at,
       absolute_expires_at, ended_at, end_reason, refresh_hash, refresh_generation, refresh_rotated_at, refresh_previous_hash)
     VALUES ($id, $account, $status, $client, $first, $seen, $expires, $absolute, $ended, $reason, $hash, $gen, $rotated, $previous)`,
    {
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
    },
  );
  const first = s.refresh.generation - s.refresh.usedHashes.length;
  s.refresh.usedHashes.forEach((hash, i) => {
    addRefreshHash(db, s.sessionId, hash, first + i);
  });
  addRefreshHash(db, s.sessionId, s.refresh.hash, s.refresh.generation);
}

function addRefreshHash(db: AppDatabase, sessionId: string, hash: string, generation: number) {
  db.run('INSERT OR IGNORE INTO refresh_tokens (hash, session_id, generation) VALUES ($hash, $id, $gen)', {
    hash,
    id: sessionId,
    gen: generation,
  });
}

/** A rotation: the new current token, and the family trimmed to what memory remembers. */
export function saveRotation(db: AppDatabase, s: StoredSession): void {
  db.run(
    `UPDATE sessions SET refresh_hash = $hash, refresh_generation = $gen, refresh_rotated_at = $rotated,
       refresh_previous_hash = $previous, expires_at = $expires, last_seen_at = $seen WHERE session_id = $id`,
    {
      id: s.sessionId,
      hash: s.refresh.hash,
      gen: s.refresh.generation,
      rotated: s.refresh.rotatedAt,
      previous: s.refresh.previousHash,
      expires: s.expiresAt,
      seen: s.lastSeenAt,
    },
  );
  addRefreshHash(db, s.sessionId, s.refresh.hash, s.refresh.generation);
  db.run('DELETE FROM refresh_tokens WHERE session_id = $id AND generation < $oldest', {
    id: s.sessionId,
    oldest: s.refresh.generation - s.refresh.usedHashes.length,
  });
}

export function saveSessionEnd(db: AppDatabase, s: StoredSession): void {
  db.run(
    'UPDATE sessions SET status = $status, ended_at = $ended, end_reason = $reason WHERE session_id = $id',
    { id: s.sessionId, status: s.status, ended: s.endedAt, reason: s.endReason },
  );
}

export function saveLastSeen(db: AppDatabase, s: StoredSession): void {
  db.run('UPDATE sessions SET last_seen_at = $seen WHERE session_id = $id', {
    id: s.sessionId,
    seen: s.lastSeenAt,
  });
}

export function deleteSession(db: AppDatabase, sessionId: string): void {
  db.run('DELETE FROM sessions WHERE session_id = $id', { id: sessionId });
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

export function loadApiKeys(db: AppDatabase): StoredApiKey[] {
  return db.all<ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, api_key_id').map((r) => {
    const where = `${db.path} api_keys ${r.api_key_id}`;
    return parsed(
      apiKeySchema,
      {
        apiKeyId: r.api_key_id,
        accountId: r.account_id,
        name: r.name,
        hash: r.hash,
        hint: r.hint,
        workspaces: r.workspaces === null ? null : readJson(r.workspaces, where),
        createdAt: r.created_at,
        expiresAt: r.expires_at,
        lastUsedAt: r.last_used_at,
        revokedAt: r.revoked_at,
      },
      where,
    );
  });
}

export function insertApiKey(db: AppDatabase, k: StoredApiKey): void {
  db.run(
    `INSERT INTO api_keys (api_key_id, account_id, name, hash, hint, workspaces, created_at, expires_at, last_used_at, revoked_at)
     VALUES ($id, $account, $name, $hash, $hint, $workspaces, $created, $expires, $used, $revoked)`,
    {
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
    },
  );
}

export function saveApiKeyTimes(db: AppDatabase, k: StoredApiKey): void {
  db.run('UPDATE api_keys SET last_used_at = $used, revoked_at = $revoked WHERE api_key_id = $id', {
    id: k.apiKeyId,
    used: k.lastUsedAt,
    revoked: k.revokedAt,
  });
}

export function deleteApiKeysOf(db: AppDatabase, accountId: string): void {
  db.run('DELETE FROM api_keys WHERE account_id = $id', { id: accountId });
}
