/**
 * The recorded tables of a version-3 `.skiff` file (format.ts: change_history, usage_samples,
 * kept_logs): their rows as the writer takes them and the reader gives them, and the check every
 * file's rows pass before anything of them is served (inspect.ts runs it in the checking process).
 *
 * Rules:
 * - A table's row count and bytes are read first, over at most one row more than the bound, so a
 *   table of a billion rows costs no more than one of RECORDED_LIMITS' rows + 1.
 * - Then the first row that refuses the file, and why, in the order that names the cause best:
 *   a value of the wrong type (STRICT taken out, or a CHECK ignored), a time outside 1970–9999, a
 *   key over FILE_LIMITS.keyBytes, a value over its bound, JSON that is not what the column holds
 *   (a patch is a JSON array of objects; an object a JSON object with exactly one metadata object,
 *   as objects' json; containers a JSON object of objects whose cpuMillicores and memoryBytes are
 *   both numbers, as the usage recorder writes them).
 * - Messages are one line, naming the table and, where it helps, the row by its object or pod.
 * - Every file Skiff writes passes this check: the capture (capture-recorded.ts) leaves out what
 *   would not, with the same bounds (fitsChange, fitsUsage, fitsKeptLog).
 */
import { FILE_LIMITS } from './connection';
import { RECORDED_LIMITS } from './format';

/** One row of change_history (the app's row without cluster_id). */
export interface ChangeRow {
  id: number;
  time_ms: number;
  resource_type: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  change: string;
  resource_version: string;
  patch: string;
  summary: string;
  object: string | null;
  recorded_at: number;
}

/** One row of usage_samples (the app's row without cluster_id). */
export interface UsageRow {
  subject: string;
  namespace: string;
  name: string;
  time_ms: number;
  resolution_ms: number;
  containers: string;
}

/** One row of kept_logs (the app's row without cluster_id). */
export interface KeptLogRow {
  id: number;
  namespace: string;
  pod: string;
  pod_uid: string;
  container: string;
  restart_count: number;
  finished_at: string | null;
  finished_ms: number;
  exit_code: number | null;
  reason: string;
  lines: string;
  line_count: number;
  bytes: number;
  kept_at: number;
}

export type RecordedTable = 'change_history' | 'usage_samples' | 'kept_logs';

/** Each table's columns, in the file's order (the app's, cluster_id left out). */
export const RECORDED_COLUMNS = {
  change_history: [
    'id',
    'time_ms',
    'resource_type',
    'kind',
    'namespace',
    'name',
    'uid',
    'change',
    'resource_version',
    'patch',
    'summary',
    'object',
    'recorded_at',
  ],
  usage_samples: ['subject', 'namespace', 'name', 'time_ms', 'resolution_ms', 'containers'],
  kept_logs: [
    'id',
    'namespace',
    'pod',
    'pod_uid',
    'container',
    'restart_count',
    'finished_at',
    'finished_ms',
    'exit_code',
    'reason',
    'lines',
    'line_count',
    'bytes',
    'kept_at',
  ],
} as const satisfies Record<RecordedTable, readonly string[]>;

/** Rows of each table, as the writer's inserts and the reader's batches name them. */
export interface RecordedRowOf {
  change_history: ChangeRow;
  usage_samples: UsageRow;
  kept_logs: KeptLogRow;
}

/** The INSERT of a table's row, positional in RECORDED_COLUMNS' order. */
export function recordedInsertSql(table: RecordedTable): string {
  const columns = RECORDED_COLUMNS[table];
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
}

/** A row's values in RECORDED_COLUMNS' order. */
export function recordedValues<T extends RecordedTable>(
  table: T,
  row: RecordedRowOf[T],
): Array<string | number | null> {
  const r = row as unknown as Record<string, string | number | null>;
  return RECORDED_COLUMNS[table].map((c) => r[c] ?? null);
}

const MiB = 2 ** 20;
const bytes = (s: string | null) => (s === null ? 0 : Buffer.byteLength(s));
const keysFit = (...keys: Array<string | null>) => keys.every((k) => bytes(k) <= FILE_LIMITS.keyBytes);

/** Bytes a row counts against its table's totalBytes: its text values. */
export function recordedRowBytes(row: object): number {
  return Object.values(row).reduce<number>((sum, v) => sum + (typeof v === 'string' ? bytes(v) : 0), 0);
}

/** Whether a change fits a file's bounds (keys, patch, object, summary). */
export function fitsChange(r: ChangeRow): boolean {
  return (
    keysFit(r.resource_type, r.kind, r.namespace, r.name, r.uid, r.resource_version) &&
    bytes(r.patch) <= RECORDED_LIMITS.jsonBytes &&
    bytes(r.object) <= RECORDED_LIMITS.jsonBytes &&
    bytes(r.summary) <= RECORDED_LIMITS.summaryBytes
  );
}

/** Whether a usage sample fits a file's bounds. */
export function fitsUsage(r: UsageRow): boolean {
  return keysFit(r.namespace, r.name) && bytes(r.containers) <= RECORDED_LIMITS.containersBytes;
}

/** Whether a kept log fits a file's bounds. */
export function fitsKeptLog(r: KeptLogRow): boolean {
  return (
    keysFit(r.namespace, r.pod, r.pod_uid, r.container, r.reason, r.finished_at) &&
    bytes(r.lines) <= RECORDED_LIMITS.linesBytes
  );
}

const text = (c: string) => `typeof(${c}) = 'text'`;
const integer = (c: string) => `typeof(${c}) = 'integer'`;
const optional = (c: string, type: 'text' | 'integer') => `typeof(${c}) IN ('${type}', 'null')`;
const time = (c: string) => `${c} BETWEEN 0 AND ${RECORDED_LIMITS.maxMs}`;
const keyTooLong = (...columns: string[]) =>
  `max(${columns.map((c) => `coalesce(octet_length(${c}), 0)`).join(', ')}) > ${FILE_LIMITS.keyBytes}`;
const shortText = (c: string, as = c) => `substr(CAST(${c} AS TEXT), 1, 64) AS ${as}`;
// Text only, as recordedRowBytes counts a row the capture writes (a value of another type is the
// rows check's to refuse).
const textBytes = (columns: readonly string[]) =>
  columns.map((c) => `(CASE WHEN typeof(${c}) = 'text' THEN octet_length(${c}) ELSE 0 END)`).join(' + ');
// A JSON object as objects' json is one: exactly one metadata key (SQLite reads the first of two,
// JSON.parse the last), and that one an object.
const kubeObject = (table: string, c: string) =>
  `(json_valid(${c}) AND json_type(${c}, '$.metadata') IS 'object' AND (SELECT count(*) FROM json_each(${table}.${c}) WHERE key = 'metadata') = 1)`;

interface TableCheck {
  table: RecordedTable;
  limits: { rows: number; totalBytes: number };
  /** The first row that refuses the file: its naming columns and the problem. */
  rowsSql: string;
  /** How a row is named in messages. */
  what(r: ProblemRow): string;
  /** The bounds of its values, as messages say them. */
  sizes: string;
  /** What its JSON must be. */
  json: string;
}

interface ProblemRow {
  problem: 'type' | 'time' | 'key' | 'size' | 'json';
  kind?: string;
  namespace?: string;
  name?: string;
  container?: string;
}

const at = (ns: string | undefined, name: string | undefined) => `${ns ? `${ns}/` : ''}${name}`;

const CHANGES_SQL = `SELECT ${shortText('resource_type', 'kind')}, ${shortText('namespace')}, ${shortText('name')},
  CASE
    WHEN NOT (${integer('id')} AND ${integer('time_ms')} AND ${integer('recorded_at')} AND ${['resource_type', 'kind', 'namespace', 'name', 'uid', 'change', 'resource_version', 'patch', 'summary'].map(text).join(' AND ')} AND ${optional('object', 'text')} AND change IN ('created', 'updated', 'deleted', 'seen')) THEN 'type'
    WHEN NOT (${time('time_ms')} AND ${time('recorded_at')}) THEN 'time'
    WHEN ${keyTooLong('resource_type', 'kind', 'namespace', 'name', 'uid', 'resource_version')} THEN 'key'
    WHEN octet_length(patch) > ${RECORDED_LIMITS.jsonBytes} OR coalesce(octet_length(object), 0) > ${RECORDED_LIMITS.jsonBytes} OR octet_length(summary) > ${RECORDED_LIMITS.summaryBytes} THEN 'size'
    WHEN NOT (json_valid(patch) AND json_type(patch) = 'array') THEN 'json'
    WHEN EXISTS (SELECT 1 FROM json_each(change_history.patch) WHERE type <> 'object') THEN 'json'
    WHEN object IS NOT NULL AND NOT ${kubeObject('change_history', 'object')} THEN 'json'
  END AS problem
  FROM change_history WHERE problem IS NOT NULL LIMIT 1`;

const number = (c: string) => `coalesce(json_type(c.value, '$.${c}'), '') NOT IN ('integer', 'real')`;
const USAGE_SQL = `SELECT ${shortText('subject', 'kind')}, ${shortText('namespace')}, ${shortText('name')},
  CASE
    WHEN NOT (${['subject', 'namespace', 'name', 'containers'].map(text).join(' AND ')} AND ${integer('time_ms')} AND ${integer('resolution_ms')} AND subject IN ('pod', 'node') AND resolution_ms >= 0) THEN 'type'
    WHEN NOT ${time('time_ms')} THEN 'time'
    WHEN ${keyTooLong('namespace', 'name')} THEN 'key'
    WHEN octet_length(containers) > ${RECORDED_LIMITS.containersBytes} THEN 'size'
    WHEN NOT (json_valid(containers) AND json_type(containers) = 'object') THEN 'json'
    WHEN EXISTS (SELECT 1 FROM json_each(usage_samples.containers) AS c WHERE c.type <> 'object' OR ${number('cpuMillicores')} OR ${number('memoryBytes')}) THEN 'json'
  END AS problem
  FROM usage_samples WHERE problem IS NOT NULL LIMIT 1`;

const KEPT_LOGS_SQL = `SELECT ${shortText('namespace')}, ${shortText('pod', 'name')}, ${shortText('container')},
  CASE
    WHEN NOT (${['id', 'restart_count', 'finished_ms', 'line_count', 'bytes', 'kept_at'].map(integer).join(' AND ')} AND ${['namespace', 'pod', 'pod_uid', 'container', 'reason', 'lines'].map(text).join(' AND ')} AND ${optional('finished_at', 'text')} AND ${optional('exit_code', 'integer')} AND restart_count >= 0 AND line_count >= 0 AND bytes >= 0) THEN 'type'
    WHEN NOT (${time('finished_ms')} AND ${time('kept_at')}) THEN 'time'
    WHEN ${keyTooLong('namespace', 'pod', 'pod_uid', 'container', 'reason', 'finished_at')} THEN 'key'
    WHEN octet_length(lines) > ${RECORDED_LIMITS.linesBytes} THEN 'size'
  END AS problem
  FROM kept_logs WHERE problem IS NOT NULL LIMIT 1`;

const CHECKS: readonly TableCheck[] = [
  {
    table: 'change_history',
    limits: RECORDED_LIMITS.changes,
    rowsSql: CHANGES_SQL,
    what: (r) => `the change of ${r.kind} ${at(r.namespace, r.name)}`,
    sizes: `${RECORDED_LIMITS.jsonBytes / MiB} MiB of patch and of object, ${RECORDED_LIMITS.summaryBytes} bytes of summary`,
    json: 'an RFC 6902 JSON Patch (a JSON array of objects) with a Kubernetes object or null as its object',
  },
  {
    table: 'usage_samples',
    limits: RECORDED_LIMITS.usage,
    rowsSql: USAGE_SQL,
    what: (r) => `the usage sample of ${r.kind} ${at(r.namespace, r.name)}`,
    sizes: `${RECORDED_LIMITS.containersBytes} bytes of containers`,
    json: 'a JSON object of containers, each an object with numbers as cpuMillicores and memoryBytes',
  },
  {
    table: 'kept_logs',
    limits: RECORDED_LIMITS.keptLogs,
    rowsSql: KEPT_LOGS_SQL,
    what: (r) => `the kept log of ${at(r.namespace, r.name)} container ${r.container}`,
    sizes: `${RECORDED_LIMITS.linesBytes / MiB} MiB of lines`,
    json: '',
  },
];

/** A table's row count and bytes, over at most one row more than its bound. */
export function recordedSizeSql(table: RecordedTable): string {
  const check = CHECKS.find((c) => c.table === table) as TableCheck;
  return `SELECT count(*) AS n, total(b) AS bytes FROM (SELECT ${textBytes(RECORDED_COLUMNS[table])} AS b FROM ${table} LIMIT ${check.limits.rows + 1})`;
}

function rowProblem(check: TableCheck, r: ProblemRow): string {
  if (r.problem === 'type')
    return `the file is damaged (a row of ${check.table} holds a value of the wrong type)`;
  if (r.problem === 'time')
    return `the file is damaged (a row of ${check.table} holds a time outside the years 1970 to 9999)`;
  if (r.problem === 'key')
    return `a row of ${check.table} has a key longer than ${FILE_LIMITS.keyBytes} bytes (a Kubernetes name has at most 253)`;
  if (r.problem === 'size') return `${check.what(r)} is larger than a snapshot allows (${check.sizes})`;
  return `the file is damaged (${check.what(r)} is not ${check.json})`;
}

/**
 * What refuses a version-3 file's recorded tables, if anything: each table's size, then its rows.
 * `all` runs one statement (in the checking process: probe.ts) and answers its rows.
 */
export async function recordedTablesProblem(
  all: <T>(sql: string) => Promise<T[]>,
): Promise<string | undefined> {
  for (const check of CHECKS) {
    const [size] = await all<{ n: number; bytes: number }>(recordedSizeSql(check.table));
    if (size!.n > check.limits.rows)
      return `its ${check.table} table has more than ${check.limits.rows} rows`;
    if (size!.bytes > check.limits.totalBytes)
      return `its ${check.table} table is larger than a snapshot allows (${check.limits.totalBytes / MiB} MiB)`;
    const [row] = await all<ProblemRow>(check.rowsSql);
    if (row) return rowProblem(check, row);
  }
  return undefined;
}
