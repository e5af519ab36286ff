import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { AppDatabase, LegacyImport } from '../storage/database';
import type { KeyValueStore } from '../storage/store';
import {
  ADD_REFRESH_HASH,
  accountParams,
  apiKeyParams,
  familyOf,
  INSERT_API_KEY,
  INSERT_SESSION,
  SAVE_ACCOUNT,
  sessionParams,
} from './auth-tables';
import {
  AuthStateError,
  accountSchema,
  activitySchema,
  apiKeySchema,
  loadState,
  type StoredActivity,
  sessionSchema,
} from './state';

/** The files older Skiff versions kept authentication in (through `conf`). */
export const LEGACY_AUTH_FILES = ['auth.json', 'auth-activity.json'] as const;

/** `conf` writes a temporary file and renames it; a killed write leaves `<file>.tmp-…` behind. */
const isLeftover = (name: string) => LEGACY_AUTH_FILES.some((f) => name.startsWith(`${f}.tmp-`));

function readJsonFile(path: string): KeyValueStore {
  let data: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('not an object');
    data = parsed as Record<string, unknown>;
  } catch (err) {
    throw new AuthStateError(
      `${path}: not a JSON object (${(err as Error).message}). Fix or remove it; Skiff does not overwrite authentication state it cannot read.`,
    );
  }
  return { path, get: (key) => data[key], set: () => {}, delete: () => {} };
}

const count = (db: AppDatabase, table: string) =>
  db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)?.n;

function insertActivity(db: AppDatabase, e: StoredActivity) {
  db.run(
    `INSERT OR IGNORE INTO activity (activity_id, type, at, account_id, session_id, api_key_id, client, detail)
     VALUES ($id, $type, $at, $account, $session, $key, $client, $detail)`,
    {
      id: e.activityId,
      type: e.type,
      at: e.at,
      account: e.accountId,
      session: e.sessionId,
      key: e.apiKeyId,
      client: e.client === null ? null : JSON.stringify(e.client),
      detail: e.detail,
    },
  );
}

/**
 * The first start on a data dir an older Skiff wrote: accounts, sessions (with their refresh
 * token hashes), API keys, the signing key and the activity log move into the database. Every
 * value is validated first; anything unreadable stops the start and changes nothing. Once the
 * database is in place the JSON files are renamed `<file>.migrated-<UTC time>.bak` (kept as a
 * backup, never read again) and temporary files of killed writes are removed.
 */
export function legacyAuthImport(dataDir: string, stamp: () => Date = () => new Date()): LegacyImport {
  const present = () => LEGACY_AUTH_FILES.filter((f) => existsSync(join(dataDir, f)));
  return {
    name: 'auth JSON files',
    pending: () => present().length > 0 || readdirSync(dataDir).some(isLeftover),
    fill(db) {
      const files = present();
      const auth = files.includes('auth.json') ? readJsonFile(join(dataDir, 'auth.json')) : undefined;
      const log = files.includes('auth-activity.json')
        ? readJsonFile(join(dataDir, 'auth-activity.json'))
        : undefined;
      const accounts = auth ? loadState(auth, 'accounts', z.array(accountSchema), []) : [];
      const known = new Set(accounts.map((a) => a.accountId));
      // A session or key of an account already removed could not be used; it is not carried over.
      const sessions = (auth ? loadState(auth, 'sessions', z.array(sessionSchema), []) : []).filter((s) =>
        known.has(s.accountId),
      );
      const apiKeys = (auth ? loadState(auth, 'apiKeys', z.array(apiKeySchema), []) : []).filter((k) =>
        known.has(k.accountId),
      );
      const signingKey = auth?.get('signingKey');
      const activity = log ? loadState(log, 'activity', z.array(activitySchema), []) : [];

      // Inside SQLite's synchronous open: the same statements auth-tables.ts runs, run directly.
      for (const a of accounts) db.run(SAVE_ACCOUNT, accountParams(a));
      for (const s of sessions) {
        db.run(INSERT_SESSION, sessionParams(s));
        for (const h of familyOf(s)) db.run(ADD_REFRESH_HASH, h);
      }
      for (const k of apiKeys) db.run(INSERT_API_KEY, apiKeyParams(k));
      if (signingKey !== undefined) {
        db.run('INSERT INTO auth_meta (key, value) VALUES ($key, $value)', {
          key: 'signingKey',
          value: JSON.stringify(signingKey),
        });
      }
      for (const e of activity) insertActivity(db, e);

      const expected: Array<[string, number]> = [
        ['accounts', accounts.length],
        ['sessions', sessions.length],
        ['api_keys', apiKeys.length],
        ['activity', new Set(activity.map((e) => e.activityId)).size],
      ];
      for (const [table, n] of expected) {
        if (count(db, table) !== n)
          throw new AuthStateError(`importing ${table}: wrote ${count(db, table)} rows of ${n}`);
      }
    },
    done() {
      const suffix = `.migrated-${stamp().toISOString().replace(/[:.]/g, '-')}.bak`;
      for (const f of present()) renameSync(join(dataDir, f), join(dataDir, `${f}${suffix}`));
      for (const name of readdirSync(dataDir))
        if (isLeftover(name)) rmSync(join(dataDir, name), { force: true });
    },
  };
}
