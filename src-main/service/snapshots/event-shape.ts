/**
 * Which event rows of a snapshot can be read: one rule, written once as data (EVENT_FIELDS). The
 * check applies it in its own process (probe.ts `badJsonRows`, which is told the fields) and the
 * reader then leaves the rows that fail it out; the history applies it again here, as the last
 * guard for a file changed after its check.
 *
 * Rules: a readable event is a JSON object (as JSON.parse reads it: a key named twice counts
 * once, the last time, exactly as the service reads the event afterwards) with a `metadata`
 * object, and every field the service takes from an event (normalise.ts) is absent, null, or of
 * its type: text, a whole number (a safe integer) or an object. A row that is anything else is
 * left out wherever events are answered and counted in the snapshot's gaps; it is not a reason
 * to refuse the whole file.
 */

export type FieldType = 'object' | 'text' | 'integer';

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

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function fits(value: unknown, type: FieldType): boolean {
  if (type === 'object') return isRecord(value);
  if (type === 'text') return typeof value === 'string';
  return Number.isSafeInteger(value);
}

/** The rule, on a parsed value. */
export function isReadableEvent(value: unknown): boolean {
  // What is not an object has no metadata object: the first field says no.
  return EVENT_FIELDS.every(([path, type]) => {
    let v: unknown = value;
    for (const key of path) v = isRecord(v) ? v[key] : undefined;
    if (v === undefined || v === null) return path.length !== 1 || path[0] !== 'metadata';
    return fits(v, type);
  });
}
