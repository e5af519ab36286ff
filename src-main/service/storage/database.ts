import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { Logger } from '../logger';
import { migrate } from './migrations';

/** The service's one database file in the data dir; sections add tables through migrations.ts. */
export const DATABASE_FILE = 'skiff.db';
/** A database being built from older files; renamed to DATABASE_FILE only once complete. */
const IMPORT_SUFFIX = '.import-';
const BUSY_TIMEOUT_MS = 5_000;

export type Row = Record<string, SQLInputValue>;

/**
 * Fills a new database from files an older Skiff kept (the auth JSON files), on the first start
 * that finds no database. `fill` runs on a database already at the current schema; `done` runs
 * only after the filled database has replaced nothing and been renamed into place.
 */
export interface LegacyImport {
  name: string;
  /** True when there is something to import. */
  pending(): boolean;
  fill(db: AppDatabase): void;
  done(): void;
}

/**
 * The embedded database (node:sqlite: built into Node 24 and Electron, so nothing to rebuild).
 *
 * - WAL: readers never wait for the writer, and a commit appends to the log instead of rewriting
 *   pages in place.
 * - synchronous=FULL: each commit is fsynced before it returns. NORMAL would survive a killed
 *   process just as well, but a power loss could then undo the last commits, and here those are
 *   logouts, revocations and refresh-token rotations: a revoked session must not come back. The
 *   price is one WAL fsync per commit, the same for an empty database as for a full one.
 * - foreign keys on, a busy timeout for a second process on the same data dir.
 *
 * Writes go through `write`, one transaction each. After `seal` (the service closed) writes are
 * dropped and logged, as the JSON stores did: a request cut off by close must not write into a
 * data dir its owner has removed.
 */
export class AppDatabase {
  private readonly statements = new Map<string, StatementSync>();
  private sealed = false;
  private depth = 0;

  private constructor(
    private readonly db: DatabaseSync,
    readonly path: string,
    private readonly logger: Logger,
  ) {}

  /** Opens (creating if need be) and migrates; throws DatabaseVersionError for a newer schema. */
  static open(path: string, logger: Logger, opts: { journal?: 'wal' | 'delete' } = {}): AppDatabase {
    const db = new DatabaseSync(path, { enableForeignKeyConstraints: true });
    try {
      // It holds password and token hashes: readable by its owner only (SQLite gives the WAL the same mode).
      if (path !== ':memory:') chmodSync(path, 0o600);
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      // Before anything that writes (journal_mode changes the file): a newer schema is refused untouched.
      migrate(db, path, () => {
        if (path !== ':memory:')
          db.exec(`PRAGMA journal_mode = ${opts.journal === 'delete' ? 'DELETE' : 'WAL'}`);
        db.exec('PRAGMA synchronous = FULL');
      });
    } catch (err) {
      db.close();
      throw err;
    }
    return new AppDatabase(db, path, logger);
  }

  /** A prepared statement, kept for the life of the connection. */
  statement(sql: string): StatementSync {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  all<T>(sql: string, params: Row = {}): T[] {
    return this.statement(sql).all(params) as T[];
  }

  get<T>(sql: string, params: Row = {}): T | undefined {
    return this.statement(sql).get(params) as T | undefined;
  }

  /** Runs one statement inside the current write (or as its own), returning the rows it changed. */
  run(sql: string, params: Row = {}): number {
    return Number(this.statement(sql).run(params).changes);
  }

  /**
   * One transaction: all of `fn` or none of it. Nested calls join the outer one. Once sealed,
   * `fn` is not run and the write is logged as dropped; the caller's memory may still change.
   */
  write(label: string, fn: () => void): boolean {
    if (this.sealed) {
      this.logger.warn({ path: this.path, write: label }, 'write after the service closed was dropped');
      return false;
    }
    if (this.depth > 0) {
      fn();
      return true;
    }
    // IMMEDIATE takes the write lock now, so a second process waits here, not at COMMIT.
    this.db.exec('BEGIN IMMEDIATE');
    this.depth++;
    try {
      fn();
      this.db.exec('COMMIT');
    } catch (err) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw err;
    } finally {
      this.depth--;
    }
    return true;
  }

  get isSealed(): boolean {
    return this.sealed;
  }

  seal(): void {
    this.sealed = true;
  }

  /** Seals and closes; closing the last connection checkpoints the WAL and removes it. */
  close(): void {
    this.sealed = true;
    if (!this.db.isOpen) return;
    this.statements.clear();
    this.db.close();
  }
}

/**
 * Opens the data dir's database, in memory when there is no data dir. On the first start that
 * finds no database but older files to import, the database is built under a temporary name and
 * renamed into place only when the import completed: a failed import leaves the data dir as it
 * was (its temporary file removed), and the next start tries again.
 */
export function openAppDatabase(opts: {
  dataDir?: string | undefined;
  logger: Logger;
  imports?: readonly LegacyImport[];
}): AppDatabase {
  const { dataDir, logger } = opts;
  if (!dataDir) return AppDatabase.open(':memory:', logger);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, DATABASE_FILE);
  removeAbandonedImports(dataDir);
  const pending = existsSync(path) ? [] : (opts.imports ?? []).filter((i) => i.pending());
  if (pending.length > 0) {
    const temp = `${path}${IMPORT_SUFFIX}${process.pid}`;
    try {
      // A rollback journal, not WAL: the file must be whole on its own when it is renamed.
      const db = AppDatabase.open(temp, logger, { journal: 'delete' });
      try {
        db.write('import', () => {
          for (const i of pending) i.fill(db);
        });
      } finally {
        db.close();
      }
      renameSync(temp, path);
      // The rename itself must be on disk before the older files are renamed away.
      const fd = openSync(dataDir, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      rmSync(temp, { force: true });
      rmSync(`${temp}-journal`, { force: true });
      throw err;
    }
    for (const i of pending) i.done();
    logger.info({ path, imported: pending.map((i) => i.name) }, 'imported older state into the database');
  }
  return AppDatabase.open(path, logger);
}

function removeAbandonedImports(dataDir: string) {
  for (const name of readdirSync(dataDir)) {
    if (name.startsWith(`${DATABASE_FILE}${IMPORT_SUFFIX}`)) rmSync(join(dataDir, name), { force: true });
  }
}
