import type { Logger } from '../logger';
import type { Params, Queryable, StorageBackend } from './backend';
import { toPositional, valuesFor } from './backend';
import { migratePostgres } from './migrations-postgres';
import { connectPostgres, type PostgresOptions, type Sql } from './postgres-client';

/**
 * The PostgreSQL StorageBackend (backend.ts): a pool (postgres-client.ts, which says why this
 * client), migrated under the advisory lock before it is handed out (migrations-postgres.ts).
 *
 * Rules: `$name` SQL is rewritten to `$1…$n` once per text and kept; statements are prepared
 * by the server per connection (the client's default). A transaction is `sql.begin`: one pooled
 * connection, READ COMMITTED, committed when `fn` resolves, rolled back when it throws. The URL's
 * password never appears in messages (`where`).
 */

/** The URL as messages may show it: without its password. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the PostgreSQL database (its URL does not parse)';
  }
}

type Unsafe = Pick<Sql, 'unsafe'>;

class Statements implements Queryable {
  constructor(
    protected readonly conn: Unsafe,
    private readonly texts: Map<string, ReturnType<typeof toPositional>>,
  ) {}

  protected exec(sql: string, params: Params) {
    let t = this.texts.get(sql);
    if (!t) {
      t = toPositional(sql);
      this.texts.set(sql, t);
    }
    return this.conn.unsafe(t.text, valuesFor(t.names, params, sql));
  }

  async all<T>(sql: string, params: Params = {}): Promise<T[]> {
    return [...(await this.exec(sql, params))] as T[];
  }

  async get<T>(sql: string, params: Params = {}): Promise<T | undefined> {
    return (await this.exec(sql, params))[0] as T | undefined;
  }

  async run(sql: string, params: Params = {}): Promise<number> {
    return (await this.exec(sql, params)).count;
  }
}

class PostgresBackend extends Statements implements StorageBackend {
  readonly dialect = 'postgres';
  private sealed = false;

  constructor(
    private readonly sql: Sql,
    readonly where: string,
    private readonly logger: Logger,
    private readonly shared: Map<string, ReturnType<typeof toPositional>>,
  ) {
    super(sql, shared);
  }

  override async run(sql: string, params: Params = {}): Promise<number> {
    if (this.dropped('statement')) return 0;
    return super.run(sql, params);
  }

  async transaction(label: string, fn: (tx: Queryable) => Promise<void>): Promise<boolean> {
    if (this.dropped(label)) return false;
    await this.sql.begin(async (tx) => {
      await fn(new Statements(tx as unknown as Unsafe, this.shared));
    });
    return true;
  }

  private dropped(label: string): boolean {
    if (this.sealed)
      this.logger.warn({ where: this.where, write: label }, 'write after the service closed was dropped');
    return this.sealed;
  }

  get isSealed(): boolean {
    return this.sealed;
  }

  seal(): void {
    this.sealed = true;
  }

  async close(): Promise<void> {
    this.sealed = true;
    // Bounded: a query cut off by close must not hold the service's shutdown.
    await this.sql.end({ timeout: 5 });
  }
}

/**
 * Connects and migrates; throws DatabaseVersionError for a database newer than this code (left
 * untouched), and the client's error for one it cannot reach. Nothing is left open on a throw.
 */
export async function openPostgresBackend(
  url: string,
  logger: Logger,
  opts: PostgresOptions = {},
): Promise<StorageBackend> {
  const where = redactUrl(url);
  const sql = connectPostgres(url, logger, opts);
  try {
    await migratePostgres(sql, where);
  } catch (err) {
    await sql.end({ timeout: 5 });
    throw err;
  }
  return new PostgresBackend(sql, where, logger, new Map());
}
