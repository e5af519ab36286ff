import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { DATABASE_FILE, type LegacyImport } from './database';
import { openStorage } from './index';
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
  it('opens the data dir: its database file and its conf file (skiff.json), both written there', () => {
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
      s.close();
    }
    // Closed: the WAL was checkpointed into the file, which another open reads.
    const again = openStorage({ dataDir: dir, logger });
    try {
      expect(count(again)).toBe(1);
      expect(again.store.get('workspaceConfig')).toEqual({ workspaces: [] });
    } finally {
      again.close();
    }
  });

  it('without a data dir keeps both in memory and writes no file', () => {
    const s = openStorage({ logger });
    try {
      expect(s.db.path).toBe(':memory:');
      expect(s.store.path).toBe(':memory:');
      s.store.set('k', 1);
      expect(s.store.get('k')).toBe(1);
    } finally {
      s.close();
    }
  });

  it('uses the store it is given (the desktop’s electron-store) instead of the conf file', () => {
    const given = memoryStore();
    const s = openStorage({ dataDir: dir, store: given, logger });
    try {
      s.store.set('k', 'v');
      expect(given.get('k')).toBe('v');
      expect(existsSync(join(dir, 'skiff.json'))).toBe(false);
      expect(existsSync(join(dir, DATABASE_FILE))).toBe(true);
    } finally {
      s.close();
    }
  });

  it('fills a new database from the older files it is given, once', () => {
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
      s.close();
    }
  });

  it('close seals both: later writes are dropped, the store still answers reads', () => {
    const given = memoryStore();
    const s = openStorage({ store: given, logger });
    s.store.set('before', 1);
    s.close();
    s.store.set('after', 2);
    s.store.delete('before');
    expect(given.get('after')).toBeUndefined();
    expect(s.store.get('before')).toBe(1);
    expect(s.db.isSealed).toBe(true);
    expect(s.db.write('late', () => {})).toBe(false);
  });

  it('throws, opening nothing, when the data dir cannot hold a database', () => {
    // A file where the data dir should be: nothing can be created under it.
    const notAFolder = join(dir, 'data');
    writeFileSync(notAFolder, 'not a folder');
    expect(() => openStorage({ dataDir: notAFolder, logger })).toThrow(/EEXIST|ENOTDIR/);
    expect(readFileSync(notAFolder, 'utf8')).toBe('not a folder');
  });
});
