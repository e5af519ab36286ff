import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
