/**
 * The storage seam (issue 25 §1): what auth, the event history, snapshot jobs and workspaces will
 * ask of the database, whichever backend holds it — embedded SQLite (the default) or PostgreSQL.
 *
 * Rules:
 * - Async, because a PostgreSQL client is; the SQLite backend answers resolved promises.
 * - SQL is one text with `$name` placeholders (what today's SQLite statements use). Most of it is
 *   portable as written (`ON CONFLICT … DO UPDATE SET c = excluded.c`, `ON CONFLICT DO NOTHING`,
 *   `RETURNING`, partial indexes); where it is not, the caller picks by `dialect` once.
 * - Every write goes through `run` or `transaction`; once sealed (the service closed) both are
 *   dropped and logged, as AppDatabase.write does, so a request cut off by close writes nothing.
 * - A transaction's `fn` gets its own handle and runs all-or-nothing; there is no nesting.
 * - Integers come back as JS numbers on both backends (see postgres-client.ts).
 * - Signals (notify/listen) are hints, never data: a receiver re-reads what changed. A listener
 *   that throws (or rejects) is logged and the next payload is still delivered; after close,
 *   notify is dropped and tryLease grants nothing.
 */

import type { Logger } from '../logger';

export type Param = string | number | null | Uint8Array;
export type Params = Readonly<Record<string, Param>>;

export interface Queryable {
  all<T>(sql: string, params?: Params): Promise<T[]>;
  get<T>(sql: string, params?: Params): Promise<T | undefined>;
  /** Runs one statement; answers how many rows it changed. */
  run(sql: string, params?: Params): Promise<number>;
}

export interface StorageBackend extends Queryable {
  readonly dialect: 'sqlite' | 'postgres';
  /** Where the data lives, for messages: a file path, or a URL without its password. */
  readonly where: string;
  /** All of `fn` or none of it. False when sealed: `fn` was not run, and the write was logged as dropped. */
  transaction(label: string, fn: (tx: Queryable) => Promise<void>): Promise<boolean>;
  readonly isSealed: boolean;
  seal(): void;
  close(): Promise<void>;
  /**
   * Tells every replica (this one included) that something changed: PostgreSQL NOTIFY on
   * PostgreSQL, an in-process dispatch on SQLite (one process is the whole service there).
   * `payload` is small (an id), never a secret: receivers re-read the row.
   */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Calls `onPayload` for each notification on `channel`, and `onListen` each time the listening
   * connection is (re)established, so a receiver can re-read everything it may have missed while
   * disconnected. Answers the unsubscribe.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onListen?: () => void,
  ): Promise<() => Promise<void>>;
  /**
   * A lease across replicas: a PostgreSQL session advisory lock on a connection of its own,
   * taken without waiting (null: another replica holds it). On SQLite it is always granted.
   * `lost` resolves if the connection holding it ends (the lock is gone with it).
   */
  tryLease(key: string): Promise<Lease | null>;
}

export interface Lease {
  readonly key: string;
  /** Resolves when the lease is lost without release() (its connection ended). */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

/** Runs a listener so that neither its throw nor its rejection escapes: logged, then forgotten. */
export function deliver(logger: Logger, channel: string, fn: () => unknown): void {
  Promise.resolve()
    .then(fn)
    .catch((err: unknown) =>
      logger.error({ channel, err: err instanceof Error ? err.message : String(err) }, 'a listener failed'),
    );
}

const PLACEHOLDER = /\$([A-Za-z_][A-Za-z0-9_]*)/y;

/**
 * `$name` placeholders to PostgreSQL's `$1…$n` (one number per name, however often it is used),
 * leaving quoted strings, quoted identifiers and comments alone. `names[i]` is `$i+1`'s name.
 */
export function toPositional(sql: string): { text: string; names: readonly string[] } {
  const names: string[] = [];
  let text = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      // A doubled quote inside is an escaped quote: the scan resumes at the real closing one.
      let j = i + 1;
      while (j < sql.length && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      text += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const j = end === -1 ? sql.length : end;
      text += sql.slice(i, j);
      i = j;
    } else if (c === '$') {
      PLACEHOLDER.lastIndex = i;
      const m = PLACEHOLDER.exec(sql);
      if (!m) {
        text += c;
        i++;
        continue;
      }
      let n = names.indexOf(m[1]!);
      if (n === -1) n = names.push(m[1]!) - 1;
      text += `$${n + 1}`;
      i += m[0].length;
    } else {
      text += c;
      i++;
    }
  }
  return { text, names };
}

/** The values for `names`, in order; a name without a value is a programming error, said plainly. */
export function valuesFor(names: readonly string[], params: Params, sql: string): Param[] {
  return names.map((name) => {
    const v = params[name];
    if (v === undefined) throw new Error(`no value for $${name} in: ${sql.trim().slice(0, 200)}`);
    return v;
  });
}
