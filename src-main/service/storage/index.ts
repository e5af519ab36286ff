import { hostname } from 'node:os';
import type { Logger } from '../logger';
import { ServiceSettings } from '../settings/service-settings';
import { WorkspaceStore } from '../workspaces/store';
import type { StorageBackend } from './backend';
import { confStore } from './conf-store';
import { type AppDatabase, type LegacyImport, openAppDatabase } from './database';
import { DatabaseVersionError, SCHEMA_VERSION } from './migrations';
import { openPostgresBackend, redactUrl } from './postgres-backend';
import type { PostgresOptions } from './postgres-client';
import { type SealableStore, sealable } from './sealed-store';
import { SqliteBackend } from './sqlite-backend';
import { type KeyValueStore, memoryStore } from './store';

/**
 * The service's storage, opened once before anything else starts and handed to its users as plain
 * values: a database Skiff cannot use (a newer schema, an unreadable older file, a server it cannot
 * reach) fails the start and leaves nothing running, and no user waits on a promise of it.
 *
 * - `backend` (backend.ts): the database every store uses — embedded SQLite in the data dir (the
 *   default; `openStorage`, synchronous as before) or PostgreSQL (`--database postgres://…`;
 *   `openDatabaseStorage`), which replicas share.
 * - `db`: the same SQLite database as the synchronous AppDatabase, for users not yet moved to
 *   `backend`; null on PostgreSQL. Transitional: it goes once every user is on `backend`.
 * - `store`: the key-value store for what has not moved into the database (the desktop's own
 *   preferences): the data dir's conf file (`skiff.json`), or the store given (electron-store).
 * - `workspaces`: workspaces, context ids and monitoring flags in the database (workspaces/store.ts),
 *   read at open; the key-value store's `workspaceConfig` is copied in once, the first time.
 * - `settings`: the service's own settings in the database (settings/service-settings.ts), a
 *   KeyValueStore; the key-value store's `appSettings` is copied in once, the first time.
 * - `replicaId`: this process's name among replicas (`--replica-id`, default host name and pid).
 * - `ping()`: reachable and migrated, for readiness; bounded in time, never throws.
 *
 * `close` is called once, after every user has written what it still had: from then on writes are
 * dropped and logged, so a request cut off by close cannot recreate a data dir its owner has
 * removed; closing SQLite checkpoints its WAL into the file, closing PostgreSQL ends its pool and
 * its leases.
 */
export interface Storage {
  db: AppDatabase | null;
  backend: StorageBackend;
  store: SealableStore;
  workspaces: WorkspaceStore;
  settings: ServiceSettings;
  replicaId: string;
  ping(): Promise<StoragePing>;
  close(): Promise<void>;
}

/** What openStorage answers: SQLite, so `db` is there. */
export type SqliteStorage = Storage & { db: AppDatabase };

export type StoragePing = { ok: true } | { ok: false; reason: string };

/** How long ping waits for the database: within readiness's own 2 s bound, so the reason is ours. */
export const PING_TIMEOUT_MS = 1_500;

/** Host name and process id: unique among replicas, and what an operator recognises in a pod list. */
export const defaultReplicaId = (): string => `${hostname()}-${process.pid}`;

export function openStorage(opts: {
  /** Omitted: both in memory (tests). */
  dataDir?: string | undefined;
  /** A store to use instead of the data dir's conf file (the desktop's electron-store, tests). */
  store?: KeyValueStore | undefined;
  logger: Logger;
  /** Older files to fill a new database from (auth/legacy-import.ts). */
  imports?: readonly LegacyImport[];
  replicaId?: string | undefined;
}): SqliteStorage {
  const { dataDir, logger } = opts;
  const db = openAppDatabase({ dataDir, logger, ...(opts.imports ? { imports: opts.imports } : {}) });
  const store = sealable(opts.store ?? (dataDir ? confStore(dataDir, 'skiff') : memoryStore()), logger);
  const backend = new SqliteBackend(db, logger);
  let workspaces: WorkspaceStore;
  let settings: ServiceSettings;
  try {
    workspaces = WorkspaceStore.openSqlite({ db, backend, conf: store, logger });
    settings = ServiceSettings.openSqlite({ db, backend, conf: store, logger });
  } catch (err) {
    // A conf file Skiff cannot read (WorkspaceConfigError): nothing stays open.
    db.close();
    throw err;
  }
  // In-process on SQLite: listening is in place at once.
  void workspaces.start();
  void settings.start();
  return { ...storage(backend, db, store, workspaces, settings, opts.replicaId), db };
}

/**
 * PostgreSQL (`--database`): connects and migrates under the migration lock before answering.
 * Throws DatabaseVersionError for a database newer than this code (left untouched), and
 * DatabaseOpenError for one it cannot reach or log in to, after closing what it opened; messages
 * name the URL without its password.
 */
/** The database could not be opened (unreachable, refused the login, …); the message names it without its password. */
export class DatabaseOpenError extends Error {}

export async function openDatabaseStorage(opts: {
  url: string;
  logger: Logger;
  /** The key-value store beside the database (a data dir's conf file); omitted: in memory. */
  store?: KeyValueStore | undefined;
  replicaId?: string | undefined;
  pool?: PostgresOptions;
}): Promise<Storage> {
  let backend: StorageBackend;
  try {
    backend = await openPostgresBackend(opts.url, opts.logger, opts.pool);
  } catch (err) {
    if (err instanceof DatabaseVersionError) throw err;
    throw new DatabaseOpenError(`cannot open the database ${redactUrl(opts.url)}: ${(err as Error).message}`);
  }
  const store = sealable(opts.store ?? memoryStore(), opts.logger);
  let workspaces: WorkspaceStore;
  let settings: ServiceSettings;
  try {
    workspaces = await WorkspaceStore.open({ backend, conf: store, logger: opts.logger });
    await workspaces.start();
    settings = await ServiceSettings.open({ backend, conf: store, logger: opts.logger });
    await settings.start();
  } catch (err) {
    await backend.close();
    throw err;
  }
  return storage(backend, null, store, workspaces, settings, opts.replicaId);
}

function storage(
  backend: StorageBackend,
  db: AppDatabase | null,
  store: SealableStore,
  workspaces: WorkspaceStore,
  settings: ServiceSettings,
  replicaId: string | undefined,
): Storage {
  return {
    db,
    backend,
    store,
    workspaces,
    settings,
    replicaId: replicaId ?? defaultReplicaId(),
    ping: () => ping(backend),
    async close() {
      store.seal();
      await Promise.all([workspaces.close(), settings.close()]);
      await backend.close();
    },
  };
}

/** Answers within PING_TIMEOUT_MS: a database that hangs is as unready as one that refuses. */
async function ping(backend: StorageBackend): Promise<StoragePing> {
  if (backend.isSealed) return { ok: false, reason: 'the service is closing' };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<StoragePing>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, reason: `the database did not answer within ${PING_TIMEOUT_MS / 1000} s` }),
      PING_TIMEOUT_MS,
    );
  });
  const answer = (async (): Promise<StoragePing> => {
    try {
      const version = await schemaVersion(backend);
      // Newer is a rolling upgrade under way: this replica keeps serving until it is replaced.
      return version >= SCHEMA_VERSION
        ? { ok: true }
        : {
            ok: false,
            reason: `the database is at schema version ${version}, this Skiff needs ${SCHEMA_VERSION}`,
          };
    } catch (err) {
      return { ok: false, reason: `the database did not answer: ${(err as Error).message}` };
    }
  })();
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function schemaVersion(backend: StorageBackend): Promise<number> {
  if (backend.dialect === 'sqlite') {
    const row = await backend.get<{ user_version: number }>('PRAGMA user_version');
    return row!.user_version;
  }
  const row = await backend.get<{ v: number | null }>('SELECT max(version) AS v FROM skiff_schema');
  return row!.v ?? 0;
}
