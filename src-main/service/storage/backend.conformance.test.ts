import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVEL, recordingLogger } from '../http/recording-logger.test-support';
import { type Logger, silentLogger } from '../logger';
import type { StorageBackend } from './backend';
import { AppDatabase } from './database';
import { SCHEMA_VERSION } from './migrations';
import { postgresSkipReason, startPostgres, type TestPostgres } from './postgres.test-support';
import { openPostgresBackend } from './postgres-backend';
import { SqliteBackend } from './sqlite-backend';

/**
 * The seam's rules (backend.ts), the same tests on both backends: SQLite in memory and a real
 * PostgreSQL server (postgres.test-support.ts). A storage test that runs on one runs on both.
 */

const logger = silentLogger();
let pg: TestPostgres | undefined;
const opened: StorageBackend[] = [];

beforeAll(async () => {
  if (!postgresSkipReason) pg = await startPostgres();
});
afterAll(async () => {
  try {
    await Promise.all(opened.map((b) => b.close()));
  } finally {
    await pg?.stop();
  }
});

const backends: {
  name: string;
  skip: string | undefined;
  open: (log?: Logger) => Promise<StorageBackend>;
}[] = [
  {
    name: 'sqlite',
    skip: undefined,
    open: async (log = logger) => new SqliteBackend(AppDatabase.open(':memory:', log), log),
  },
  {
    name: 'postgres',
    skip: postgresSkipReason,
    open: async (log = logger) => openPostgresBackend(await pg!.createDatabase(), log, { max: 3 }),
  },
];

const insert = 'INSERT INTO auth_meta (key, value) VALUES ($key, $value)';

describe.each(backends)('the $name backend', ({ name, skip, open }) => {
  const fresh = async (log?: Logger) => {
    const b = await open(log);
    opened.push(b);
    return b;
  };

  it.skipIf(skip !== undefined)(
    `answers $name statements as the stores write them${skip ? ` (skipped: ${skip})` : ''}`,
    async () => {
      const db = await fresh();
      expect(db.dialect).toBe(name);
      expect(await db.run(insert, { key: 'signingKey', value: '{"k":1}' })).toBe(1);
      const upsert = `${insert} ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
      expect(await db.run(upsert, { key: 'signingKey', value: '{"k":2}' })).toBe(1);
      expect(await db.run(`${insert} ON CONFLICT DO NOTHING`, { key: 'signingKey', value: 'ignored' })).toBe(
        0,
      );
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
      // A placeholder without a value is a mistake on both, never a NULL.
      await expect(db.get('SELECT $given AS a, $missing AS b', { given: 1 })).rejects.toThrow(
        'no value for $missing',
      );
      await expect(db.all('SELECT $missing AS b')).rejects.toThrow('no value for $missing');
      await expect(db.run('DELETE FROM activity WHERE seq = $missing')).rejects.toThrow(
        'no value for $missing',
      );
      expect(await db.get('SELECT count(*) AS n FROM activity')).toEqual({ n: 1 });
      expect(SCHEMA_VERSION).toBeGreaterThan(0);
    },
  );

  it.skipIf(skip !== undefined)(
    'commits a transaction whole, and rolls one back whole when it throws',
    async () => {
      const db = await fresh();
      expect(
        await db.transaction('two', async (tx) => {
          await tx.run(insert, { key: 'a', value: '1' });
          await tx.run(insert, { key: 'b', value: '2' });
        }),
      ).toBe(true);
      await expect(
        db.transaction('fails', async (tx) => {
          await tx.run(insert, { key: 'c', value: '3' });
          expect(await tx.get('SELECT value FROM auth_meta WHERE key = $key', { key: 'c' })).toEqual({
            value: '3',
          });
          await tx.run(insert, { key: 'a', value: 'duplicate' });
        }),
      ).rejects.toThrow(/UNIQUE|duplicate key/);
      expect(await db.all('SELECT key FROM auth_meta ORDER BY key')).toEqual([{ key: 'a' }, { key: 'b' }]);
    },
  );

  it.skipIf(skip !== undefined)('never shows another caller a transaction’s uncommitted write', async () => {
    const db = await fresh();
    let inside!: () => void;
    const entered = new Promise<void>((r) => {
      inside = r;
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const tx = db.transaction('held open', async (t) => {
      await t.run(insert, { key: 'uncommitted', value: 'x' });
      inside();
      await gate;
      throw new Error('rolled back on purpose');
    });
    await entered;
    // Started while the transaction is open: it must not see the row, now or after the rollback.
    const read = db.get('SELECT value FROM auth_meta WHERE key = $key', { key: 'uncommitted' });
    release();
    await expect(tx).rejects.toThrow('rolled back on purpose');
    expect(await read).toBeUndefined();
    // And the backend is usable afterwards.
    expect(await db.run(insert, { key: 'after', value: 'y' })).toBe(1);
  });

  it.skipIf(skip !== undefined)('drops writes once sealed and logs each, reads still answering', async () => {
    const { logger: log, entries } = recordingLogger();
    const db = await fresh(log);
    expect(db.where).toMatch(
      name === 'sqlite' ? /^:memory:$/ : /^postgres:\/\/skiff@127\.0\.0\.1:\d+\/t\d+_\d+$/,
    );
    await db.run(insert, { key: 'before', value: 'x' });
    db.seal();
    expect(db.isSealed).toBe(true);
    let ran = false;
    expect(
      await db.transaction('late', async () => {
        ran = true;
      }),
    ).toBe(false);
    expect(ran).toBe(false);
    expect(await db.run(insert, { key: 'late', value: 'x' })).toBe(0);
    expect(await db.all('SELECT key FROM auth_meta')).toEqual([{ key: 'before' }]);
    expect(entries.filter((e) => e.level === LEVEL.warn)).toEqual([
      expect.objectContaining({
        where: db.where,
        write: 'late',
        msg: 'write after the service closed was dropped',
      }),
      expect.objectContaining({
        where: db.where,
        write: 'statement',
        msg: 'write after the service closed was dropped',
      }),
    ]);
  });

  it.skipIf(skip !== undefined)(
    'seals at once on close: a write asked while close waits is dropped',
    async () => {
      const db = await open();
      const closed = db.close();
      expect(db.isSealed).toBe(true);
      expect(await db.run(insert, { key: 'late', value: 'x' })).toBe(0);
      await closed;
    },
  );

  it.skipIf(skip !== undefined)('closes after a transaction in flight, which commits', async () => {
    const db = await open();
    const tx = db.transaction('in flight', async (t) => {
      await t.run(insert, { key: 'k', value: 'v' });
    });
    const closed = db.close();
    expect(await tx).toBe(true);
    await closed;
    await expect(db.get('SELECT 1 AS one')).rejects.toThrow();
  });
});
