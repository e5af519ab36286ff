import { ProblemError } from '../errors';
import { FILE_LIMITS } from './connection';
import { SNAPSHOT_FORMAT, SNAPSHOT_SCHEMA_VERSION } from './format';

/**
 * What a snapshot's `meta` table must say, and the facts the service takes from it.
 *
 * Rules, checked in this order so the message names what matters most: the table is small (at
 * most FILE_LIMITS.metaKeys keys, each key and value text within its bytes); `format` says it is a
 * snapshot; `schemaVersion` is a whole number from 1 up to this reader's version (a newer one is
 * `snapshot_version_unsupported`, naming both); `complete` is 1; `context` is there; `takenAt` and
 * `finishedAt` (when there) are RFC 3339 times within TIME_RANGE, so every date derived from them
 * (the cluster id, durations counted back from takenAt) exists.
 */

/** What the file says about the capture. */
export interface SnapshotFacts {
  schemaVersion: number;
  context: string;
  server: string;
  kubernetesVersion?: string;
  /** RFC 3339, as the file has them. */
  takenAt: string;
  finishedAt: string;
}

/** One row of meta as the check reads it: a key or value over its bound is read as null. */
export interface MetaRow {
  key: unknown;
  value: unknown;
  keyType: unknown;
  valueType: unknown;
}

/** The bounded read of meta: LIMIT is one more key than allowed, so "too many" shows. */
export const META_SQL = `SELECT
    CASE WHEN octet_length(key) <= ${FILE_LIMITS.metaKeyBytes} THEN key END AS key,
    CASE WHEN octet_length(value) <= ${FILE_LIMITS.metaValueBytes} THEN value END AS value,
    typeof(key) AS keyType, typeof(value) AS valueType
  FROM meta LIMIT ${FILE_LIMITS.metaKeys + 1}`;

/** The times a snapshot may carry: 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z. */
export const TIME_RANGE = { from: Date.UTC(1970, 0, 1), to: Date.UTC(9999, 11, 31, 23, 59, 59, 999) };

export const invalidSnapshot = (shownAs: string, why: string) =>
  new ProblemError('invalid_snapshot', `${shownAs} is not a usable Skiff snapshot: ${why}`);

/** RFC 3339 date-time: hours 00–23, minutes and seconds 00–59 (no leap second), in UTC or with an offset. */
const HOUR = '(?:[01]\\d|2[0-3])';
const MINUTE = '[0-5]\\d';
const RFC3339 = new RegExp(
  `^(\\d{4})-(\\d{2})-(\\d{2})[Tt]${HOUR}:${MINUTE}:${MINUTE}(?:\\.\\d{1,9})?(?:[Zz]|[+-]${HOUR}:${MINUTE})$`,
);

/** Epoch ms of an RFC 3339 time within TIME_RANGE; undefined for anything else (30 February too). */
export function snapshotTime(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  // Date.parse refuses a month or day out of range, not a day the month lacks.
  const ms = Date.parse(text);
  if (Number.isNaN(ms) || ms < TIME_RANGE.from || ms > TIME_RANGE.to) return undefined;
  const [y, mo, d] = m.slice(1, 4).map(Number) as [number, number, number];
  return new Date(Date.UTC(y, mo - 1, d)).getUTCDate() === d ? ms : undefined;
}

/** The keys and values of meta, or why they cannot be taken. */
export function metaOf(rows: readonly MetaRow[], shownAs: string): Map<string, string> {
  if (rows.length > FILE_LIMITS.metaKeys)
    throw invalidSnapshot(shownAs, `its meta table has more than ${FILE_LIMITS.metaKeys} keys`);
  const meta = new Map<string, string>();
  for (const r of rows) {
    if (r.keyType !== 'text' || r.valueType !== 'text')
      throw invalidSnapshot(shownAs, 'the file is damaged (a meta key or value is not text)');
    if (typeof r.key !== 'string')
      throw invalidSnapshot(shownAs, `a meta key is longer than ${FILE_LIMITS.metaKeyBytes} bytes`);
    if (typeof r.value !== 'string')
      throw invalidSnapshot(
        shownAs,
        `meta.${r.key} is longer than ${FILE_LIMITS.metaValueBytes} bytes (a snapshot's meta values are short)`,
      );
    meta.set(r.key, r.value);
  }
  return meta;
}

function schemaVersionOf(meta: Map<string, string>, shownAs: string): number {
  const text = meta.get('schemaVersion') ?? '';
  // 15 digits are more than any version will ever have, and still a safe integer.
  if (!/^\d{1,15}$/.test(text)) throw invalidSnapshot(shownAs, 'meta.schemaVersion is not a whole number');
  const version = Number(text);
  if (version < 1) throw invalidSnapshot(shownAs, `meta.schemaVersion is ${version}; versions start at 1`);
  if (version > SNAPSHOT_SCHEMA_VERSION) {
    throw new ProblemError(
      'snapshot_version_unsupported',
      `${shownAs} was written by a newer Skiff (snapshot format version ${version}); this Skiff reads versions up to ${SNAPSHOT_SCHEMA_VERSION}: update Skiff to open it`,
      { schemaVersion: version, supported: SNAPSHOT_SCHEMA_VERSION },
    );
  }
  return version;
}

const RANGE_TEXT = 'an RFC 3339 time from 1970-01-01 to 9999-12-31';

export function factsOf(meta: Map<string, string>, shownAs: string): SnapshotFacts {
  if (meta.get('format') !== SNAPSHOT_FORMAT)
    throw invalidSnapshot(
      shownAs,
      `meta.format is not "${SNAPSHOT_FORMAT}" (an SQLite database, but not a snapshot)`,
    );
  const schemaVersion = schemaVersionOf(meta, shownAs);
  if (meta.get('complete') !== '1')
    throw invalidSnapshot(shownAs, 'the capture did not finish (meta.complete is not 1)');
  const context = meta.get('context');
  if (!context) throw invalidSnapshot(shownAs, 'meta.context is missing');
  const takenAt = meta.get('takenAt') ?? '';
  if (snapshotTime(takenAt) === undefined)
    throw invalidSnapshot(shownAs, `meta.takenAt is not a time (it must be ${RANGE_TEXT})`);
  const finishedAt = meta.get('finishedAt') ?? takenAt;
  if (snapshotTime(finishedAt) === undefined)
    throw invalidSnapshot(shownAs, `meta.finishedAt is not a time (it must be ${RANGE_TEXT})`);
  const kubernetesVersion = meta.get('kubernetesVersion');
  return {
    schemaVersion,
    context,
    server: meta.get('server') ?? '',
    ...(kubernetesVersion ? { kubernetesVersion } : {}),
    takenAt,
    finishedAt,
  };
}
