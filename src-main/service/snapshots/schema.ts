import { DatabaseSync } from 'node:sqlite';
import { SNAPSHOT_DDL } from './format';

/**
 * What a `.skiff` file's schema may be: exactly the tables of format.ts with their columns, their
 * indexes and SQLite's automatic indexes for their keys, and nothing else: no view, no trigger,
 * no virtual table, no other table or index (a view named like a table can make a query that
 * never ends; a trigger or a generated column runs code the file chose).
 *
 * Rules: each entry of `sqlite_schema` is compared with the one SNAPSHOT_DDL gives, by type, name,
 * table and SQL text, the text with runs of white space made one space. The check reads at most
 * SCHEMA_ROWS entries, one more than the format has, so a schema of a million entries costs no
 * more than one with an extra view. Messages say what was found, in one line.
 */

export interface SchemaRow {
  type: unknown;
  name: unknown;
  tbl_name: unknown;
  sql: unknown;
}

/** The statement reading the entries to compare (bounded). */
export const SCHEMA_SQL = 'SELECT type, name, tbl_name, sql FROM sqlite_schema LIMIT ?';

const normalised = (sql: unknown) => (typeof sql === 'string' ? sql.replace(/\s+/g, ' ').trim() : sql);

const EXPECTED: ReadonlyArray<{ type: string; name: string; tbl_name: string; sql: unknown }> = (() => {
  const db = new DatabaseSync(':memory:');
  try {
    db.exec(SNAPSHOT_DDL);
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
})();

/** Entries read: one more than the format has, enough to see that there is more. */
export const SCHEMA_ROWS = EXPECTED.length + 1;

/** The format's tables, for messages. */
const TABLES = EXPECTED.filter((e) => e.type === 'table').map((e) => e.name);

/** A name from the file as a message shows it: quoted, and short. */
const shown = (v: unknown) => JSON.stringify(String(v).slice(0, 64));

/** Whether the file has this entry of the format: by type and name (names are unique in a schema). */
const known = (r: SchemaRow) => EXPECTED.some((e) => e.type === r.type && e.name === r.name);

function unexpected(row: SchemaRow): string {
  return `it holds ${String(row.type).slice(0, 16)} ${shown(row.name)}, which a snapshot does not have (only the tables ${TABLES.join(', ')} and their indexes)`;
}

/** The first of `expected` that `rows` lack or have otherwise (another table, other SQL). */
function missingOrChanged(rows: readonly SchemaRow[], expected: typeof EXPECTED): string | undefined {
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
  // A table's or a view's tbl_name is its name; an index's or a trigger's, its table's.
  const meta = rows.filter((r) => r.tbl_name === 'meta');
  if (meta.length === 0) return 'it has no meta table (an SQLite database, but not a snapshot)';
  const other = meta.find((r) => !known(r));
  if (other) return unexpected(other);
  return missingOrChanged(
    meta,
    EXPECTED.filter((e) => e.tbl_name === 'meta'),
  );
}

/** What is wrong with the whole schema, if anything: the first entry too many, missing or changed. */
export function schemaProblem(rows: readonly SchemaRow[]): string | undefined {
  const extras = rows.filter((r) => !known(r));
  // What can run code is named first: a renamed table beside a view is the view's doing.
  const extra = extras.find((r) => r.type === 'view' || r.type === 'trigger') ?? extras[0];
  if (extra) return unexpected(extra);
  return missingOrChanged(rows, EXPECTED);
}
