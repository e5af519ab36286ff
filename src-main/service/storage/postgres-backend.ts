import type { Logger } from '../logger';
import type { Lease, Params, Queryable, StorageBackend } from './backend';
import { deliver, toPositional, valuesFor } from './backend';
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
 *
 * Signals: notify is `pg_notify` (delivered after the notifier's transaction commits, to every
 * listening session, this replica's included); listen is the client's dedicated listening
 * connection, which re-subscribes when it reconnects and then calls `onListen` again. A lease is
 * a session advisory lock on a connection of its own, never recycled (no idle timeout, no
 * maximum lifetime: the lock would go with it); when that connection closes for any reason but
 * release, `lost` resolves. Keys are hashed to 64 bits (`hashtextextended`), apart from the
 * migrations' lock in practice (a collision is a 2^-64 chance). close() ends every lease at once,
 * so a stopping replica hands its leases over without waiting.
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

/** Opens a pool of one connection for a lease; `onclose` runs when that connection closes. */
type LeaseClient = (onclose: () => void) => Sql;

class PostgresBackend extends Statements implements StorageBackend {
  readonly dialect = 'postgres';
  private sealed = false;
  private closed = false;
  private readonly leases = new Set<Sql>();

  constructor(
    private readonly sql: Sql,
    readonly where: string,
    private readonly logger: Logger,
    private readonly shared: Map<string, ReturnType<typeof toPositional>>,
    private readonly leaseClient: LeaseClient,
  ) {
    super(sql, shared);
  }

  async notify(channel: string, payload: string): Promise<void> {
    if (this.closed) return;
    await this.sql.notify(channel, payload);
  }

  async listen(
    channel: string,
    onPayload: (payload: string) => void,
    onListen?: () => void,
  ): Promise<() => Promise<void>> {
    const { unlisten } = await this.sql.listen(
      channel,
      (payload) => deliver(this.logger, channel, () => onPayload(payload)),
      onListen && (() => deliver(this.logger, channel, onListen)),
    );
    return async () => {
      if (!this.closed) await unlisten();
    };
  }

  async tryLease(key: string): Promise<Lease | null> {
    if (this.closed) return null;
    let released = false;
    let lose!: () => void;
    const lost = new Promise<void>((resolve) => {
      lose = resolve;
    });
    const conn = this.leaseClient(() => {
      if (!released) lose();
    });
    const end = async () => {
      released = true;
      this.leases.delete(conn);
      await conn.end({ timeout: 5 });
    };
    this.leases.add(conn);
    try {
      const [row] = await conn.unsafe<{ granted: boolean }[]>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS granted',
        [key],
      );
      if (!row!.granted) {
        await end();
        return null;
      }
    } catch (err) {
      await end();
      throw err;
    }
    if (this.closed) {
      await end();
      return null;
    }
    this.logger.debug({ where: this.where, lease: key }, 'lease taken');
    // Ending the session releases the lock: nothing to unlock first, and nothing to wait for.
    return { key, lost, release: end };
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
    this.closed = true;
    // Leases first and at once: another replica may take them over while this one winds down.
    const leases = [...this.leases].map((conn) => conn.end({ timeout: 0 }));
    this.leases.clear();
    // Bounded: a query cut off by close must not hold the service's shutdown.
    await Promise.all([...leases, this.sql.end({ timeout: 5 })]);
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
  const leaseClient: LeaseClient = (onclose) =>
    connectPostgres(url, logger, { max: 1, maxLifetime: null, onclose });
  return new PostgresBackend(sql, where, logger, new Map(), leaseClient);
}
