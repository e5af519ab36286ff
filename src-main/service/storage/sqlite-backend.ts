import type { Logger } from '../logger';
import type { Lease, Params, Queryable, StorageBackend } from './backend';
import { deliver, toPositional, valuesFor } from './backend';
import type { AppDatabase } from './database';

/**
 * The SQLite StorageBackend (backend.ts) over the embedded AppDatabase (database.ts), which keeps
 * opening, migrating, WAL, fsync and legacy imports as they are.
 *
 * Rules:
 * - One connection, and a transaction's `fn` may await: so every call is serialised on one
 *   promise chain, and a statement from another caller waits until an open transaction has
 *   committed or rolled back, instead of landing inside it.
 * - Inside `fn`, use only its `tx` handle: a call on the backend itself would queue behind the
 *   transaction that is waiting for it.
 * - Signals stay in this process, which is the whole service on SQLite: notify reaches this
 *   backend's listeners (after notify returns, never inside the caller's stack), and a lease is
 *   always granted and never lost.
 * - While the service moves to this seam, its users move together: AppDatabase.write used beside
 *   an open transaction here throws (SQLite refuses a nested BEGIN) rather than joining it.
 */
export class SqliteBackend implements StorageBackend {
  readonly dialect = 'sqlite';
  private chain: Promise<unknown> = Promise.resolve();
  private readonly tx: Queryable;
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  constructor(
    private readonly db: AppDatabase,
    private readonly logger: Logger,
  ) {
    // node:sqlite binds a missing $name as NULL; PostgreSQL's backend refuses it, and so does this one.
    const names = new Map<string, readonly string[]>();
    const checked = (sql: string, params: Params) => {
      let n = names.get(sql);
      if (!n) {
        n = toPositional(sql).names;
        names.set(sql, n);
      }
      valuesFor(n, params, sql);
      return { ...params };
    };
    this.tx = {
      all: async <T>(sql: string, params: Params = {}) => db.all<T>(sql, checked(sql, params)),
      get: async <T>(sql: string, params: Params = {}) => db.get<T>(sql, checked(sql, params)),
      run: async (sql: string, params: Params = {}) => db.run(sql, checked(sql, params)),
    };
  }

  get where(): string {
    return this.db.path;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => {});
    return next;
  }

  all<T>(sql: string, params: Params = {}): Promise<T[]> {
    return this.serial(() => this.tx.all<T>(sql, params));
  }

  get<T>(sql: string, params: Params = {}): Promise<T | undefined> {
    return this.serial(() => this.tx.get<T>(sql, params));
  }

  run(sql: string, params: Params = {}): Promise<number> {
    if (this.dropped('statement')) return Promise.resolve(0);
    return this.serial(() => this.tx.run(sql, params));
  }

  transaction(label: string, fn: (tx: Queryable) => Promise<void>): Promise<boolean> {
    // Sealed is decided when the write is asked for, as on PostgreSQL: one asked before close runs.
    if (this.dropped(label)) return Promise.resolve(false);
    return this.serial(async () => {
      // IMMEDIATE takes the write lock now, so a second process waits here, not at COMMIT.
      this.db.run('BEGIN IMMEDIATE');
      try {
        await fn(this.tx);
        this.db.run('COMMIT');
      } catch (err) {
        this.db.run('ROLLBACK');
        throw err;
      }
      return true;
    });
  }

  private dropped(label: string): boolean {
    const sealed = this.db.isSealed;
    if (sealed)
      this.logger.warn({ where: this.where, write: label }, 'write after the service closed was dropped');
    return sealed;
  }

  get isSealed(): boolean {
    return this.db.isSealed;
  }

  seal(): void {
    this.db.seal();
  }

  async notify(channel: string, payload: string): Promise<void> {
    if (this.closed) return;
    for (const fn of this.channels.get(channel) ?? []) deliver(this.logger, channel, () => fn(payload));
  }

  async listen(
    channel: string,
    onPayload: (payload: string) => void,
    onListen?: () => void,
  ): Promise<() => Promise<void>> {
    // A fresh function per call, so the same callback listening twice is two listeners, as on PostgreSQL.
    const fn = (payload: string) => onPayload(payload);
    let set = this.channels.get(channel);
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
    }
    set.add(fn);
    if (onListen) deliver(this.logger, channel, onListen);
    return async () => {
      set.delete(fn);
    };
  }

  async tryLease(key: string): Promise<Lease | null> {
    if (this.closed) return null;
    return { key, lost: new Promise<void>(() => {}), release: async () => {} };
  }

  /** After what is queued has run: a transaction in flight commits (or rolls back) first. */
  close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
    this.db.seal();
    return this.serial(async () => this.db.close());
  }
}
