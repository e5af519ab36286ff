import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import type { StorageBackend } from './backend';
import { DatabaseVersionError, SCHEMA_VERSION } from './migrations';
import { postgresSkipReason, startPostgres, type TestPostgres } from './postgres.test-support';
import { openPostgresBackend, redactUrl } from './postgres-backend';

/** The PostgreSQL StorageBackend against a real server: the seam's rules, as the SQLite one will keep them. */

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

    it('commits a transaction whole, and rolls one back whole when it throws', async () => {
      const db = await fresh();
      const insert = 'INSERT INTO auth_meta (key, value) VALUES ($key, $value)';
      expect(
        await db.transaction('two', async (tx) => {
          await tx.run(insert, { key: 'a', value: '1' });
          await tx.run(insert, { key: 'b', value: '2' });
        }),
      ).toBe(true);
      await expect(
        db.transaction('fails', async (tx) => {
          await tx.run(insert, { key: 'c', value: '3' });
          // Seen inside, before the failure.
          expect(await tx.get('SELECT value FROM auth_meta WHERE key = $key', { key: 'c' })).toEqual({
            value: '3',
          });
          await tx.run(insert, { key: 'a', value: 'duplicate' });
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(await db.all('SELECT key FROM auth_meta ORDER BY key')).toEqual([{ key: 'a' }, { key: 'b' }]);
    });

    it('drops writes once sealed, reads still answering, and closes', async () => {
      const db = await fresh();
      db.seal();
      expect(db.isSealed).toBe(true);
      let ran = false;
      expect(
        await db.transaction('late', async () => {
          ran = true;
        }),
      ).toBe(false);
      expect(ran).toBe(false);
      expect(await db.run("INSERT INTO auth_meta (key, value) VALUES ('late', 'x')")).toBe(0);
      expect(await db.all('SELECT key FROM auth_meta')).toEqual([]);
      await db.close();
      await expect(db.get('SELECT 1 AS one')).rejects.toThrow();
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
