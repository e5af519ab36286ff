/**
 * Which event rows of a snapshot can be read: one rule, written once as data and turned into both
 * an SQL condition (the check, in its own process, finds the rows that fail it; the reader then
 * leaves those rows out) and a test on the parsed object (the history's last guard, for a file
 * changed after its check).
 *
 * Rules: a readable event is a JSON object with a `metadata` object, and every field the service
 * takes from an event (normalise.ts) is absent, null, or of its type: text, a whole number (a
 * safe integer) or an object. No object on those paths names a key twice (SQLite would read the
 * first, JavaScript the last). A row that is anything else is left out wherever events are
 * answered, and counted in the snapshot's gaps; it is not a reason to refuse the whole file.
 */

type FieldType = 'object' | 'text' | 'integer';

/** Paths into the event, parents before children; `metadata` alone is required. */
export const EVENT_FIELDS: ReadonlyArray<readonly [path: readonly string[], type: FieldType]> = [
  [['metadata'], 'object'],
  [['metadata', 'uid'], 'text'],
  [['metadata', 'name'], 'text'],
  [['metadata', 'namespace'], 'text'],
  [['metadata', 'creationTimestamp'], 'text'],
  [['involvedObject'], 'object'],
  [['involvedObject', 'kind'], 'text'],
  [['involvedObject', 'name'], 'text'],
  [['involvedObject', 'namespace'], 'text'],
  [['involvedObject', 'uid'], 'text'],
  [['reason'], 'text'],
  [['message'], 'text'],
  [['type'], 'text'],
  [['count'], 'integer'],
  [['firstTimestamp'], 'text'],
  [['lastTimestamp'], 'text'],
  [['eventTime'], 'text'],
  [['series'], 'object'],
  [['series', 'count'], 'integer'],
  [['series', 'lastObservedTime'], 'text'],
  [['source'], 'object'],
  [['source', 'component'], 'text'],
  [['source', 'host'], 'text'],
  [['reportingComponent'], 'text'],
  [['reportingInstance'], 'text'],
];

const SAFE = Number.MAX_SAFE_INTEGER;

/** The SQL condition that holds for readable events only; `column` is qualified (json_each has a column `json` of its own). */
export function readableEventSql(column = 'events.json'): string {
  const at = (path: readonly string[]) => `'$.${path.join('.')}'`;
  const checks = EVENT_FIELDS.map(([path, type]) => {
    const kind = `json_type(${column}, ${at(path)})`;
    if (path.length === 1 && path[0] === 'metadata') return `coalesce(${kind}, 'null') = 'object'`;
    if (type === 'integer') {
      // 1.0 and 1e2 are whole numbers to JavaScript too.
      const value = `json_extract(${column}, ${at(path)})`;
      return `(coalesce(${kind}, 'null') = 'null' OR (${kind} IN ('integer', 'real') AND ${value} BETWEEN ${-SAFE} AND ${SAFE} AND ${value} = CAST(${value} AS INTEGER)))`;
    }
    return `coalesce(${kind}, 'null') IN ('null', '${type}')`;
  });
  const objects: Array<readonly string[]> = [
    [],
    ...EVENT_FIELDS.filter(([, type]) => type === 'object').map(([path]) => path),
  ];
  const unique = objects.map(
    (path) =>
      `NOT EXISTS (SELECT 1 FROM json_each(${column}, '$${path.map((k) => `.${k}`).join('')}') GROUP BY key HAVING count(*) > 1)`,
  );
  // json_type throws on text that is not JSON: nothing but json_valid may look at it first.
  // A NULL anywhere would make the whole NULL, neither readable nor not: coalesce says not.
  return `coalesce(CASE WHEN json_valid(${column}) THEN json_type(${column}) = 'object' AND ${[...checks, ...unique].join(' AND ')} ELSE 0 END, 0)`;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function fits(value: unknown, type: FieldType): boolean {
  if (type === 'object') return isRecord(value);
  if (type === 'text') return typeof value === 'string';
  return Number.isSafeInteger(value);
}

/** The same rule on a parsed value. */
export function isReadableEvent(value: unknown): boolean {
  if (!isRecord(value)) return false;
  return EVENT_FIELDS.every(([path, type]) => {
    let v: unknown = value;
    for (const key of path) v = isRecord(v) ? v[key] : undefined;
    if (v === undefined || v === null) return path.length !== 1 || path[0] !== 'metadata';
    return fits(v, type);
  });
}
