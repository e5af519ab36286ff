import postgres from 'postgres';
import type { Logger } from '../logger';

/**
 * The PostgreSQL connection pool (issue 25 §1): `--database postgres://…` or `SKIFF_DATABASE_URL`.
 *
 * The client is `postgres` (porsager/postgres), not `pg`:
 * - LISTEN/NOTIFY is built in and survives reconnects (`sql.listen` re-subscribes on a new
 *   connection), which §2's revocation-within-1-s rests on; with `pg` we would hold and re-open a
 *   dedicated client ourselves.
 * - Tagged templates make every interpolated value a bound parameter, so SQL injection needs a
 *   deliberate `sql.unsafe`; `pg` takes a string and an array, where a forgotten `$n` is a hole.
 * - Pooling, `sql.begin` (a transaction pinned to one connection, with savepoints) and
 *   `sql.reserve` (one connection held, as the session advisory lock of migrations needs) are in
 *   the one package, which has no dependencies and ships its own types; `pg` needs `pg-pool`
 *   semantics and `@types/pg`.
 * - `sslmode` in the URL (`disable`, `prefer`, `require`, `verify-full`) is read by the client.
 *
 * Rules: values come back as the SQLite backend gives them. `int8` (our epoch milliseconds,
 * counts, identity keys) is parsed to a JS number, not the client's default string: every such
 * value fits in 2^53 (a millisecond time until year 287,396), and the stores' rows must have the
 * same shape on both backends. Server notices go to the logger at debug, never to the console.
 */

export type Sql = postgres.Sql<Record<string, never>>;

export interface PostgresOptions {
  /** Pool size; 10 is the client's default and PostgreSQL's default allows 100 connections. */
  max?: number;
  /** Seconds before an idle connection is closed (omitted: kept). */
  idleTimeout?: number;
  /**
   * Seconds a connection lives before it is replaced (omitted: the client's 30–60 min; null: for
   * ever). A lease's connection must never be replaced: its lock would go with it.
   */
  maxLifetime?: number | null;
  /** Called when a connection closes, whoever closed it. */
  onclose?: () => void;
}

/** Opens a pool (connections are made on first use): call `end()` on it at close. */
export function connectPostgres(url: string, logger: Logger, opts: PostgresOptions = {}): Sql {
  return postgres(url, {
    max: opts.max ?? 10,
    ...(opts.idleTimeout === undefined ? {} : { idle_timeout: opts.idleTimeout }),
    ...(opts.maxLifetime === undefined ? {} : { max_lifetime: opts.maxLifetime }),
    ...(opts.onclose === undefined ? {} : { onclose: opts.onclose }),
    connection: { application_name: 'skiff' },
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (x: number) => String(x),
        parse: (x: string) => Number(x),
      },
    },
    onnotice: (notice) => logger.debug({ notice: notice.message }, 'postgres notice'),
  }) as unknown as Sql;
}
