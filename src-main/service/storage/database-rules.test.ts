import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { AppDatabase, DATABASE_FILE, type LegacyImport, openAppDatabase } from './database';
import { SCHEMA_VERSION } from './migrations';

/**
 * The database's handles, nested and failed writes, the in-memory case, and what an import of
 * older state logs. Opening, versions and the import's all-or-nothing are in database.test.ts.
 */

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'skiff-db-rules-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const logger = silentLogger();

/** File descriptors of this process open on anything in the test's data dir (Linux: /proc). */
function handlesInDir(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return [];
    }
  });
}

/** A logger that keeps every line it writes, parsed. */
function recordingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'debug' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { log, lines };
}

const legacy = (fill: (db: AppDatabase) => void, name = 'old-files'): LegacyImport => ({
  name,
  pending: () => existsSync(join(dir, 'old.json')),
  fill,
  done: () => {},
});

describe.runIf(existsSync('/proc/self/fd'))('handles', () => {
  it('a database refused on open is closed again: no handle stays open on its file', () => {
    const raw = new DatabaseSync(join(dir, DATABASE_FILE));
    raw.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openAppDatabase({ dataDir: dir, logger })).toThrow(/newer Skiff/);
    expect(handlesInDir()).toEqual([]);
  });

  it('an import leaves no handle open on the data dir or its files, whether it completed or failed', () => {
    writeFileSync(join(dir, 'old.json'), '{}');
    const failing = legacy(() => {
      throw new Error('unreadable');
    });
    expect(() => openAppDatabase({ dataDir: dir, logger, imports: [failing] })).toThrow('unreadable');
    expect(handlesInDir()).toEqual([]);
    const db = openAppDatabase({ dataDir: dir, logger, imports: [legacy(() => {})] });
    db.close();
    expect(handlesInDir()).toEqual([]);
  });
});

describe('writes', () => {
  const keys = (db: AppDatabase) =>
    db.all<{ key: string }>('SELECT key FROM auth_meta ORDER BY key').map((r) => r.key);
  const put = (db: AppDatabase, key: string, verb = 'INSERT') =>
    db.run(`${verb} INTO auth_meta (key, value) VALUES ($key, '1')`, { key });

  it('a write inside another one runs as part of it, and reports that it was done', () => {
    const db = AppDatabase.open(':memory:', logger);
    let inner: boolean | undefined;
    db.write('outer', () => {
      put(db, 'outer');
      inner = db.write('inner', () => put(db, 'inner'));
    });
    expect(inner).toBe(true);
    expect(keys(db)).toEqual(['inner', 'outer']);
    db.close();
  });

  it('a write whose statement ended the transaction itself fails with that statement’s error', () => {
    const db = AppDatabase.open(':memory:', logger);
    db.write('first', () => put(db, 'k'));
    // OR ROLLBACK: SQLite rolls the whole transaction back before the error reaches the caller.
    expect(() =>
      db.write('conflict', () => {
        put(db, 'lost');
        put(db, 'k', 'INSERT OR ROLLBACK');
      }),
    ).toThrow(/UNIQUE constraint failed/);
    expect(db.write('after', () => put(db, 'after'))).toBe(true);
    expect(keys(db)).toEqual(['after', 'k']);
    db.close();
  });

  it('a write dropped after the service closed is logged with the database file and the write', () => {
    const { log, lines } = recordingLogger();
    const db = openAppDatabase({ dataDir: dir, logger: log });
    db.seal();
    expect(db.write('late-login', () => {})).toBe(false);
    db.close();
    expect(lines).toContainEqual(
      expect.objectContaining({ path: join(dir, DATABASE_FILE), write: 'late-login', level: 40 }),
    );
  });
});

describe('without a data dir', () => {
  it('the database lives in memory', () => {
    const db = openAppDatabase({ logger });
    expect(db.path).toBe(':memory:');
    db.write('in memory', () => db.run("INSERT INTO auth_meta (key, value) VALUES ('k', '1')"));
    expect(db.get<{ n: number }>('SELECT count(*) AS n FROM auth_meta')?.n).toBe(1);
    db.close();
  });
});

describe('importing older state', () => {
  it('builds the new file with a rollback journal, so the file is whole on its own when renamed', () => {
    writeFileSync(join(dir, 'old.json'), '{}');
    let journal: unknown;
    const db = openAppDatabase({
      dataDir: dir,
      logger,
      imports: [
        legacy((temp) => {
          journal = temp.get<{ journal_mode: string }>('PRAGMA journal_mode')?.journal_mode;
        }),
      ],
    });
    db.close();
    expect(journal).toBe('delete');
  });

  it('logs which older files were imported, and where to', () => {
    writeFileSync(join(dir, 'old.json'), '{}');
    const { log, lines } = recordingLogger();
    openAppDatabase({
      dataDir: dir,
      logger: log,
      imports: [legacy(() => {}, 'auth-json'), legacy(() => {}, 'sessions-json')],
    }).close();
    expect(lines).toContainEqual(
      expect.objectContaining({ path: join(dir, DATABASE_FILE), imported: ['auth-json', 'sessions-json'] }),
    );
  });
});
