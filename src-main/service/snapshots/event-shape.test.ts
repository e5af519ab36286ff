import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openSnapshotConnection } from './connection';
import { EVENT_FIELDS, isReadableEvent, readableEventSql } from './event-shape';
import { tempFolder } from './skiff-file.test-support';

/**
 * Which event rows can be read (event-shape.ts): SQLite (on a connection opened as snapshots are)
 * and JavaScript give the same answer for every sample, and the answer is the rule's.
 */

const base = { metadata: { name: 'e', namespace: 'shop', uid: 'u' } };
const withField = (path: readonly string[], value: unknown): Record<string, unknown> => {
  const out: Record<string, unknown> = structuredClone(base);
  let at = out;
  for (const key of path.slice(0, -1)) {
    at[key] = typeof at[key] === 'object' && at[key] !== null ? at[key] : {};
    at = at[key] as Record<string, unknown>;
  }
  at[path.at(-1)!] = value;
  return out;
};

const VALUES: Record<'object' | 'text' | 'integer', unknown[]> = {
  object: [{}],
  text: ['', 'Warning'],
  integer: [0, -3, 2147483647, Number.MAX_SAFE_INTEGER],
};
const WRONG: unknown[] = ['x', 1.5, true, [], {}, 2 ** 60];

/** Keys named twice: SQLite reads the first, JavaScript the last, so only the SQL can see them. */
const TWICE: Array<[string, boolean]> = [
  ['{"metadata":{},"reason":"a","reason":{}}', false],
  ['{"metadata":{},"reason":{},"reason":"a"}', false],
  ['{"metadata":{"uid":"a","uid":"b"}}', false],
  ['{"metadata":{},"source":{"host":"a","host":"b"}}', false],
  ['{"metadata":{},"involvedObject":{"kind":"a","kind":"b"}}', false],
  ['{"metadata":{},"series":{"count":1,"count":2}}', false],
  ['{"metadata":{},"other":{"x":1,"x":2}}', true],
];

/** [json text, readable?] */
function samples(): Array<[string, boolean]> {
  const out: Array<[string, boolean]> = [
    [JSON.stringify(base), true],
    ['{"metadata":{}}', true],
    ['not json', false],
    ['{"metadata": ', false],
    ['[{"metadata":{}}]', false],
    ['"text"', false],
    ['null', false],
    ['{}', false],
    ['{"metadata":null}', false],
    ['{"metadata":[]}', false],
    ['{"metadata":{},"count":1.0}', true],
    ['{"metadata":{},"count":1e2}', true],
    ['{"metadata":{},"count":-0}', true],
    ['{"metadata":{},"count":9007199254740993}', false],
    ['{"metadata":{},"count":-9007199254740993}', false],
    ['{"metadata":{},"count":1e300}', false],
    ['{"metadata":{},"involvedObject":{"kind":"Pod"},"unknown":[1,{"a":null}]}', true],
  ];
  for (const [path, type] of EVENT_FIELDS) {
    if (path.length === 1 && path[0] === 'metadata') continue;
    out.push([JSON.stringify(withField(path, null)), true]);
    for (const v of VALUES[type]) out.push([JSON.stringify(withField(path, v)), true]);
    for (const v of WRONG) {
      const fits =
        (type === 'object' && typeof v === 'object' && !Array.isArray(v)) ||
        (type === 'text' && typeof v === 'string');
      out.push([JSON.stringify(withField(path, v)), fits]);
    }
  }
  return out;
}

describe('readable events', () => {
  it('SQLite and JavaScript agree, sample by sample, and both follow the rule', () => {
    const folder = tempFolder();
    try {
      const path = folder.path('shapes.db');
      const w = new DatabaseSync(path);
      w.exec('CREATE TABLE events (json TEXT)');
      const put = w.prepare('INSERT INTO events (json) VALUES (?)');
      const all = [...samples(), ...TWICE];
      w.exec('BEGIN');
      for (const [json] of all) put.run(json);
      w.exec('COMMIT');
      w.close();
      const db = openSnapshotConnection(path);
      const sql = db
        .prepare(`SELECT json, ${readableEventSql()} AS ok FROM events ORDER BY rowid`)
        .all() as Array<{ json: string; ok: number }>;
      db.close();
      expect(sql).toHaveLength(all.length);
      for (const [i, [json, readable]] of all.entries()) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(json);
        } catch {
          parsed = Symbol('unparsable');
        }
        expect([json, sql[i]!.ok === 1], 'SQLite').toEqual([json, readable]);
        // The reader never gives JavaScript a row with a key named twice.
        if (i < all.length - TWICE.length)
          expect([json, isReadableEvent(parsed)], 'JavaScript').toEqual([json, readable]);
      }
    } finally {
      folder.remove();
    }
  });

  it('the condition is one expression, whatever column it is given', () => {
    expect(readableEventSql('e.payload')).toContain('json_valid(e.payload)');
    expect(readableEventSql('e.payload')).not.toContain('events.json');
    expect(readableEventSql()).toMatch(/^coalesce\(CASE WHEN json_valid\(events\.json\) THEN /);
  });
});
