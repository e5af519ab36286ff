import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { DATABASE_FILE, type LegacyImport } from './database';
import { DatabaseOpenError, openDatabaseStorage, openStorage, PING_TIMEOUT_MS, type Storage } from './index';
import { DatabaseVersionError, SCHEMA_VERSION } from './migrations';
import { postgresSkipReason, startPostgres, type TestPostgres } from './postgres.test-support';
import { memoryStore } from './store';

/**
 * The service's storage as createService opens it (storage/index.ts): one database and one conf
 * store, from the data dir or in memory, both sealed by one close.
 */

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skiff-storage-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const logger = silentLogger();
const count = (s: ReturnType<typeof openStorage>) =>
  s.db.get<{ n: number }>('SELECT count(*) AS n FROM auth_meta')?.n;

describe('openStorage', () => {
  it('opens the data dir: its database file and its conf file (skiff.json), both written there', async () => {
    const s = openStorage({ dataDir: dir, logger });
    try {
      expect(s.db.path).toBe(join(dir, DATABASE_FILE));
      expect(s.store.path).toBe(join(dir, 'skiff.json'));
      s.store.set('workspaceConfig', { workspaces: [] });
      expect(JSON.parse(readFileSync(join(dir, 'skiff.json'), 'utf8'))).toEqual({
        workspaceConfig: { workspaces: [] },
      });
      expect(
        s.db.write('a row', () => s.db.run("INSERT INTO auth_meta (key, value) VALUES ('k', 'v')")),
      ).toBe(true);
    } finally {
      await s.close();
    }
    // Closed: the WAL was checkpointed into the file, which another open reads.
    const again = openStorage({ dataDir: dir, logger });
    try {
      expect(count(again)).toBe(1);
      expect(again.store.get('workspaceConfig')).toEqual({ workspaces: [] });
    } finally {
      await again.close();
    }
  });

  it('without a data dir keeps both in memory and writes no file', async () => {
    const s = openStorage({ logger });
    try {
      expect(s.db.path).toBe(':memory:');
      expect(s.store.path).toBe(':memory:');
      s.store.set('k', 1);
      expect(s.store.get('k')).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('uses the store it is given (the desktop’s electron-store) instead of the conf file', async () => {
    const given = memoryStore();
    const s = openStorage({ dataDir: dir, store: given, logger });
    try {
      s.store.set('k', 'v');
      expect(given.get('k')).toBe('v');
      expect(existsSync(join(dir, 'skiff.json'))).toBe(false);
      expect(existsSync(join(dir, DATABASE_FILE))).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('fills a new database from the older files it is given, once', async () => {
    let filled = 0;
    const legacy: LegacyImport = {
      name: 'older files',
      pending: () => true,
      fill(db) {
        filled++;
        db.run("INSERT INTO auth_meta (key, value) VALUES ('imported', 'yes')");
      },
      done() {},
    };
    const s = openStorage({ dataDir: dir, logger, imports: [legacy] });
    try {
      expect(filled).toBe(1);
      expect(s.db.get<{ value: string }>("SELECT value FROM auth_meta WHERE key = 'imported'")?.value).toBe(
        'yes',
      );
    } finally {
      await s.close();
    }
  });

  it('close seals both: later writes are dropped, the store still answers reads', async () => {
    const given = memoryStore();
    const s = openStorage({ store: given, logger });
    s.store.set('before', 1);
    await s.close();
    s.store.set('after', 2);
    s.store.delete('before');
    expect(given.get('after')).toBeUndefined();
    expect(s.store.get('before')).toBe(1);
    expect(s.db.isSealed).toBe(true);
    expect(s.db.write('late', () => {})).toBe(false);
  });

  it('throws, opening nothing, when the data dir cannot hold a database', async () => {
    // A file where the data dir should be: nothing can be created under it.
    const notAFolder = join(dir, 'data');
    writeFileSync(notAFolder, 'not a folder');
    expect(() => openStorage({ dataDir: notAFolder, logger })).toThrow(/EEXIST|ENOTDIR/);
    expect(readFileSync(notAFolder, 'utf8')).toBe('not a folder');
  });
});

describe('replicaId', () => {
  it('is the host name and pid unless given', async () => {
    const a = openStorage({ logger });
    const b = openStorage({ logger, replicaId: 'skiff-0' });
    try {
      expect(a.replicaId).toBe(`${hostname()}-${process.pid}`);
      expect(b.replicaId).toBe('skiff-0');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('ping on sqlite', () => {
  it('is ok while open, and says the service is closing once closed', async () => {
    const s = openStorage({ logger });
    expect(await s.ping()).toEqual({ ok: true });
    await s.close();
    expect(await s.ping()).toEqual({ ok: false, reason: 'the service is closing' });
  });

  it('is not ok, with the versions, when the database is older than this code', async () => {
    const s = openStorage({ logger });
    try {
      s.db.run(`PRAGMA user_version = ${SCHEMA_VERSION - 1}`);
      expect(await s.ping()).toEqual({
        ok: false,
        reason: `the database is at schema version ${SCHEMA_VERSION - 1}, this Skiff needs ${SCHEMA_VERSION}`,
      });
      // Newer: a rolling upgrade under way; this replica keeps serving until it is replaced.
      s.db.run(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
      expect(await s.ping()).toEqual({ ok: true });
    } finally {
      await s.close();
    }
  });
});

describe.skipIf(postgresSkipReason !== undefined)(
  `openDatabaseStorage (PostgreSQL)${postgresSkipReason ? ` (skipped: ${postgresSkipReason})` : ''}`,
  () => {
    let pg: TestPostgres;
    const opened: Storage[] = [];
    beforeAll(async () => {
      pg = await startPostgres();
    });
    afterAll(async () => {
      try {
        await Promise.all(opened.map((s) => s.close()));
      } finally {
        await pg?.stop();
      }
    });

    it('opens migrated, without a SQLite db, with the store given, and pings ok until closed', async () => {
      const url = await pg.createDatabase();
      const given = memoryStore();
      const s = await openDatabaseStorage({ url, logger, store: given, replicaId: 'r1' });
      opened.push(s);
      expect(s.db).toBeNull();
      expect(s.backend.dialect).toBe('postgres');
      expect(s.replicaId).toBe('r1');
      expect(await s.backend.get('SELECT max(version) AS v FROM skiff_schema')).toEqual({
        v: SCHEMA_VERSION,
      });
      s.store.set('k', 'v');
      expect(given.get('k')).toBe('v');
      expect(await s.ping()).toEqual({ ok: true });
      await s.close();
      expect(await s.ping()).toEqual({ ok: false, reason: 'the service is closing' });
      s.store.set('late', 1);
      expect(given.get('late')).toBeUndefined();
    });

    it('pings not ok, within its bound, while the database does not answer', async () => {
      const url = await pg.createDatabase();
      const s = await openDatabaseStorage({ url, logger });
      opened.push(s);
      // Another session holds the version table locked: the ping's read waits, the ping does not.
      const other = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await other.begin(async (tx) => {
          await tx.unsafe('LOCK TABLE skiff_schema IN ACCESS EXCLUSIVE MODE');
          expect(await s.ping()).toEqual({
            ok: false,
            reason: `the database did not answer within ${PING_TIMEOUT_MS / 1000} s`,
          });
        });
      } finally {
        await other.end();
      }
      expect(await s.ping()).toEqual({ ok: true });
    });

    it('pings not ok with the reason when the server is gone', async () => {
      const own = await startPostgres();
      let stopped = false;
      try {
        const s = await openDatabaseStorage({ url: await own.createDatabase(), logger });
        opened.push(s);
        expect(await s.ping()).toEqual({ ok: true });
        await own.stop();
        stopped = true;
        const down = await s.ping();
        expect(down.ok).toBe(false);
        expect(!down.ok && down.reason).toMatch(/^the database did not answer/);
      } finally {
        if (!stopped) await own.stop();
      }
    });

    it('says which database it cannot open, without its password, and leaves nothing open', async () => {
      const url = (await pg.createDatabase())
        .replace('skiff@', 'skiff:s3cret@')
        .replace(/\/t\d+_\d+$/, '/none');
      const err = await openDatabaseStorage({ url, logger }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseOpenError);
      expect((err as Error).message).toBe(
        `cannot open the database ${url.replace('s3cret', '***')}: database "none" does not exist`,
      );
    });

    it('refuses a database newer than this code, untouched, naming it without its password', async () => {
      const url = await pg.createDatabase();
      const first = await openDatabaseStorage({ url, logger });
      await first.backend.run(
        'INSERT INTO skiff_schema (version, description, applied_at) VALUES ($v, $d, 0)',
        { v: SCHEMA_VERSION + 1, d: 'from the future' },
      );
      await first.close();
      const withPassword = url.replace('skiff@', 'skiff:s3cret@');
      const err = await openDatabaseStorage({ url: withPassword, logger }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseVersionError);
      expect((err as Error).message).toContain(`schema version ${SCHEMA_VERSION + 1}`);
      expect((err as Error).message).toContain('skiff:***@');
      expect((err as Error).message).not.toContain('s3cret');
    });
  },
);
