import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type Logger, silentLogger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { AppDatabase } from '../storage/database';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../storage/postgres.test-support';
import { openPostgresBackend } from '../storage/postgres-backend';
import { SqliteBackend } from '../storage/sqlite-backend';

/**
 * One database that several "replicas" open, on each backend: a SQLite file opened by two
 * connections, and a real PostgreSQL database (postgres.test-support.ts: one server per test file,
 * a database per test). Call `sharedDatabases()` once at the top of a test file, then
 * `describe.each(backends)`; every backend opened is closed, and every folder removed, after the file.
 */

export interface SharedDatabase {
  /** One more connection to the same database, as another replica would open. */
  open(logger?: Logger): Promise<StorageBackend>;
}

export interface TestBackend {
  name: 'sqlite' | 'postgres';
  skip: string | undefined;
  /** A new, empty, migrated database. */
  shared(): Promise<SharedDatabase>;
}

export function sharedDatabases(): TestBackend[] {
  let pg: TestPostgres | undefined;
  const opened: StorageBackend[] = [];
  const folders: string[] = [];
  beforeAll(async () => {
    if (!postgresSkipReason) pg = await startPostgres();
  });
  afterAll(async () => {
    try {
      await Promise.all(opened.map((b) => b.close()));
    } finally {
      await pg?.stop();
      for (const f of folders) rmSync(f, { recursive: true, force: true });
    }
  });
  const keep = (b: StorageBackend) => {
    opened.push(b);
    return b;
  };
  return [
    {
      name: 'sqlite',
      skip: undefined,
      async shared() {
        const dir = mkdtempSync(join(tmpdir(), 'shared-db-'));
        folders.push(dir);
        const path = join(dir, 'skiff.db');
        return {
          open: async (logger = silentLogger()) =>
            keep(new SqliteBackend(AppDatabase.open(path, logger), logger)),
        };
      },
    },
    {
      name: 'postgres',
      skip: postgresSkipReason,
      async shared() {
        const url = await pg!.createDatabase();
        return {
          open: async (logger = silentLogger()) => keep(await openPostgresBackend(url, logger, { max: 3 })),
        };
      },
    },
  ];
}
