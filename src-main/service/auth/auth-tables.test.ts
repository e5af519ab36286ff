import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { AppDatabase } from '../storage/database';
import {
  AuthTableError,
  deleteAccount,
  deleteApiKeysOf,
  insertApiKey,
  insertSession,
  loadAccounts,
  loadApiKeys,
  loadSessions,
  readMeta,
  saveAccount,
} from './auth-tables';
import { CLIENT } from './session-store.test-support';
import { T0 } from './stack.test-support';
import type { StoredAccount, StoredApiKey, StoredSession } from './state';

/** The auth tables' rows written and read back over an in-memory database, one per test. */

const open: AppDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function newDb(accountIds: readonly string[]) {
  const db = AppDatabase.open(':memory:', silentLogger());
  open.push(db);
  db.write('accounts', () => {
    for (const id of accountIds) saveAccount(db, account(id));
  });
  return db;
}

const account = (id: string): StoredAccount => ({
  accountId: id,
  username: `user-${id}`,
  role: 'member',
  workspaces: ['ws-b', 'ws-a'],
  passwordHash: 'x',
  createdAt: T0,
  passwordChangedAt: T0,
});

const apiKey = (id: string, accountId: string, workspaces: string[] | null): StoredApiKey => ({
  apiKeyId: id,
  accountId,
  name: id,
  hash: `hash-${id}`,
  hint: 'skiff_ak_…',
  workspaces,
  createdAt: T0,
  expiresAt: T0 + 1_000_000,
  lastUsedAt: null,
  revokedAt: null,
});

/** Runs `fn`, expecting an AuthTableError, and returns its message. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AuthTableError);
    return (err as Error).message;
  }
  throw new Error('expected an AuthTableError');
}

it('an account row Skiff cannot read stops the load, naming the table, the account and the field', () => {
  const db = newDb(['acc-fine']);
  db.run(`INSERT INTO accounts VALUES ('acc-odd', 'odd', 'member', '{"ws": 1}', 'x', 1, 1)`);
  const message = refusal(() => loadAccounts(db));
  expect(message).toContain(`${db.path} accounts acc-odd`);
  expect(message).toContain('"workspaces"');
});

it('a JSON column that is not JSON stops the load, naming the table and the row', () => {
  const db = newDb([]);
  db.run("INSERT INTO accounts VALUES ('acc-garbled', 'garbled', 'member', '[\"ws', 'x', 1, 1)");
  expect(refusal(() => loadAccounts(db))).toContain(`${db.path} accounts acc-garbled: not JSON`);
  db.run("INSERT INTO auth_meta (key, value) VALUES ('signingKey', '{oops')");
  expect(refusal(() => readMeta(db, 'signingKey'))).toContain(`${db.path} auth_meta signingKey: not JSON`);
});

it('a session or API key row Skiff cannot read names its table and id', () => {
  const db = newDb(['acc-rows']);
  db.run(
    `INSERT INTO sessions (session_id, account_id, status, client, first_login_at, last_seen_at, expires_at,
       absolute_expires_at, ended_at, end_reason, refresh_hash, refresh_generation, refresh_rotated_at, refresh_previous_hash)
     VALUES ('sess-odd', 'acc-rows', 'active', $client, 1, 1, 2, 3, NULL, NULL, 'h', 0, 1, NULL)`,
    { client: JSON.stringify({ ...CLIENT, clientType: 'toaster' }) },
  );
  expect(refusal(() => loadSessions(db))).toContain(`${db.path} sessions sess-odd`);
  db.run(
    `INSERT INTO api_keys (api_key_id, account_id, name, hash, hint, workspaces, created_at, expires_at, last_used_at, revoked_at)
     VALUES ('key-odd', 'acc-rows', 'k', 'h', 'hint', '{"not": "a list"}', 1, 2, NULL, NULL)`,
  );
  expect(refusal(() => loadApiKeys(db))).toContain(`${db.path} api_keys key-odd`);
});

it("a session's used refresh hashes read back oldest first", () => {
  const db = newDb(['acc-family']);
  const session: StoredSession = {
    sessionId: 'sess-family',
    accountId: 'acc-family',
    status: 'active',
    client: CLIENT,
    firstLoginAt: T0,
    lastSeenAt: T0,
    expiresAt: T0 + 1_000,
    absoluteExpiresAt: T0 + 2_000,
    endedAt: null,
    endReason: null,
    // Hashes named against their order, so a sort by name cannot pass for generation order.
    refresh: {
      hash: 'h-m',
      generation: 7,
      rotatedAt: T0,
      previousHash: 'h-a',
      usedHashes: ['h-z', 'h-b', 'h-a'],
    },
  };
  insertSession(db, session);
  expect(loadSessions(db)).toEqual([session]);
});

it('an API key keeps its workspace limit, and a key without one stays unlimited', () => {
  const db = newDb(['acc-keys']);
  const limited = apiKey('key-limited', 'acc-keys', ['ws-z', 'ws-a']);
  const unlimited = apiKey('key-unlimited', 'acc-keys', null);
  insertApiKey(db, unlimited);
  insertApiKey(db, limited);
  expect(loadApiKeys(db)).toEqual([limited, unlimited]);
});

it("deleting an account or its API keys leaves other accounts' rows alone", () => {
  const db = newDb(['acc-stay', 'acc-go', 'acc-keyless']);
  for (const k of [
    apiKey('key-go-1', 'acc-go', null),
    apiKey('key-stay', 'acc-stay', null),
    apiKey('key-go-2', 'acc-go', ['ws-a']),
  ])
    insertApiKey(db, k);
  deleteApiKeysOf(db, 'acc-go');
  expect(loadApiKeys(db).map((k) => k.apiKeyId)).toEqual(['key-stay']);
  expect(loadAccounts(db).map((a) => a.accountId)).toEqual(['acc-go', 'acc-keyless', 'acc-stay']);
  deleteAccount(db, 'acc-keyless');
  expect(loadAccounts(db).map((a) => a.accountId)).toEqual(['acc-go', 'acc-stay']);
});
