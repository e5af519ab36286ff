import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { AppDatabase } from '../storage/database';
import { SqliteBackend } from '../storage/sqlite-backend';
import { loadAccounts, loadApiKeys, readMeta } from './auth-tables';
import { legacyAuthImport } from './legacy-import';
import { CLIENT } from './session-store.test-support';
import { T0 } from './stack.test-support';
import { AuthStateError, type StoredAccount, type StoredActivity, type StoredApiKey } from './state';

/**
 * The import of the older JSON files, one rule at a time: each test writes its own data dir and
 * fills an in-memory database from it.
 */

const cleanup: Array<() => void> = [];
/** The filled database as the auth stores read it. */
const seen = (db: AppDatabase) => new SqliteBackend(db, silentLogger());
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

function dataDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'skiff-legacy-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

function newDb() {
  const db = AppDatabase.open(':memory:', silentLogger());
  cleanup.push(() => db.close());
  return db;
}

const account = (id: string): StoredAccount => ({
  accountId: id,
  username: `user-${id}`,
  role: 'member',
  workspaces: [],
  passwordHash: 'x',
  createdAt: T0,
  passwordChangedAt: T0,
  source: 'local',
  groups: [],
});

const apiKey = (id: string, accountId: string): StoredApiKey => ({
  apiKeyId: id,
  accountId,
  name: id,
  hash: `hash-${id}`,
  hint: 'skiff_ak_…',
  workspaces: null,
  createdAt: T0,
  expiresAt: T0 + 1_000_000,
  lastUsedAt: null,
  revokedAt: null,
});

const entry = (id: string, client: StoredActivity['client']): StoredActivity => ({
  activityId: id,
  type: 'login',
  at: T0,
  accountId: 'acc-log',
  sessionId: null,
  apiKeyId: null,
  client,
  detail: null,
});

it('an auth file that is JSON but not an object is refused, naming the file', async () => {
  for (const content of ['[]', 'null', '42', '"accounts"']) {
    const dir = dataDir({ 'auth.json': content });
    const fill = () => legacyAuthImport(dir).fill(newDb());
    expect(fill).toThrow(AuthStateError);
    expect(fill).toThrow(join(dir, 'auth.json'));
  }
});

it('keys missing from the files import as empty, and either file may be missing', async () => {
  const onlySigningKey = newDb();
  legacyAuthImport(
    dataDir({ 'auth.json': { signingKey: { kid: 'k-only' } }, 'auth-activity.json': {} }),
  ).fill(onlySigningKey);
  expect(await readMeta(seen(onlySigningKey), 'signingKey')).toEqual({ kid: 'k-only' });
  expect(await loadAccounts(seen(onlySigningKey))).toEqual([]);

  const onlyLog = newDb();
  legacyAuthImport(dataDir({ 'auth-activity.json': { activity: [entry('log-only', null)] } })).fill(onlyLog);
  expect(onlyLog.all('SELECT activity_id FROM activity')).toEqual([{ activity_id: 'log-only' }]);
  expect(await readMeta(seen(onlyLog), 'signingKey')).toBeUndefined();

  const onlyAccounts = newDb();
  legacyAuthImport(dataDir({ 'auth.json': { accounts: [account('acc-alone')] } })).fill(onlyAccounts);
  expect((await loadAccounts(seen(onlyAccounts))).map((a) => a.accountId)).toEqual(['acc-alone']);
  expect(onlyAccounts.all('SELECT * FROM activity')).toEqual([]);
});

it('the signing key is carried over as it was', async () => {
  const db = newDb();
  const signingKey = { kid: 'k-legacy', secret: 'c2VjcmV0', createdAt: T0 };
  legacyAuthImport(dataDir({ 'auth.json': { accounts: [account('acc-sk')], signingKey } })).fill(db);
  expect(await readMeta(seen(db), 'signingKey')).toEqual(signingKey);
});

it('an API key of an account already removed is not carried over', async () => {
  const db = newDb();
  legacyAuthImport(
    dataDir({
      'auth.json': {
        accounts: [account('acc-here')],
        apiKeys: [apiKey('key-orphan', 'acc-gone'), apiKey('key-here', 'acc-here')],
      },
    }),
  ).fill(db);
  expect((await loadApiKeys(seen(db))).map((k) => k.apiKeyId)).toEqual(['key-here']);
});

it('a log entry keeps its device, and one without a device is stored without one', async () => {
  const db = newDb();
  legacyAuthImport(
    dataDir({ 'auth-activity.json': { activity: [entry('with-device', CLIENT), entry('no-device', null)] } }),
  ).fill(db);
  const rows = db.all<{ activity_id: string; client: string | null }>(
    'SELECT activity_id, client FROM activity ORDER BY activity_id',
  );
  expect(rows.map((r) => r.activity_id)).toEqual(['no-device', 'with-device']);
  // SQL NULL, not the JSON text "null".
  expect(rows[0]!.client).toBeNull();
  expect(JSON.parse(rows[1]!.client!)).toEqual(CLIENT);
});

it('an import that would write fewer rows than the file holds is refused', async () => {
  // Two accounts with one id: the second would overwrite the first, losing an account.
  const dir = dataDir({
    'auth.json': { accounts: [account('acc-twice'), { ...account('acc-twice'), username: 'b' }] },
  });
  const fill = () => legacyAuthImport(dir).fill(newDb());
  expect(fill).toThrow(AuthStateError);
  expect(fill).toThrow(/accounts/);
});

it('the imported files are renamed with the UTC time of the import, and leftovers of killed writes removed', async () => {
  const dir = dataDir({
    'auth.json': { accounts: [] },
    'auth-activity.json': { activity: [] },
    'auth.json.tmp-123abc': '{"acc',
    'other.json': '{}',
  });
  legacyAuthImport(dir, () => new Date('2026-01-02T03:04:05.678Z')).done();
  expect(readdirSync(dir).sort()).toEqual([
    'auth-activity.json.migrated-2026-01-02T03-04-05-678Z.bak',
    'auth.json.migrated-2026-01-02T03-04-05-678Z.bak',
    'other.json',
  ]);
});
