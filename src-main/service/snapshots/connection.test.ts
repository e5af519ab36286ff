import { DatabaseSync, constants as sqlite } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ALLOWED_ACTIONS,
  authorize,
  CONNECTION_PRAGMAS,
  connectionOptions,
  FILE_LIMITS,
  openSnapshotConnection,
  SQLITE_LIMITS,
} from './connection';
import { writeBase } from './hostile-files.test-support';
import { tempFolder } from './skiff-file.test-support';

/**
 * How a snapshot is opened (connection.ts), read back from the connection itself: read-only,
 * defensive, no extensions, SQLite's limits, the pragmas, and an authorizer that lets only
 * top-level reads through.
 */

let folder: ReturnType<typeof tempFolder>;
let path: string;
beforeEach(() => {
  folder = tempFolder();
  path = folder.path('base.skiff');
  writeBase(path);
});
afterEach(() => folder.remove());

describe('connectionOptions', () => {
  it('opens read-only and defensive, with no extensions and no foreign keys, waiting for a lock the time given', () => {
    expect(connectionOptions(1_234)).toEqual({
      readOnly: true,
      defensive: true,
      allowExtension: false,
      enableForeignKeyConstraints: false,
      timeout: 1_234,
      limits: SQLITE_LIMITS,
    });
    expect(SQLITE_LIMITS.length).toBe(FILE_LIMITS.valueBytes);
    expect(SQLITE_LIMITS.attach).toBe(0);
  });
});

describe('openSnapshotConnection', () => {
  it("sets SQLite's limits and the pragmas on the connection", () => {
    const db = openSnapshotConnection(path);
    try {
      expect({ ...db.limits }).toEqual(SQLITE_LIMITS);
      db.setAuthorizer(null);
      const pragma = (name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0];
      expect([pragma('trusted_schema'), pragma('query_only'), pragma('cell_size_check')]).toEqual([0, 1, 1]);
      expect(CONNECTION_PRAGMAS).toHaveLength(3);
    } finally {
      db.close();
    }
  });

  it('cannot write, even with the authorizer gone, and loads no extension', () => {
    const db = openSnapshotConnection(path);
    try {
      db.setAuthorizer(null);
      expect(() => db.exec("DELETE FROM objects WHERE kind = 'pod'")).toThrow(/readonly|query_only/);
      db.exec('PRAGMA query_only = OFF');
      expect(() => db.exec("DELETE FROM objects WHERE kind = 'pod'")).toThrow(/readonly database/);
      expect(() => db.loadExtension('/nowhere/ext.so')).toThrow(/extension loading is not allowed/i);
    } finally {
      db.close();
    }
  });

  it('refuses a statement on a view, a recursive CTE, a pragma and a write through its authorizer', () => {
    const writable = new DatabaseSync(path);
    writable.exec('CREATE VIEW pods AS SELECT * FROM objects');
    writable.close();
    const db = openSnapshotConnection(path);
    try {
      expect(db.prepare('SELECT count(*) AS n FROM objects').get()).toEqual({ n: 3 });
      for (const sql of [
        'SELECT * FROM pods',
        'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c LIMIT 1',
        'PRAGMA table_info(objects)',
      ])
        expect(() => db.prepare(sql), sql).toThrow(/not authorized|prohibited/);
    } finally {
      db.close();
    }
  });

  it('refuses a value longer than the limit', () => {
    const writable = new DatabaseSync(path);
    writable.exec(
      `INSERT INTO logs VALUES ('shop', 'web', 'app', 0, 1, printf('%.*c', ${FILE_LIMITS.valueBytes + 1}, 'x'))`,
    );
    writable.close();
    const db = openSnapshotConnection(path);
    try {
      expect(() => db.prepare('SELECT text FROM logs').all()).toThrow(/string or blob too big/);
    } finally {
      db.close();
    }
  });

  it('throws what SQLite says for a file it cannot open', () => {
    expect(() => openSnapshotConnection(folder.path('nowhere.skiff'))).toThrow(
      /unable to open database file/,
    );
  });
});

describe('authorize', () => {
  it('lets through top-level selects, reads and function calls only', () => {
    expect(ALLOWED_ACTIONS).toEqual([sqlite.SQLITE_SELECT, sqlite.SQLITE_READ, sqlite.SQLITE_FUNCTION]);
    for (const action of ALLOWED_ACTIONS) {
      expect(authorize(action, null)).toBe(sqlite.SQLITE_OK);
      expect(authorize(action, 'a_view')).toBe(sqlite.SQLITE_DENY);
    }
    for (const action of [
      sqlite.SQLITE_RECURSIVE,
      sqlite.SQLITE_PRAGMA,
      sqlite.SQLITE_INSERT,
      sqlite.SQLITE_UPDATE,
      sqlite.SQLITE_DELETE,
      sqlite.SQLITE_ATTACH,
      sqlite.SQLITE_CREATE_TABLE,
      sqlite.SQLITE_TRANSACTION,
    ])
      expect(authorize(action, null)).toBe(sqlite.SQLITE_DENY);
  });
});
