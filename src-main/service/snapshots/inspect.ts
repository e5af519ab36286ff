import { stat } from 'node:fs/promises';
import type { SnapshotGap } from '../../../src-shared/contract/snapshot-models';
import { ProblemError } from '../errors';
import { FILE_LIMITS } from './connection';
import { EVENT_FIELDS } from './event-shape';
import { factsOf, invalidSnapshot, META_SQL, type MetaRow, metaOf, type SnapshotFacts } from './facts';
import { KINDS_ROW_LIMIT, KINDS_ROWS_SQL, KINDS_SIZE_SQL, kindsSizeProblem } from './kinds-table';
import { type Probe, ProbeAborted, ProbeCrashed, ProbeQueryError, ProbeTimeout, withProbe } from './probe';
import { recordedTablesProblem } from './recorded-tables';
import { metaTableProblem, SCHEMA_ROWS, SCHEMA_SQL, type SchemaRow, schemaProblem } from './schema';

/**
 * The check every snapshot file passes before anything of it is served (issue 22 §1), run in
 * processes of its own (probe.ts) under a time budget that grows with the file's size. Every way a
 * file can be wrong is one line naming it: not a regular file, not SQLite, truncated, a schema
 * other than the format's (schema.ts), a meta table that does not say a finished snapshot of a
 * version this Skiff reads (facts.ts), a row of the wrong type or over its size (connection.ts,
 * FILE_LIMITS), an object or metric that is not a JSON object, a kinds table (version 2) larger
 * than its bounds or holding what is not a kind (kinds-table.ts), recorded tables (version 3)
 * larger than their bounds or holding rows that are not what they record (recorded-tables.ts).
 *
 * Rules:
 * - The order is fixed, cheapest and most telling first: the file, its header, the meta table's
 *   own schema, meta, the rest of the schema (the file's version's: schema.ts), the rows table by
 *   table (the kinds table's size before its rows; the recorded tables last, each's size before
 *   its rows), then the digest; the event
 *   rows' JSON is parsed meanwhile in a second process. Nothing reads a table before its schema
 *   entry is known to be the format's.
 * - Event rows that cannot be read (event-shape.ts) do not refuse the file: their rowids are kept
 *   (at most UNREADABLE_EVENTS_MAX, more is a damaged file), the reader leaves them out, and they
 *   are counted in `missing`, after the gaps the file itself lists (the first GAPS_SHOWN of them).
 * - The digest is SHA-256 of the whole file: what tells two files of the same capture apart.
 */

export interface CheckedSnapshot {
  facts: SnapshotFacts;
  sha256: string;
  bytes: number;
  /** rowids of the event rows that cannot be read. */
  unreadableEvents: readonly number[];
  /** The file's gaps, then the rows left out. */
  missing: SnapshotGap[];
}

export interface CheckOptions {
  /** Names the file in messages (an upload is not named by its temporary path). */
  shownAs?: string;
  /** The budget before the file's size is counted (default CHECK_BUDGET.baseMs). */
  budgetMs?: number;
  signal?: AbortSignal;
}

/** 30 s, and 30 s more per GiB: far more than a good file takes (a 1 GiB file checks in seconds). */
export const CHECK_BUDGET = { baseMs: 30_000, perGiBMs: 30_000 } as const;
export const GAPS_SHOWN = 20;

/** The budget of a file of `bytes`: `baseMs`, and CHECK_BUDGET.perGiBMs more per GiB. */
export function checkBudgetMs(bytes: number, baseMs: number = CHECK_BUDGET.baseMs): number {
  return baseMs + Math.ceil((bytes / 2 ** 30) * CHECK_BUDGET.perGiBMs);
}
export const UNREADABLE_EVENTS_MAX = 10_000;

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;
const MiB = 2 ** 20;

/**
 * What the first 100 bytes say is wrong, if anything. The header counts the file's pages (when its
 * "version-valid-for" number matches the change counter, as every writer since 3.7 keeps it): a
 * file shorter than that was cut off. Bytes 18 and 19 are 1 for a rollback journal, 2 for WAL,
 * which would need files beside this one.
 */
export function headerProblem(header: Uint8Array, size: number): string | undefined {
  const bytes = Buffer.from(header.buffer, header.byteOffset, header.byteLength);
  if (!bytes.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) return 'it is not an SQLite database';
  if (bytes.length < HEADER_BYTES) return `the file is truncated (${size} bytes)`;
  if (bytes[18] === 2 || bytes[19] === 2)
    return 'it is a WAL-mode database (a snapshot is one file, in rollback-journal mode)';
  const rawPageSize = bytes.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  const pages = bytes.readUInt32BE(28);
  const countValid = bytes.readUInt32BE(92) === bytes.readUInt32BE(24);
  if (countValid && size < pageSize * pages)
    return `the file is truncated (${size} of ${pageSize * pages} bytes)`;
  return undefined;
}

const text = (column: string) => `typeof(${column}) = 'text'`;
const keyTooLong = (...columns: string[]) =>
  `max(${columns.map((c) => `octet_length(${c})`).join(', ')}) > ${FILE_LIMITS.keyBytes}`;
const shortText = (column: string) => `substr(CAST(${column} AS TEXT), 1, 64) AS ${column}`;

/** The first object or metric row that refuses the file, and why: type, key, size or json. */
const jsonRowsSql = (
  table: 'objects' | 'metrics',
) => `SELECT ${shortText('kind')}, ${shortText('namespace')}, ${shortText('name')},
  CASE
    WHEN NOT (${['kind', 'namespace', 'name', 'json'].map(text).join(' AND ')}) THEN 'type'
    WHEN ${keyTooLong('kind', 'namespace', 'name')} THEN 'key'
    WHEN octet_length(json) > ${FILE_LIMITS.jsonBytes} THEN 'size'
    WHEN NOT json_valid(json) THEN 'json'
    WHEN json_type(json, '$.metadata') IS NOT 'object' THEN 'json'
    -- SQLite reads the first of two keys named alike, JSON.parse the last.
    WHEN (SELECT count(*) FROM json_each(${table}.json) WHERE key = 'metadata') <> 1 THEN 'json'
  END AS problem
  FROM ${table} WHERE problem IS NOT NULL LIMIT 1`;

const EVENTS_SQL = `SELECT ${shortText('uid')},
  CASE
    WHEN NOT (${['uid', 'namespace', 'last_timestamp', 'json'].map(text).join(' AND ')} AND typeof(expired) = 'integer' AND expired IN (0, 1)) THEN 'type'
    WHEN ${keyTooLong('uid', 'namespace', 'last_timestamp')} THEN 'key'
    WHEN octet_length(json) > ${FILE_LIMITS.jsonBytes} THEN 'size'
  END AS problem
  FROM events WHERE problem IS NOT NULL LIMIT 1`;

// octet_length reads a text's size from its record, not the text: one over SQLite's own length
// limit is found here rather than failing the read that asks for it.
const LOGS_SQL = `SELECT ${shortText('namespace')}, ${shortText('pod')}, ${shortText('container')},
  CASE
    WHEN NOT (${['namespace', 'pod', 'container', 'text'].map(text).join(' AND ')} AND typeof(previous) = 'integer' AND previous IN (0, 1) AND typeof(line_count) = 'integer' AND line_count >= 0) THEN 'type'
    WHEN ${keyTooLong('namespace', 'pod', 'container')} THEN 'key'
    WHEN octet_length(text) > ${FILE_LIMITS.valueBytes} THEN 'size'
  END AS problem
  FROM logs WHERE problem IS NOT NULL LIMIT 1`;

const GAPS_CHECK_SQL = `SELECT
  CASE
    WHEN NOT (${text('part')} AND ${text('reason')} AND typeof(target) IN ('text', 'null')) THEN 'type'
    WHEN octet_length(part) > ${FILE_LIMITS.keyBytes} OR octet_length(target) > ${FILE_LIMITS.gapTargetBytes} OR octet_length(reason) > ${FILE_LIMITS.gapReasonBytes} THEN 'size'
  END AS problem
  FROM gaps WHERE problem IS NOT NULL LIMIT 1`;

interface RowProblem {
  problem: 'type' | 'key' | 'size' | 'json';
  /** objects' and metrics' kind, the kinds table's resource_type. */
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  pod?: string;
  container?: string;
}

const at = (ns: string | undefined, name: string | undefined) => `${ns ? `${ns}/` : ''}${name}`;
const JSON_LIMIT = `${FILE_LIMITS.jsonBytes / MiB} MiB`;

/** Each table's scan, and how its rows are named in messages. */
const TABLE_CHECKS: ReadonlyArray<{
  table: string;
  sql: string;
  /** For the tables whose rows can be too large or not JSON: how a row is named, and the bound. */
  what?(r: RowProblem): string;
  limit?: string;
  /** What a row whose JSON is not as it should be is not; a JSON object by default. */
  notJson?: string;
  /** The first version that has the table; 1 when absent. */
  since?: number;
}> = [
  {
    table: 'objects',
    sql: jsonRowsSql('objects'),
    what: (r) => `the ${r.kind} ${at(r.namespace, r.name)}`,
    limit: JSON_LIMIT,
  },
  {
    table: 'metrics',
    sql: jsonRowsSql('metrics'),
    what: (r) => `the ${r.kind} metrics ${at(r.namespace, r.name)}`,
    limit: JSON_LIMIT,
  },
  { table: 'events', sql: EVENTS_SQL, what: (r) => `the event ${r.uid}`, limit: JSON_LIMIT },
  {
    table: 'logs',
    sql: LOGS_SQL,
    what: (r) => `the log of ${at(r.namespace, r.pod)} container ${r.container}`,
    limit: `${FILE_LIMITS.valueBytes / MiB} MiB`,
  },
  {
    table: 'kinds',
    sql: KINDS_ROWS_SQL,
    what: (r) => `the kind ${r.kind}`,
    limit: KINDS_ROW_LIMIT,
    notJson: 'JSON arrays of text (verbs, short_names, categories) and of objects (columns)',
    since: 2,
  },
  {
    table: 'gaps',
    sql: GAPS_CHECK_SQL,
    what: () => 'a gap',
    limit: `${FILE_LIMITS.keyBytes} bytes of part, ${FILE_LIMITS.gapTargetBytes} of target and ${FILE_LIMITS.gapReasonBytes} of reason`,
  },
];

function rowProblem(check: (typeof TABLE_CHECKS)[number], r: RowProblem): string {
  if (r.problem === 'type')
    return `the file is damaged (a row of ${check.table} holds a value of the wrong type)`;
  if (r.problem === 'key')
    return `a row of ${check.table} has a key longer than ${FILE_LIMITS.keyBytes} bytes (a Kubernetes name has at most 253)`;
  if (r.problem === 'size') return `${check.what!(r)} is larger than a snapshot allows (${check.limit})`;
  return `the file is damaged (${check.what!(r)} is not ${check.notJson ?? 'a JSON object'})`;
}

async function fileGaps(probe: Probe): Promise<SnapshotGap[]> {
  const rows = await probe.all<{ part: string; target: string | null; reason: string }>(
    `SELECT part, target, reason FROM gaps ORDER BY rowid LIMIT ${GAPS_SHOWN}`,
  );
  const [{ n }] = (await probe.all<{ n: number }>('SELECT count(*) AS n FROM gaps')) as [{ n: number }];
  const gaps: SnapshotGap[] = rows.map((r) => ({
    part: r.part,
    ...(r.target !== null ? { target: r.target } : {}),
    reason: r.reason,
  }));
  if (n > GAPS_SHOWN)
    gaps.push({ part: 'gaps', reason: `${n - GAPS_SHOWN} more gaps are listed in the file` });
  return gaps;
}

const unreadableGap = (n: number): SnapshotGap => ({
  part: 'events',
  reason: `${n} event ${n === 1 ? 'row' : 'rows'} of the file cannot be read (not a JSON object with an Event's fields) and ${n === 1 ? 'is' : 'are'} left out`,
});

/**
 * Everything but the event rows' JSON: the file, its header, meta and the schema (then `verified`
 * is called), every table's rows, the file's gaps and the digest.
 */
async function inspectFile(probe: Probe, shownAs: string, verified: () => void) {
  const head = await probe.head(HEADER_BYTES);
  if (!head.regular) throw invalidSnapshot(shownAs, 'it is not a regular file');
  const bad = headerProblem(head.header, head.size);
  if (bad) throw invalidSnapshot(shownAs, bad);
  await probe.open();
  const schema = await probe.all<SchemaRow>(SCHEMA_SQL, SCHEMA_ROWS);
  const metaTable = metaTableProblem(schema);
  if (metaTable) throw invalidSnapshot(shownAs, metaTable);
  const facts = factsOf(metaOf(await probe.all<MetaRow>(META_SQL), shownAs), shownAs);
  const wrong = schemaProblem(schema, facts.schemaVersion);
  if (wrong) throw invalidSnapshot(shownAs, wrong);
  verified();
  if (facts.schemaVersion >= 2) {
    const [size] = await probe.all<{ n: number; bytes: number }>(KINDS_SIZE_SQL);
    const tooLarge = kindsSizeProblem(size!);
    if (tooLarge) throw invalidSnapshot(shownAs, tooLarge);
  }
  for (const check of TABLE_CHECKS) {
    if ((check.since ?? 1) > facts.schemaVersion) continue;
    const [row] = await probe.all<RowProblem>(check.sql);
    if (row) throw invalidSnapshot(shownAs, rowProblem(check, row));
  }
  if (facts.schemaVersion >= 3) {
    const recorded = await recordedTablesProblem((sql) => probe.all(sql));
    if (recorded) throw invalidSnapshot(shownAs, recorded);
  }
  const gaps = await fileGaps(probe);
  const { sha256, bytes } = await probe.digest();
  return { facts, gaps, sha256, bytes };
}

/** The event rows that cannot be read: read only once `verified` says the schema is the format's. */
async function inspectEvents(probe: Probe, verified: Promise<void>): Promise<number[]> {
  // Not even opened before: what is wrong with the file is the first process's to say.
  await verified;
  await probe.open();
  // A row over the bound is the first process's to refuse, by name: this one never reads it.
  return probe.badJsonRows(
    `SELECT rowid AS id, json FROM events WHERE octet_length(json) <= ${FILE_LIMITS.jsonBytes}`,
    EVENT_FIELDS,
    UNREADABLE_EVENTS_MAX + 1,
  );
}

/**
 * The check, in two processes at once (parsing every event's JSON is the longest part, and has
 * a core of its own where there is one): the second reads nothing before the first has found the
 * schema to be the format's. The first failure is the answer.
 */
async function inspect(
  path: string,
  shownAs: string,
  opts: { budgetMs: number; signal?: AbortSignal },
): Promise<CheckedSnapshot> {
  let verified!: () => void;
  const schemaVerified = new Promise<void>((resolve) => {
    verified = resolve;
  });
  // When one process fails, the other is stopped rather than left to the budget (the events' one
  // may be waiting for a schema that will never be found good).
  const stop = new AbortController();
  const each = {
    budgetMs: opts.budgetMs,
    signal: opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal,
  };
  const stopOther = (err: unknown) => {
    stop.abort();
    throw err;
  };
  const results = await Promise.allSettled([
    withProbe(path, each, (probe) => inspectFile(probe, shownAs, verified)).catch(stopOther),
    withProbe(path, each, (probe) => inspectEvents(probe, schemaVerified)).catch(stopOther),
  ]);
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  // The first failure that is not the other process stopped for it: the file's before the events'.
  if (failures.length > 0) throw failures.find((e) => !(e instanceof ProbeAborted)) ?? failures[0];
  const [fileResult, eventsResult] = results as [
    PromiseFulfilledResult<Awaited<ReturnType<typeof inspectFile>>>,
    PromiseFulfilledResult<number[]>,
  ];
  const unreadable = eventsResult.value;
  if (unreadable.length > UNREADABLE_EVENTS_MAX)
    throw invalidSnapshot(
      shownAs,
      `the file is damaged (more than ${UNREADABLE_EVENTS_MAX} of its event rows cannot be read)`,
    );
  const { facts, gaps, sha256, bytes } = fileResult.value;
  const missing = unreadable.length > 0 ? [...gaps, unreadableGap(unreadable.length)] : gaps;
  return { facts, sha256, bytes, unreadableEvents: unreadable, missing };
}

/**
 * Checks a snapshot file in processes of its own; the facts, digest and what is missing of a good
 * one. Throws a ProblemError: `invalid_snapshot` (checking it past the budget too) or
 * `snapshot_version_unsupported`; ProbeAborted when `signal` aborts.
 */
export async function checkSnapshot(path: string, opts: CheckOptions = {}): Promise<CheckedSnapshot> {
  const shownAs = opts.shownAs ?? path;
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (err) {
    throw new ProblemError('invalid_snapshot', `${shownAs}: ${(err as Error).message}`);
  }
  const budgetMs = checkBudgetMs(size, opts.budgetMs);
  try {
    return await inspect(path, shownAs, { budgetMs, ...(opts.signal ? { signal: opts.signal } : {}) });
  } catch (err) {
    if (err instanceof ProbeTimeout)
      throw invalidSnapshot(
        shownAs,
        `checking it took longer than ${Math.max(1, Math.round(budgetMs / 1000))} s, the most a file of its size may take`,
      );
    if (err instanceof ProbeQueryError)
      throw invalidSnapshot(shownAs, `the file is damaged (${err.message})`);
    if (err instanceof ProbeCrashed) throw invalidSnapshot(shownAs, `checking it failed: ${err.message}`);
    throw err;
  }
}
