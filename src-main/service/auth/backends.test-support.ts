/**
 * Test support (not itself a test): the storage the auth stores run on in tests. An in-memory
 * SQLite database for unit tests, and for `describe.each(AUTH_BACKENDS)` the same on both backends,
 * PostgreSQL being a real server per test file (storage/postgres.test-support.ts) with a database of
 * its own per test. Everything opened here is closed after the file.
 */
import { afterAll, beforeAll } from 'vitest';
import { type Logger, silentLogger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { AppDatabase } from '../storage/database';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../storage/postgres.test-support';
import { openPostgresBackend } from '../storage/postgres-backend';
import { SqliteBackend } from '../storage/sqlite-backend';

/** An in-memory SQLite database behind the StorageBackend the service hands the stores; `db` is the same database, for reading rows back directly. */
export interface MemoryBackend {
  db: AppDatabase;
  backend: StorageBackend;
  close(): void;
}

export function memoryBackend(): MemoryBackend {
  const db = AppDatabase.open(':memory:', silentLogger());
  return { db, backend: new SqliteBackend(db, silentLogger()), close: () => db.close() };
}

/**
 * The auth tables on both backends, for `describe.each(AUTH_BACKENDS)`: SQLite in memory, and a
 * database of its own on the file's PostgreSQL server (one server per test file, started by
 * `withPostgres()` in its beforeAll). Everything opened is closed after the file.
 */
export const AUTH_BACKENDS = [
  { name: 'sqlite', skip: undefined as string | undefined },
  { name: 'postgres', skip: postgresSkipReason },
] as const;
export type BackendName = (typeof AUTH_BACKENDS)[number]['name'];

let pg: TestPostgres | undefined;
const opened: StorageBackend[] = [];

/** Starts the file's PostgreSQL server (when there is one) and closes everything after the file. */
export function withPostgres(): void {
  beforeAll(async () => {
    if (!postgresSkipReason) pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    try {
      await Promise.all(opened.splice(0).map((b) => b.close()));
    } finally {
      await pg?.stop();
      pg = undefined;
    }
  });
}

/** A fresh, migrated, empty database on `name`. */
export async function openBackend(
  name: BackendName,
  logger: Logger = silentLogger(),
): Promise<StorageBackend> {
  const b =
    name === 'sqlite'
      ? new SqliteBackend(AppDatabase.open(':memory:', logger), logger)
      : await openPostgresBackend(await pg!.createDatabase(), logger, { max: 4 });
  opened.push(b);
  return b;
}

/** A fresh PostgreSQL database's URL, for services that open it themselves (two replicas). */
export async function postgresUrl(): Promise<string> {
  return pg!.createDatabase();
}

/** Another connection to the same PostgreSQL database as `url`: a second replica's storage. */
export async function openPostgres(url: string, logger: Logger = silentLogger()): Promise<StorageBackend> {
  const b = await openPostgresBackend(url, logger, { max: 4 });
  opened.push(b);
  return b;
}
