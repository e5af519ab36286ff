import { describe, expect, it } from 'vitest';
import type { StorageBackend } from '../storage/backend';
import {
  AuthTableError,
  deleteAccount,
  deleteApiKeysOf,
  insertApiKey,
  insertSession,
  loadAccount,
  loadAccounts,
  loadApiKey,
  loadApiKeys,
  loadGrace,
  loadSession,
  loadSessions,
  readMeta,
  saveAccount,
  saveApiKeyRevoked,
  saveApiKeyUse,
  saveLastSeen,
  saveRotation,
  saveSessionEnd,
  sessionIdOfRefreshHash,
  sessionIdsOf,
} from './auth-tables';
import { AUTH_BACKENDS, openBackend, withPostgres } from './backends.test-support';
import { CLIENT } from './session-store.test-support';
import { T0 } from './stack.test-support';
import type { StoredAccount, StoredApiKey, StoredSession } from './state';

/**
 * The auth tables' rows written and read back, the same tests on both backends (SQLite in
 * memory, a real PostgreSQL server): one database per test.
 */

withPostgres();

const account = (id: string): StoredAccount => ({
  accountId: id,
  username: `user-${id}`,
  role: 'member',
  workspaces: ['ws-b', 'ws-a'],
  passwordHash: 'x',
  createdAt: T0,
  passwordChangedAt: T0,
  source: 'local',
  groups: [],
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

const session = (
  id: string,
  accountId: string,
  refresh: Partial<StoredSession['refresh']> = {},
): StoredSession => ({
  sessionId: id,
  accountId,
  status: 'active',
  client: CLIENT,
  firstLoginAt: T0,
  lastSeenAt: T0,
  expiresAt: T0 + 1_000,
  absoluteExpiresAt: T0 + 2_000,
  endedAt: null,
  endReason: null,
  refresh: { hash: `${id}-h1`, generation: 1, rotatedAt: T0, previousHash: null, usedHashes: [], ...refresh },
});

/** Rejects with an AuthTableError; its message. */
async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AuthTableError);
  return (err as Error).message;
}

describe.each(AUTH_BACKENDS)('the auth tables on $name', ({ name, skip }) => {
  async function newDb(accountIds: readonly string[]): Promise<StorageBackend> {
    const db = await openBackend(name);
    await db.transaction('accounts', async (tx) => {
      for (const id of accountIds) await saveAccount(tx, account(id));
    });
    return db;
  }

  it.skipIf(skip)(
    'an account row Skiff cannot read stops the load, naming the table, the account and the field',
    async () => {
      const db = await newDb(['acc-fine']);
      await db.run(
        `INSERT INTO accounts VALUES ('acc-odd', 'odd', 'member', '{"ws": 1}', 'x', 1, 1, 'local', '[]')`,
      );
      const message = await refusal(loadAccounts(db));
      expect(message).toContain(`${db.where} accounts acc-odd`);
      expect(message).toContain('"workspaces"');
      expect(await refusal(loadAccount(db, 'acc-odd'))).toContain(`${db.where} accounts acc-odd`);
    },
  );

  it.skipIf(skip)('a JSON column that is not JSON stops the load, naming the table and the row', async () => {
    const db = await newDb([]);
    await db.run(
      "INSERT INTO accounts VALUES ('acc-garbled', 'garbled', 'member', '[\"ws', 'x', 1, 1, 'local', '[]')",
    );
    expect(await refusal(loadAccounts(db))).toContain(`${db.where} accounts acc-garbled: not JSON`);
    await db.run("INSERT INTO auth_meta (key, value) VALUES ('signingKey', '{oops')");
    expect(await refusal(readMeta(db, 'signingKey'))).toContain(`${db.where} auth_meta signingKey: not JSON`);
    expect(await readMeta(db, 'nothing')).toBeUndefined();
  });

  it.skipIf(skip)('a session or API key row Skiff cannot read names its table and id', async () => {
    const db = await newDb(['acc-rows']);
    await db.run(
      `INSERT INTO sessions (session_id, account_id, status, client, first_login_at, last_seen_at, expires_at,
         absolute_expires_at, ended_at, end_reason, refresh_hash, refresh_generation, refresh_rotated_at, refresh_previous_hash)
       VALUES ('sess-odd', 'acc-rows', 'active', $client, 1, 1, 2, 3, NULL, NULL, 'h', 0, 1, NULL)`,
      { client: JSON.stringify({ ...CLIENT, clientType: 'toaster' }) },
    );
    expect(await refusal(loadSessions(db))).toContain(`${db.where} sessions sess-odd`);
    expect(await refusal(loadSession(db, 'sess-odd'))).toContain(`${db.where} sessions sess-odd`);
    await db.run(
      `INSERT INTO api_keys (api_key_id, account_id, name, hash, hint, workspaces, created_at, expires_at, last_used_at, revoked_at)
       VALUES ('key-odd', 'acc-rows', 'k', 'h', 'hint', '{"not": "a list"}', 1, 2, NULL, NULL)`,
    );
    expect(await refusal(loadApiKeys(db))).toContain(`${db.where} api_keys key-odd`);
    expect(await refusal(loadApiKey(db, { id: 'key-odd' }))).toContain(`${db.where} api_keys key-odd`);
  });

  it.skipIf(skip)(
    "a session's used refresh hashes read back oldest first, whole and one by one",
    async () => {
      const db = await newDb(['acc-family', 'acc-other']);
      // Hashes named against their order, so a sort by name cannot pass for generation order.
      const s = session('sess-family', 'acc-family', {
        hash: 'h-m',
        generation: 7,
        previousHash: 'h-a',
        usedHashes: ['h-z', 'h-b', 'h-a'],
      });
      const other = session('sess-other', 'acc-other', { hash: 'o-2', generation: 2, usedHashes: ['o-1'] });
      await db.transaction('sessions', async (tx) => {
        await insertSession(tx, s);
        await insertSession(tx, other);
      });
      expect(await loadSessions(db)).toEqual([s, other]);
      expect(await loadSession(db, 'sess-family')).toEqual(s);
      expect(await loadSession(db, 'sess-none')).toBeUndefined();
      expect(await sessionIdOfRefreshHash(db, 'h-b')).toBe('sess-family');
      expect(await sessionIdOfRefreshHash(db, 'o-2')).toBe('sess-other');
      expect(await sessionIdOfRefreshHash(db, 'h-none')).toBeUndefined();
      expect(await sessionIdsOf(db, 'acc-family')).toEqual(['sess-family']);
    },
  );

  it.skipIf(skip)('logins in the same millisecond read back in the order they were written', async () => {
    const db = await newDb(['acc-tie']);
    // Ids against their order: SQLite keeps the insertion order, PostgreSQL orders by id.
    const ids = name === 'sqlite' ? ['sess-c', 'sess-a', 'sess-b'] : ['sess-a', 'sess-b', 'sess-c'];
    for (const id of ids) await db.transaction('s', (tx) => insertSession(tx, session(id, 'acc-tie')));
    expect((await loadSessions(db)).map((s) => s.sessionId)).toEqual(ids);
  });

  it.skipIf(skip)(
    'a rotation is written only over the token it replaces, with its overlap pair',
    async () => {
      const db = await newDb(['acc-rot']);
      const s = session('sess-rot', 'acc-rot');
      await db.transaction('s', (tx) => insertSession(tx, s));
      const next: StoredSession = {
        ...s,
        expiresAt: T0 + 1_500,
        lastSeenAt: T0 + 5,
        refresh: {
          hash: 'h2',
          generation: 2,
          rotatedAt: T0 + 5,
          previousHash: s.refresh.hash,
          usedHashes: [s.refresh.hash],
        },
      };
      let won: boolean[] = [];
      await db.transaction('rotate', async (tx) => {
        won = [
          await saveRotation(tx, next, s.refresh.hash, 'sealed-1'),
          await saveRotation(tx, next, s.refresh.hash, 'sealed-2'),
        ];
      });
      // The second asked to replace a token that is no longer current: nothing of it was written.
      expect(won).toEqual([true, false]);
      expect(await loadSession(db, 'sess-rot')).toEqual(next);
      expect(await loadGrace(db, 'sess-rot')).toEqual({
        previousHash: s.refresh.hash,
        rotatedAt: T0 + 5,
        grace: 'sealed-1',
      });
      expect(await loadGrace(db, 'sess-none')).toBeUndefined();
      // An ended session is never rotated, and its overlap pair is gone.
      const ended = { ...next, status: 'logged_out' as const, endedAt: T0 + 9, endReason: 'logout' as const };
      let endedNow: boolean[] = [];
      await db.transaction('end', async (tx) => {
        endedNow = [
          await saveSessionEnd(tx, ended),
          await saveSessionEnd(tx, { ...ended, endReason: 'expired' }),
        ];
      });
      expect(endedNow).toEqual([true, false]);
      expect(await loadSession(db, 'sess-rot')).toEqual(ended);
      expect((await loadGrace(db, 'sess-rot'))?.grace).toBeNull();
      const third = {
        ...next,
        refresh: { ...next.refresh, hash: 'h3', generation: 3, previousHash: 'h2', usedHashes: ['h1', 'h2'] },
      };
      let late = true;
      await db.transaction('late', async (tx) => {
        late = await saveRotation(tx, third, 'h2', null);
      });
      expect(late).toBe(false);
      expect(await sessionIdOfRefreshHash(db, 'h3')).toBeUndefined();
    },
  );

  it.skipIf(skip)('a rotation keeps the newest tokens of the family and forgets older ones', async () => {
    const db = await newDb(['acc-trim']);
    const s = session('sess-trim', 'acc-trim', {
      hash: 't3',
      generation: 3,
      previousHash: 't2',
      usedHashes: ['t1', 't2'],
    });
    await db.transaction('s', (tx) => insertSession(tx, s));
    const next = {
      ...s,
      refresh: { ...s.refresh, hash: 't4', generation: 4, previousHash: 't3', usedHashes: ['t3'] },
    };
    await db.transaction('r', async (tx) => {
      await saveRotation(tx, next, 't3', null);
    });
    expect(await loadSession(db, 'sess-trim')).toEqual(next);
    expect(await sessionIdOfRefreshHash(db, 't2')).toBeUndefined();
  });

  it.skipIf(skip)(
    'last seen and last used never move backwards, and the first revocation stands',
    async () => {
      const db = await newDb(['acc-times']);
      const s = session('sess-times', 'acc-times');
      const k = apiKey('key-times', 'acc-times', null);
      await db.transaction('rows', async (tx) => {
        await insertSession(tx, s);
        await insertApiKey(tx, k);
        await saveLastSeen(tx, { ...s, lastSeenAt: T0 + 50 });
        await saveLastSeen(tx, { ...s, lastSeenAt: T0 + 20 });
        await saveApiKeyUse(tx, { ...k, lastUsedAt: T0 + 70 });
        await saveApiKeyUse(tx, { ...k, lastUsedAt: T0 + 30 });
        await saveApiKeyRevoked(tx, { ...k, revokedAt: T0 + 80 });
        await saveApiKeyRevoked(tx, { ...k, revokedAt: T0 + 90 });
        await saveApiKeyUse(tx, { ...k, lastUsedAt: T0 + 95 });
      });
      expect((await loadSession(db, 'sess-times'))?.lastSeenAt).toBe(T0 + 50);
      expect(await loadApiKey(db, { hash: k.hash })).toEqual({
        ...k,
        lastUsedAt: T0 + 95,
        revokedAt: T0 + 80,
      });
      expect(await loadApiKey(db, { hash: 'hash-none' })).toBeUndefined();
      expect(await loadApiKey(db, { id: 'key-none' })).toBeUndefined();
    },
  );

  it.skipIf(skip)('an API key keeps its workspace limit, and a key without one stays unlimited', async () => {
    const db = await newDb(['acc-keys']);
    const limited = apiKey('key-limited', 'acc-keys', ['ws-z', 'ws-a']);
    const unlimited = apiKey('key-unlimited', 'acc-keys', null);
    await db.transaction('keys', async (tx) => {
      await insertApiKey(tx, unlimited);
      await insertApiKey(tx, limited);
    });
    expect(await loadApiKeys(db)).toEqual([limited, unlimited]);
    expect(await loadApiKey(db, { id: 'key-limited' })).toEqual(limited);
  });

  it.skipIf(skip)("deleting an account or its API keys leaves other accounts' rows alone", async () => {
    const db = await newDb(['acc-stay', 'acc-go', 'acc-keyless']);
    await db.transaction('keys', async (tx) => {
      for (const k of [
        apiKey('key-go-1', 'acc-go', null),
        apiKey('key-stay', 'acc-stay', null),
        apiKey('key-go-2', 'acc-go', ['ws-a']),
      ])
        await insertApiKey(tx, k);
      await deleteApiKeysOf(tx, 'acc-go');
    });
    expect((await loadApiKeys(db)).map((k) => k.apiKeyId)).toEqual(['key-stay']);
    expect((await loadAccounts(db)).map((a) => a.accountId)).toEqual(['acc-go', 'acc-keyless', 'acc-stay']);
    await db.transaction('del', (tx) => deleteAccount(tx, 'acc-keyless'));
    expect((await loadAccounts(db)).map((a) => a.accountId)).toEqual(['acc-go', 'acc-stay']);
    expect(await loadAccount(db, 'acc-keyless')).toBeUndefined();
    expect(await loadAccount(db, 'acc-go')).toEqual(account('acc-go'));
  });
});
