import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { DatabaseVersionError, MIGRATIONS, migrate, SCHEMA_VERSION } from './migrations';
import { MIGRATION_LOCK_KEY, migratePostgres, PG_MIGRATIONS, VERSION_TABLE } from './migrations-postgres';
import { postgresSkipReason, startPostgres, type TestPostgres } from './postgres.test-support';
import { connectPostgres, type Sql } from './postgres-client';

/**
 * The PostgreSQL migrations and their runner, against a real server (postgres.test-support.ts):
 * the same steps as SQLite's, run once however many replicas start together, a newer database
 * refused untouched, a failing step rolled back whole.
 */

const logger = silentLogger();

describe('the PostgreSQL steps', () => {
  it('are the SQLite steps, one for one: same versions, same descriptions', () => {
    expect(PG_MIGRATIONS.map((m) => [m.version, m.description])).toEqual(
      MIGRATIONS.map((m) => [m.version, m.description]),
    );
    expect(PG_MIGRATIONS.at(-1)!.version).toBe(SCHEMA_VERSION);
  });
});

/** Tables → columns in order, the NOT NULL columns that are not the key, and the named indexes. */
type Shape = Record<string, { columns: string[]; notNull: string[]; indexes: string[] }>;

function sqliteShape(): Shape {
  const db = new DatabaseSync(':memory:');
  try {
    migrate(db, ':memory:');
    const shape: Shape = {};
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[];
    for (const { name } of tables) {
      const cols = db.prepare(`PRAGMA table_info(${name})`).all() as {
        name: string;
        notnull: number;
        pk: number;
      }[];
      const indexes = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name",
        )
        .all(name) as { name: string }[];
      shape[name] = {
        columns: cols.map((c) => c.name),
        notNull: cols.filter((c) => c.notnull && !c.pk).map((c) => c.name),
        indexes: indexes.map((i) => i.name),
      };
    }
    return shape;
  } finally {
    db.close();
  }
}

async function postgresShape(sql: Sql): Promise<Shape> {
  const shape: Shape = {};
  const tables = await sql<{ name: string }[]>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_name <> ${VERSION_TABLE} ORDER BY table_name`;
  for (const { name } of tables) {
    const cols = await sql<{ name: string; nullable: string; pk: boolean }[]>`
      SELECT c.column_name AS name, c.is_nullable AS nullable,
        EXISTS (SELECT 1 FROM information_schema.key_column_usage k
          JOIN information_schema.table_constraints t USING (constraint_schema, constraint_name)
          WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_name = c.table_name AND k.column_name = c.column_name) AS pk
      FROM information_schema.columns c
      WHERE c.table_schema = current_schema() AND c.table_name = ${name} ORDER BY c.ordinal_position`;
    // Indexes written in the steps; those behind PRIMARY KEY and UNIQUE constraints are implicit on both.
    const indexes = await sql<{ name: string }[]>`
      SELECT i.indexname AS name FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename = ${name}
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)
      ORDER BY i.indexname`;
    shape[name] = {
      columns: cols.map((c) => c.name),
      notNull: cols.filter((c) => c.nullable === 'NO' && !c.pk).map((c) => c.name),
      indexes: indexes.map((i) => i.name),
    };
  }
  return shape;
}

const versionRows = (sql: Sql) =>
  sql<
    { version: number; description: string }[]
  >`SELECT version, description FROM skiff_schema ORDER BY version`;

const tableNames = async (sql: Sql) =>
  (
    await sql<{ name: string }[]>`
      SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`
  ).map((t) => t.name);

/** Sessions waiting for the migration lock (granted = false) or holding it. */
const migrationLocks = async (sql: Sql, granted: boolean) =>
  Number(
    (
      await sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND objid = ${MIGRATION_LOCK_KEY} AND granted = ${granted}
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`
    )[0]!.n,
  );

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  // Bounded well inside the test's timeout, so a runner that never waits fails here, saying why.
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(postgresSkipReason !== undefined)(
  `migrating a PostgreSQL database${postgresSkipReason ? ` (skipped: ${postgresSkipReason})` : ''}`,
  () => {
    let pg: TestPostgres;
    const pools: Sql[] = [];
    const open = async () => {
      const sql = connectPostgres(await pg.createDatabase(), logger, { max: 4 });
      pools.push(sql);
      return sql;
    };
    const another = (sql: Sql) => {
      const more = connectPostgres(pg.url(sql.options.database), logger, { max: 2 });
      pools.push(more);
      return more;
    };

    beforeAll(async () => {
      pg = await startPostgres();
    });
    afterAll(async () => {
      // A bounded end: a test that failed may have left a connection reserved.
      try {
        await Promise.all(pools.map((p) => p.end({ timeout: 5 })));
      } finally {
        await pg?.stop();
      }
    });

    it('brings a fresh database to the current version, with the schema the SQLite steps build', async () => {
      const sql = await open();
      expect(await migratePostgres(sql, 'test')).toBe(SCHEMA_VERSION);
      expect(await versionRows(sql)).toEqual(
        MIGRATIONS.map((m) => ({ version: m.version, description: m.description })),
      );
      expect(await postgresShape(sql)).toEqual(sqliteShape());
      // The lock is not left behind.
      expect(await migrationLocks(sql, true)).toBe(0);
      // Again: nothing to do, nothing added.
      expect(await migratePostgres(sql, 'test')).toBe(SCHEMA_VERSION);
      expect(await versionRows(sql)).toHaveLength(MIGRATIONS.length);
    });

    it('hands its connection back to the pool: a pool of one still answers, after success and after a refusal', async () => {
      const url = await pg.createDatabase();
      const one = connectPostgres(url, logger, { max: 1 });
      pools.push(one);
      expect(await migratePostgres(one, 'test')).toBe(SCHEMA_VERSION);
      expect(await one`SELECT 1 AS one`).toEqual([{ one: 1 }]);
      // No steps known: the migrated database is newer than that.
      await expect(migratePostgres(one, 'test', [])).rejects.toThrow(
        `test: the database has schema version ${SCHEMA_VERSION}, and this Skiff knows versions up to 0.`,
      );
      expect(await one`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    });

    it('reads back epoch milliseconds and identity keys as numbers, as SQLite does', async () => {
      const sql = await open();
      await migratePostgres(sql, 'test');
      const at = 1_780_000_000_123;
      await sql`INSERT INTO activity (activity_id, type, at, account_id) VALUES ('a1', 'login', ${at}, 'acc')`;
      expect(await sql`SELECT seq, at FROM activity`).toEqual([{ seq: 1, at }]);
    });

    it('migrates once when replicas start together: the later ones wait for the lock, then find nothing to do', async () => {
      const sql = await open();
      // Hold the lock as a replica that is migrating would, so both runners must queue behind it.
      const holder = await sql.reserve();
      await holder`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
      const a = another(sql);
      const b = another(sql);
      const runs = [migratePostgres(a, 'replica a'), migratePostgres(b, 'replica b')];
      try {
        await until(
          async () => (await migrationLocks(sql, false)) === 2,
          'both runners to wait for the lock',
        );
        expect(await tableNames(sql)).toEqual([]);
      } finally {
        await holder`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
        holder.release();
      }
      expect(await Promise.all(runs)).toEqual([SCHEMA_VERSION, SCHEMA_VERSION]);
      expect(await versionRows(sql)).toHaveLength(MIGRATIONS.length);
      expect(await migrationLocks(sql, true)).toBe(0);
    });

    it('migrates once with several runners racing from the start, none of them failing', async () => {
      const sql = await open();
      const runners = [sql, another(sql), another(sql), another(sql)];
      expect(await Promise.all(runners.map((r, i) => migratePostgres(r, `replica ${i}`)))).toEqual(
        runners.map(() => SCHEMA_VERSION),
      );
      expect(await versionRows(sql)).toHaveLength(MIGRATIONS.length);
    });

    it('refuses a database newer than the code with DatabaseVersionError, and leaves it untouched', async () => {
      const sql = await open();
      // As a newer Skiff would leave it: a version this code does not know, its tables not ours.
      await sql`CREATE TABLE skiff_schema (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at BIGINT NOT NULL)`;
      await sql`INSERT INTO skiff_schema VALUES (${SCHEMA_VERSION + 1}, 'from the future', 1)`;
      const before = { tables: await tableNames(sql), rows: await sql`SELECT * FROM skiff_schema` };

      const err = await migratePostgres(sql, 'postgres://db/skiff').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseVersionError);
      expect((err as Error).message).toBe(
        `postgres://db/skiff: the database has schema version ${SCHEMA_VERSION + 1}, and this Skiff knows versions up to ${SCHEMA_VERSION}. ` +
          'It was written by a newer Skiff; run that one. It was not changed.',
      );
      expect({ tables: await tableNames(sql), rows: await sql`SELECT * FROM skiff_schema` }).toEqual(before);
      expect(await migrationLocks(sql, true)).toBe(0);
    });

    it('accepts a database at exactly the version it knows, and one partly migrated resumes at the next step', async () => {
      const sql = await open();
      expect(await migratePostgres(sql, 'test', PG_MIGRATIONS.slice(0, 1))).toBe(1);
      expect(await versionRows(sql)).toEqual([{ version: 1, description: PG_MIGRATIONS[0]!.description }]);
      expect(await migratePostgres(sql, 'test', PG_MIGRATIONS.slice(0, 1))).toBe(1);
      expect(await migratePostgres(sql, 'test')).toBe(SCHEMA_VERSION);
      expect(await versionRows(sql)).toHaveLength(MIGRATIONS.length);
    });

    it('rolls a failing step back whole: the version stays, nothing of the step is left, the lock is released', async () => {
      const sql = await open();
      await migratePostgres(sql, 'test', PG_MIGRATIONS.slice(0, 1));
      // In the way of step 2, which creates this table.
      await sql`CREATE TABLE event_history (x INTEGER)`;
      await expect(migratePostgres(sql, 'test')).rejects.toThrow(/relation "event_history" already exists/);
      expect(await versionRows(sql)).toHaveLength(1);
      const indexes = await sql`SELECT indexname FROM pg_indexes WHERE tablename = 'event_history'`;
      expect(indexes).toEqual([]);
      expect(await migrationLocks(sql, true)).toBe(0);
      // The pool's connections are usable afterwards (no transaction left open on the reserved one).
      expect(await sql`SELECT 1 AS one`).toEqual([{ one: 1 }]);
      expect(
        await sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'`,
      ).toEqual([{ n: 0 }]);
    });

    it('a first step that fails leaves no version table behind', async () => {
      const sql = await open();
      await sql`CREATE TABLE auth_meta (x INTEGER)`;
      await expect(migratePostgres(sql, 'test')).rejects.toThrow(/relation "auth_meta" already exists/);
      expect(await tableNames(sql)).toEqual(['auth_meta']);
    });
  },
);
