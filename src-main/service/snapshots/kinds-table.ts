import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import type { ServedKind } from '../../../src-shared/contract/kinds-operations';
import { snapshotKindRows } from '../clusters/discovery/kinds-answer';
import { FILE_LIMITS } from './connection';

/**
 * The `kinds` table of a version-2 snapshot (format.ts): the kinds the capture took, as the
 * cluster's discovery served them. One module says how a kind becomes a row (the writer), what a
 * row may hold (the check, in SQL run in the check's own process) and how rows become kinds again
 * (the reader: readSnapshotKinds, for a file of either version).
 *
 * Rules:
 * - The names (resource_type, grp, version, resource, singular, kind) are text of at most
 *   FILE_LIMITS.keyBytes; namespaced is 0 or 1; verbs, short_names and categories are JSON arrays
 *   of text, each at most KINDS_LIMITS.listBytes; columns is null or a JSON array of objects of at
 *   most KINDS_LIMITS.columnsBytes. The table has at most KINDS_LIMITS.rows rows and
 *   KINDS_LIMITS.totalBytes of them all, so reading it whole on the service's event loop is cheap.
 * - A capture skips (as a gap, kindProblem) a kind that would break these bounds, so every file
 *   Skiff writes passes its own check.
 * - A printer column that is not of a column's shape is left out when read, never the kind (as
 *   discovery does with a CRD's columns); a file Skiff wrote never has one.
 * - A version-1 file has no kinds table: it holds the nine, read as a snapshot always served them.
 */

/** A kind of a snapshot: what `GET …/kinds` answers, and the singular the apiserver gave it. */
export type SnapshotKind = ServedKind & { singular: string };

const MiB = 2 ** 20;

export const KINDS_LIMITS = {
  rows: 10_000,
  /** Each of verbs, short_names and categories, as JSON text. */
  listBytes: 1_024,
  /** A kind's printer columns, as JSON text. */
  columnsBytes: 16_384,
  /** Every value of every row together. */
  totalBytes: 8 * MiB,
} as const;

const NAMES = ['resource_type', 'grp', 'version', 'resource', 'singular', 'kind'] as const;
const LISTS = ['verbs', 'short_names', 'categories'] as const;

/** The row of a kind, in the table's column order. */
export function kindRow(
  k: SnapshotKind,
): [string, string, string, string, string, string, number, string, string, string, string | null] {
  return [
    k.resourceType,
    k.group,
    k.version,
    k.plural,
    k.singular,
    k.kind,
    k.namespaced ? 1 : 0,
    JSON.stringify(k.verbs),
    JSON.stringify(k.shortNames),
    JSON.stringify(k.categories),
    k.columns ? JSON.stringify(k.columns) : null,
  ];
}

export const KIND_INSERT_SQL = `INSERT OR REPLACE INTO kinds (${NAMES.join(', ')}, namespaced, ${LISTS.join(', ')}, columns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** Bytes a kind's row holds, as the check counts them against KINDS_LIMITS.totalBytes. */
export function kindRowBytes(k: SnapshotKind): number {
  return kindRow(k).reduce<number>((sum, v) => sum + (typeof v === 'string' ? Buffer.byteLength(v) : 0), 0);
}

/** Why a kind cannot be a row of the table, if it cannot. */
export function kindProblem(k: SnapshotKind): string | undefined {
  const row = kindRow(k);
  const long = row.slice(0, NAMES.length).find((v) => Buffer.byteLength(v as string) > FILE_LIMITS.keyBytes);
  if (long !== undefined)
    return `its name ${JSON.stringify(long)} is longer than ${FILE_LIMITS.keyBytes} bytes`;
  if (row.slice(7, 10).some((v) => Buffer.byteLength(v as string) > KINDS_LIMITS.listBytes))
    return `its verbs, short names or categories are longer than ${KINDS_LIMITS.listBytes} bytes`;
  if (row[10] !== null && Buffer.byteLength(row[10]) > KINDS_LIMITS.columnsBytes)
    return `its printer columns are longer than ${KINDS_LIMITS.columnsBytes} bytes`;
  return undefined;
}

const text = (c: string) => `typeof(${c}) = 'text'`;
const textArray = (c: string) =>
  `(json_valid(${c}) AND json_type(${c}) = 'array' AND NOT EXISTS (SELECT 1 FROM json_each(kinds.${c}) WHERE type <> 'text'))`;
const rowBytes = [...NAMES, ...LISTS, 'columns'].map((c) => `coalesce(octet_length(${c}), 0)`).join(' + ');

/** How many rows, and their bytes, up to one row past the bound (a table of millions costs no more). */
export const KINDS_SIZE_SQL = `SELECT count(*) AS n, total(bytes) AS bytes FROM (SELECT ${rowBytes} AS bytes FROM kinds LIMIT ${KINDS_LIMITS.rows + 1})`;

/** Why the size the table has (KINDS_SIZE_SQL's row) refuses the file, if it does. */
export function kindsSizeProblem(size: { n: number; bytes: number }): string | undefined {
  if (size.n > KINDS_LIMITS.rows) return `its kinds table has more than ${KINDS_LIMITS.rows} rows`;
  if (size.bytes > KINDS_LIMITS.totalBytes)
    return `its kinds table is larger than a snapshot allows (${KINDS_LIMITS.totalBytes / MiB} MiB)`;
  return undefined;
}

/** The first row that refuses the file, and why: type, key, size or json (as inspect.ts names them). */
export const KINDS_ROWS_SQL = `SELECT substr(CAST(resource_type AS TEXT), 1, 64) AS kind,
  CASE
    WHEN NOT (${[...NAMES, ...LISTS].map(text).join(' AND ')} AND typeof(namespaced) = 'integer' AND namespaced IN (0, 1) AND typeof(columns) IN ('text', 'null')) THEN 'type'
    WHEN max(${NAMES.map((c) => `octet_length(${c})`).join(', ')}) > ${FILE_LIMITS.keyBytes} THEN 'key'
    WHEN max(${LISTS.map((c) => `octet_length(${c})`).join(', ')}) > ${KINDS_LIMITS.listBytes} OR octet_length(columns) > ${KINDS_LIMITS.columnsBytes} THEN 'size'
    WHEN NOT (${LISTS.map(textArray).join(' AND ')}) THEN 'json'
    WHEN columns IS NOT NULL AND NOT (json_valid(columns) AND json_type(columns) = 'array' AND NOT EXISTS (SELECT 1 FROM json_each(kinds.columns) WHERE type <> 'object')) THEN 'json'
  END AS problem
  FROM kinds WHERE problem IS NOT NULL LIMIT 1`;

/** How a kind's row too large names the bounds. */
export const KINDS_ROW_LIMIT = `${KINDS_LIMITS.listBytes} bytes of each of verbs, short_names and categories, ${KINDS_LIMITS.columnsBytes} of columns`;

const texts = z.array(z.string());
const column = z.object({
  name: z.string().min(1),
  type: z.string().min(1),
  jsonPath: z.string().min(1),
  priority: z.number().int().optional(),
  description: z.string().optional(),
});

interface KindsRow {
  resource_type: string;
  grp: string;
  version: string;
  resource: string;
  singular: string;
  kind: string;
  namespaced: number;
  verbs: string;
  short_names: string;
  categories: string;
  columns: string | null;
}

function columnsOf(json: string): NonNullable<ServedKind['columns']> {
  return z
    .array(z.unknown())
    .parse(JSON.parse(json))
    .flatMap((c) => {
      const parsed = column.safeParse(c);
      if (!parsed.success) return [];
      const { name, type, jsonPath, priority, description } = parsed.data;
      return [
        {
          name,
          type,
          jsonPath,
          priority: priority ?? 0,
          ...(description !== undefined ? { description } : {}),
        },
      ];
    });
}

function kindOf(r: KindsRow): SnapshotKind {
  const columns = r.columns === null ? undefined : columnsOf(r.columns);
  return {
    resourceType: r.resource_type,
    plural: r.resource,
    singular: r.singular,
    kind: r.kind,
    group: r.grp,
    version: r.version,
    namespaced: r.namespaced === 1,
    shortNames: texts.parse(JSON.parse(r.short_names)),
    categories: texts.parse(JSON.parse(r.categories)),
    verbs: texts.parse(JSON.parse(r.verbs)),
    ...(columns ? { columns } : {}),
  };
}

/**
 * The kinds of a checked snapshot, ordered by resourceType: a version-2 file's kinds table, or for
 * a version-1 file the nine (with the verbs a read-only snapshot serves). Throws when the table
 * does not hold what the check let through (a file changed since): the caller's `invalid_snapshot`.
 */
export function readSnapshotKinds(db: DatabaseSync, schemaVersion: number): SnapshotKind[] {
  if (schemaVersion < 2) return snapshotKindRows().map((k) => ({ ...k, singular: k.resourceType }));
  const rows = db
    .prepare(`SELECT * FROM kinds ORDER BY resource_type LIMIT ${KINDS_LIMITS.rows}`)
    .all() as unknown as KindsRow[];
  return rows.map(kindOf);
}
