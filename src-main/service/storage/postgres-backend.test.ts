import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LEVEL, recordingLogger } from '../http/recording-logger.test-support';
import { silentLogger } from '../logger';
import type { StorageBackend } from './backend';
import { DatabaseVersionError, SCHEMA_VERSION } from './migrations';
import { postgresSkipReason, startPostgres, type TestPostgres } from './postgres.test-support';
import { openPostgresBackend, redactUrl } from './postgres-backend';

/**
 * What is PostgreSQL's own in its StorageBackend, against a real server; the seam's rules, the same on
 * both backends, are in backend.conformance.test.ts.
 */

const logger = silentLogger();

describe('redactUrl', () => {
  it('hides the password and keeps the rest; an unparsable URL is not echoed', () => {
    expect(redactUrl('postgres://skiff:s3cret@db:5432/skiff?sslmode=require')).toBe(
      'postgres://skiff:***@db:5432/skiff?sslmode=require',
    );
    expect(redactUrl('postgres://skiff@db/skiff')).toBe('postgres://skiff@db/skiff');
    expect(redactUrl('not a url s3cret')).toBe('the PostgreSQL database (its URL does not parse)');
  });
});

describe.skipIf(postgresSkipReason !== undefined)(
  `the PostgreSQL backend${postgresSkipReason ? ` (skipped: ${postgresSkipReason})` : ''}`,
  () => {
    let pg: TestPostgres;
    const open: StorageBackend[] = [];
    const fresh = async () => {
      const b = await openPostgresBackend(await pg.createDatabase(), logger, { max: 3 });
      open.push(b);
      return b;
    };
    beforeAll(async () => {
      pg = await startPostgres();
    });
    afterAll(async () => {
      try {
        await Promise.all(open.map((b) => b.close()));
      } finally {
        await pg?.stop();
      }
    });

    it('opens migrated, and answers $name statements with numbers for integers', async () => {
      const db = await fresh();
      expect(db.dialect).toBe('postgres');
      expect(await db.get('SELECT max(version) AS v FROM skiff_schema')).toEqual({ v: SCHEMA_VERSION });
      const row = { key: 'signingKey', value: '{"k":1}' };
      expect(await db.run('INSERT INTO auth_meta (key, value) VALUES ($key, $value)', row)).toBe(1);
      // The upsert the auth tables use, as written for SQLite.
      const upsert =
        'INSERT INTO auth_meta (key, value) VALUES ($key, $value) ON CONFLICT (key) DO UPDATE SET value = excluded.value';
      expect(await db.run(upsert, { key: 'signingKey', value: '{"k":2}' })).toBe(1);
      expect(await db.all('SELECT key, value FROM auth_meta')).toEqual([
        { key: 'signingKey', value: '{"k":2}' },
      ]);
      expect(await db.get('SELECT value FROM auth_meta WHERE key = $key', { key: 'none' })).toBeUndefined();
      expect(
        await db.all(
          `INSERT INTO activity (activity_id, type, at, account_id) VALUES ($id, 'login', $at, $id || '-acc')
           RETURNING seq, at, account_id`,
          { id: 'a1', at: 1_780_000_000_123 },
        ),
      ).toEqual([{ seq: 1, at: 1_780_000_000_123, account_id: 'a1-acc' }]);
      expect(await db.get('SELECT count(*) AS n FROM activity')).toEqual({ n: 1 });
      await expect(db.get('SELECT $missing AS x')).rejects.toThrow('no value for $missing');
    });

    it('closes without waiting for a query in flight to finish: it is cut off', async () => {
      const url = await pg.createDatabase();
      const db = await openPostgresBackend(url, logger, { max: 2 });
      const watcher = await openPostgresBackend(url, logger, { max: 1 });
      open.push(watcher);
      const slow = db.get('SELECT pg_sleep(3600) AS slept').catch((e: unknown) => e);
      const running =
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'SELECT pg_sleep%'";
      for (let i = 0; i < 200 && (await watcher.get<{ n: number }>(running))?.n !== 1; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await watcher.get(running)).toEqual({ n: 1 });
      await db.close();
      expect(await slow).toBeInstanceOf(Error);
    });

    /** Sessions on `db`'s database whose last statement was a lease's lock query. */
    const leaseSessions = async (db: StorageBackend) =>
      (
        await db.get<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND query LIKE 'SELECT pg_try_advisory_lock%'`,
        )
      )?.n;

    it('logs a lease taken at debug, naming the database and the key', async () => {
      const { logger: log, entries } = recordingLogger();
      const db = await openPostgresBackend(await pg.createDatabase(), log, { max: 3 });
      open.push(db);
      const lease = await db.tryLease('recorder:c1');
      expect(lease?.key).toBe('recorder:c1');
      expect(entries.filter((e) => e.msg === 'lease taken')).toEqual([
        expect.objectContaining({ level: LEVEL.debug, where: db.where, lease: 'recorder:c1' }),
      ]);
      await lease!.release();
    });

    it('a failing lease query rejects, grants nothing and leaves no session; the next ask works', async () => {
      const db = await fresh();
      const name = new URL(db.where).pathname.slice(1);
      // The lease's connection is a new session: let it resolve hashtextextended to one that fails,
      // while the pool's sessions (and the server) stay as they were.
      await db.run(
        `CREATE FUNCTION public.hashtextextended(text, bigint) RETURNS bigint LANGUAGE plpgsql
         AS 'BEGIN RAISE EXCEPTION ''lease query failed on purpose''; END'`,
      );
      await db.run(`ALTER DATABASE "${name}" SET search_path = public, pg_catalog`);
      await expect(db.tryLease('recorder:c1')).rejects.toThrow('lease query failed on purpose');
      // Its connection was ended, not kept open beside the pool.
      await vi.waitFor(async () => expect(await leaseSessions(db)).toBe(0), {
        timeout: 10_000,
        interval: 50,
      });
      await db.run(`ALTER DATABASE "${name}" RESET search_path`);
      const lease = await db.tryLease('recorder:c1');
      expect(lease?.key).toBe('recorder:c1');
      expect(await leaseSessions(db)).toBe(1);
      await lease!.release();
      await vi.waitFor(async () => expect(await leaseSessions(db)).toBe(0), {
        timeout: 10_000,
        interval: 50,
      });
    });

    it('close cuts off a lease query in flight instead of waiting for it, and grants nothing', async () => {
      const db = await fresh();
      const name = new URL(db.where).pathname.slice(1);
      // The lease's lock query never answers on its own: its session resolves hashtextextended to one that sleeps.
      await db.run(
        `CREATE FUNCTION public.hashtextextended(text, bigint) RETURNS bigint LANGUAGE plpgsql
         AS 'BEGIN PERFORM pg_sleep(3600); RETURN 0; END'`,
      );
      await db.run(`ALTER DATABASE "${name}" SET search_path = public, pg_catalog`);
      const asked = db.tryLease('recorder:c1').catch((e: unknown) => e);
      const running = `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND state = 'active' AND query LIKE 'SELECT pg_try_advisory_lock%'`;
      await vi.waitFor(async () => expect(await db.get(running)).toEqual({ n: 1 }), {
        timeout: 10_000,
        interval: 50,
      });
      await db.close();
      expect(await asked).toBeInstanceOf(Error);
      // The server's side of the cut-off session sleeps on until told; end it.
      const admin = await fresh();
      await admin.get(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
         WHERE datname = $name AND query LIKE 'SELECT pg_try_advisory_lock%'`,
        { name },
      );
    });

    it('a refused lease leaves no session behind', async () => {
      const url = await pg.createDatabase();
      const a = await openPostgresBackend(url, logger, { max: 3 });
      const b = await openPostgresBackend(url, logger, { max: 3 });
      open.push(a, b);
      const held = await a.tryLease('recorder:c1');
      expect(held).not.toBeNull();
      expect(await b.tryLease('recorder:c1')).toBeNull();
      await vi.waitFor(async () => expect(await leaseSessions(a)).toBe(1), { timeout: 10_000, interval: 50 });
      await held!.release();
    });

    it('once closed, asks the server nothing: no lease even when the database refuses connections, and unlisten is harmless', async () => {
      const db = await fresh();
      const name = new URL(db.where).pathname.slice(1);
      const unlistenDuring = await db.listen('skiff_test', () => {});
      const unlistenAfter = await db.listen('skiff_other', () => {});
      // Asked while close ends the listening connection, unlisten must not send a query it would cut off.
      const closing = db.close();
      const during = unlistenDuring();
      await closing;
      await expect(during).resolves.toBeUndefined();
      await expect(unlistenAfter()).resolves.toBeUndefined();
      const admin = await fresh();
      await admin.run(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      expect(await db.tryLease('recorder:late')).toBeNull();
    });

    it('refuses a newer database with DatabaseVersionError, naming it without the password, and leaves nothing open', async () => {
      const url = await pg.createDatabase();
      const first = await openPostgresBackend(url, logger);
      await first.run(`INSERT INTO skiff_schema VALUES (${SCHEMA_VERSION + 1}, 'from the future', 1)`);
      await first.close();
      const withPassword = url.replace('skiff@', 'skiff:pw123@');
      const err = await openPostgresBackend(withPassword, logger).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseVersionError);
      expect((err as Error).message).toContain(redactUrl(withPassword));
      expect((err as Error).message).not.toContain('pw123');
      // Its pool was ended: no connection of Skiff's to that database is left.
      const name = new URL(url).pathname.slice(1);
      const admin = await openPostgresBackend(await pg.createDatabase(), logger, { max: 1 });
      open.push(admin);
      expect(
        await admin.get(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $name AND application_name = 'skiff'",
          { name },
        ),
      ).toEqual({ n: 0 });
    });
  },
);
