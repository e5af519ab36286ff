import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { AppDatabase, DATABASE_FILE, type LegacyImport, openAppDatabase } from './database';
import { DatabaseVersionError, MIGRATIONS, SCHEMA_VERSION } from './migrations';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skiff-db-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const logger = silentLogger();
const pragma = (db: AppDatabase, name: string) =>
  Object.values(db.get<Record<string, unknown>>(`PRAGMA ${name}`)!)[0];

describe('opening the database', () => {
  it('creates it at the current schema version, in WAL mode, fsyncing each commit, with foreign keys', () => {
    const db = openAppDatabase({ dataDir: dir, logger });
    try {
      expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
      expect(pragma(db, 'user_version')).toBe(SCHEMA_VERSION);
      expect(pragma(db, 'journal_mode')).toBe('wal');
      expect(pragma(db, 'synchronous')).toBe(2); // FULL
      expect(pragma(db, 'foreign_keys')).toBe(1);
      expect(pragma(db, 'busy_timeout')).toBe(5000);
      const tables = db
        .all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .map((t) => t.name);
      expect(tables).toEqual(
        expect.arrayContaining([
          'accounts',
          'activity',
          'api_keys',
          'auth_meta',
          'refresh_tokens',
          'sessions',
        ]),
      );
    } finally {
      db.close();
    }
    // Closing checkpoints the WAL: one file remains.
    expect(readdirSync(dir)).toEqual([DATABASE_FILE]);
  });

  it('refuses a database written by a newer Skiff, and leaves it exactly as it was', () => {
    const path = join(dir, DATABASE_FILE);
    const raw = new DatabaseSync(path);
    raw.exec(`CREATE TABLE future (x); PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const before = readFileSync(path);
    expect(() => openAppDatabase({ dataDir: dir, logger })).toThrow(DatabaseVersionError);
    expect(() => openAppDatabase({ dataDir: dir, logger })).toThrow(
      new RegExp(`schema version ${SCHEMA_VERSION + 1}.*up to ${SCHEMA_VERSION}.*not changed`),
    );
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual([DATABASE_FILE]);
  });

  it('migrates an empty (version 0) database forward and leaves a current one alone', () => {
    const path = join(dir, DATABASE_FILE);
    new DatabaseSync(path).close();
    openAppDatabase({ dataDir: dir, logger }).close();
    const again = openAppDatabase({ dataDir: dir, logger });
    expect(pragma(again, 'user_version')).toBe(SCHEMA_VERSION);
    again.close();
  });
});

describe('writes', () => {
  it('are all or nothing, nest into the outer transaction, and are dropped once sealed', () => {
    const db = AppDatabase.open(':memory:', logger);
    const put = (key: string) =>
      db.run('INSERT INTO auth_meta (key, value) VALUES ($key, $v)', { key, v: '1' });
    const keys = () => db.all<{ key: string }>('SELECT key FROM auth_meta ORDER BY key').map((r) => r.key);
    expect(() =>
      db.write('both', () => {
        put('a');
        db.write('inner', () => put('b'));
        throw new Error('halfway');
      }),
    ).toThrow('halfway');
    expect(keys()).toEqual([]);
    expect(db.write('ok', () => put('c'))).toBe(true);
    db.seal();
    expect(db.write('late', () => put('d'))).toBe(false);
    expect(keys()).toEqual(['c']);
    db.close();
  });
});

describe('importing older state', () => {
  const legacy = (fill: (db: AppDatabase) => void): LegacyImport & { finished: boolean } => {
    const i = {
      name: 'test',
      finished: false,
      pending: () => existsSync(join(dir, 'old.json')),
      fill,
      done: () => {
        i.finished = true;
      },
    };
    return i;
  };

  it('renames the database into place only after a complete import', () => {
    writeFileSync(join(dir, 'old.json'), '{}');
    const i = legacy((db) => db.run("INSERT INTO auth_meta (key, value) VALUES ('k', '\"v\"')"));
    const db = openAppDatabase({ dataDir: dir, logger, imports: [i] });
    expect(db.get<{ value: string }>("SELECT value FROM auth_meta WHERE key = 'k'")?.value).toBe('"v"');
    db.close();
    expect(i.finished).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['old.json', DATABASE_FILE]);
  });

  it('leaves the data dir as it was when the import fails, and tries again next time', () => {
    writeFileSync(join(dir, 'old.json'), '{}');
    // A temporary database of an import that was killed is cleaned up too.
    writeFileSync(join(dir, `${DATABASE_FILE}.import-99999`), 'half');
    const failing = legacy((db) => {
      db.run("INSERT INTO auth_meta (key, value) VALUES ('k', 'v')");
      throw new Error('unreadable');
    });
    expect(() => openAppDatabase({ dataDir: dir, logger, imports: [failing] })).toThrow('unreadable');
    expect(failing.finished).toBe(false);
    expect(readdirSync(dir)).toEqual(['old.json']);
    const ok = legacy(() => {});
    openAppDatabase({ dataDir: dir, logger, imports: [ok] }).close();
    expect(ok.finished).toBe(true);
  });
});
