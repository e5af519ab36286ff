import type { Logger } from '../logger';
import { confStore } from './conf-store';
import { type AppDatabase, type LegacyImport, openAppDatabase } from './database';
import { type SealableStore, sealable } from './sealed-store';
import { type KeyValueStore, memoryStore } from './store';

/**
 * The service's storage, opened once by createService before anything else starts and handed to
 * its users as plain values: a data dir Skiff cannot use (a newer schema, an unreadable older
 * file) fails createService and leaves nothing running, and no user waits on a promise of it.
 *
 * - `db`, the SQLite database (database.ts): accounts, sessions, API keys, activity (auth) and the
 *   event history. One file, one connection, shared.
 * - `store`, the conf file (`skiff.json`): settings, workspaces, their members and monitoring flags.
 *   They stay in conf for now because issue 25 moves workspaces, members, monitoring flags and
 *   service settings into the database with a migration; only the desktop window's local
 *   preferences will stay in electron-store.
 *
 * `close` is called once, after every user has written what it still had: from then on both are
 * sealed (writes dropped and logged), so a request cut off by close cannot recreate a data dir its
 * owner has removed; closing the database checkpoints its WAL into the file.
 */
export interface Storage {
  db: AppDatabase;
  store: SealableStore;
  close(): void;
}

export function openStorage(opts: {
  /** Omitted: both in memory (tests). */
  dataDir?: string | undefined;
  /** A store to use instead of the data dir's conf file (the desktop's electron-store, tests). */
  store?: KeyValueStore | undefined;
  logger: Logger;
  /** Older files to fill a new database from (auth/legacy-import.ts). */
  imports?: readonly LegacyImport[];
}): Storage {
  const { dataDir, logger } = opts;
  const db = openAppDatabase({ dataDir, logger, ...(opts.imports ? { imports: opts.imports } : {}) });
  const store = sealable(opts.store ?? (dataDir ? confStore(dataDir, 'skiff') : memoryStore()), logger);
  return {
    db,
    store,
    close() {
      store.seal();
      db.close();
    },
  };
}
