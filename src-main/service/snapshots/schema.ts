import { DatabaseSync } from 'node:sqlite';
import { SNAPSHOT_DDL_OF, SNAPSHOT_SCHEMA_VERSION } from './format';

/**
 * What a `.skiff` file's schema may be: exactly the tables of format.ts for the file's version,
 * with their columns, their indexes and SQLite's automatic indexes for their keys, and nothing
 * else: no view, no trigger, no virtual table, no other table or index (a view named like a table
 * can make a query that never ends; a trigger or a generated column runs code the file chose).
 *
 * Rules: each entry of `sqlite_schema` is compared with the one SNAPSHOT_DDL_OF[version] gives, by
 * type, name, table and SQL text, the text with runs of white space made one space. A version-1
 * file holding version 2's kinds table is refused as much as a version-2 file without it. The
 * check reads at most SCHEMA_ROWS entries, one more than the largest version has, so a schema of a
 * million entries costs no more than one with an extra view. Messages say what was found, in one
 * line.
 */

export interface SchemaRow {
  type: unknown;
  name: unknown;
  tbl_name: unknown;
  sql: unknown;
}

interface Expected {
  type: string;
  name: string;
  tbl_name: string;
  sql: unknown;
}

/** The statement reading the entries to compare (bounded). */
export const SCHEMA_SQL = 'SELECT type, name, tbl_name, sql FROM sqlite_schema LIMIT ?';

const normalised = (sql: unknown) => (typeof sql === 'string' ? sql.replace(/\s+/g, ' ').trim() : sql);

function entriesOf(ddl: string): Expected[] {
  const db = new DatabaseSync(':memory:');
  try {
    db.exec(ddl);
    return (
      db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema').all() as unknown as SchemaRow[]
    ).map((r) => ({
      type: String(r.type),
      name: String(r.name),
      tbl_name: String(r.tbl_name),
      sql: normalised(r.sql),
    }));
  } finally {
    db.close();
  }
}

/** Each version's entries, by version (1 up to SNAPSHOT_SCHEMA_VERSION). */
const EXPECTED_OF: ReadonlyMap<number, readonly Expected[]> = new Map(
  Object.entries(SNAPSHOT_DDL_OF).map(([v, ddl]) => [Number(v), entriesOf(ddl)]),
);

/** The entries of a version; the current version's for one this reader does not have. */
const expectedOf = (version: number): readonly Expected[] =>
  EXPECTED_OF.get(version) ?? (EXPECTED_OF.get(SNAPSHOT_SCHEMA_VERSION) as readonly Expected[]);

/** Entries read: one more than the largest version has, enough to see that there is more. */
export const SCHEMA_ROWS = Math.max(...[...EXPECTED_OF.values()].map((e) => e.length)) + 1;

/** A name from the file as a message shows it: quoted, and short. */
const shown = (v: unknown) => JSON.stringify(String(v).slice(0, 64));

/** Whether `expected` has this entry: by type and name (names are unique in a schema). */
const known = (expected: readonly Expected[], r: SchemaRow) =>
  expected.some((e) => e.type === r.type && e.name === r.name);

function unexpected(expected: readonly Expected[], row: SchemaRow): string {
  const tables = expected.filter((e) => e.type === 'table').map((e) => e.name);
  return `it holds ${String(row.type).slice(0, 16)} ${shown(row.name)}, which a snapshot does not have (only the tables ${tables.join(', ')} and their indexes)`;
}

/** The first of `expected` that `rows` lack or have otherwise (another table, other SQL). */
function missingOrChanged(rows: readonly SchemaRow[], expected: readonly Expected[]): string | undefined {
  for (const e of expected) {
    const row = rows.find((r) => r.name === e.name);
    if (!row) return `it has no ${e.type} ${e.name}`;
    if (row.tbl_name !== e.tbl_name || normalised(row.sql) !== e.sql)
      return `its ${e.type} ${e.name} is not as the snapshot format defines it`;
  }
  return undefined;
}

/**
 * What is wrong with the `meta` table's entries, if anything: checked before meta is read (a view
 * named meta must never be queried), and before the rest, so a newer file's other tables are
 * not what it is refused for.
 */
export function metaTableProblem(rows: readonly SchemaRow[]): string | undefined {
  // Every version's meta is the same; the version is not known yet (it is in meta).
  const expected = expectedOf(SNAPSHOT_SCHEMA_VERSION);
  // A table's or a view's tbl_name is its name; an index's or a trigger's, its table's.
  const meta = rows.filter((r) => r.tbl_name === 'meta');
  if (meta.length === 0) return 'it has no meta table (an SQLite database, but not a snapshot)';
  const other = meta.find((r) => !known(expected, r));
  if (other) return unexpected(expected, other);
  return missingOrChanged(
    meta,
    expected.filter((e) => e.tbl_name === 'meta'),
  );
}

function versionProblem(rows: readonly SchemaRow[], expected: readonly Expected[]): string | undefined {
  const extras = rows.filter((r) => !known(expected, r));
  // What can run code is named first: a renamed table beside a view is the view's doing.
  const extra = extras.find((r) => r.type === 'view' || r.type === 'trigger') ?? extras[0];
  if (extra) return unexpected(expected, extra);
  return missingOrChanged(rows, expected);
}

/**
 * What is wrong with the whole schema for a file of `version`, if anything: the first entry too
 * many, missing or changed. Without a version (a file checked before, compared again) any
 * version's schema is taken; what is wrong is then said against the current version.
 */
export function schemaProblem(rows: readonly SchemaRow[], version?: number): string | undefined {
  if (version !== undefined) return versionProblem(rows, expectedOf(version));
  if ([...EXPECTED_OF.values()].some((e) => versionProblem(rows, e) === undefined)) return undefined;
  return versionProblem(rows, expectedOf(SNAPSHOT_SCHEMA_VERSION));
}
