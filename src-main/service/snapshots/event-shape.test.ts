import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS, isReadableEvent } from './event-shape';
import { withProbe } from './probe';
import { tempFolder, writeSnapshot } from './skiff-file.test-support';

/**
 * Which event rows can be read (event-shape.ts): the rule on a parsed value, and the same rule
 * as the check's own process applies it (probe.ts), sample by sample.
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
  object: [{}, { any: [1] }],
  text: ['', 'Warning'],
  integer: [0, -3, 2147483647, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER],
};
const WRONG: unknown[] = ['x', 1.5, true, false, [], {}, 2 ** 60, Number.MAX_SAFE_INTEGER + 1];

/** [json text, readable?] */
function samples(): Array<[string, boolean]> {
  const out: Array<[string, boolean]> = [
    [JSON.stringify(base), true],
    ['{"metadata":{}}', true],
    ['not json', false],
    ['{"metadata": ', false],
    ['', false],
    ['[{"metadata":{}}]', false],
    ['"text"', false],
    ['null', false],
    ['1', false],
    ['{}', false],
    ['{"metadata":null}', false],
    ['{"metadata":[]}', false],
    ['{"metadata":"m"}', false],
    ['{"metadata":{},"count":1.0}', true],
    ['{"metadata":{},"count":1e2}', true],
    ['{"metadata":{},"count":-0}', true],
    ['{"metadata":{},"count":9007199254740993}', false],
    ['{"metadata":{},"count":1e300}', false],
    // A key named twice counts once, the last time, as JSON.parse reads it.
    ['{"metadata":{},"reason":"a","reason":{}}', false],
    ['{"metadata":{},"reason":{},"reason":"a"}', true],
    ['{"metadata":{},"metadata":5}', false],
    ['{"metadata":5,"metadata":{}}', true],
    ['{"metadata":{},"involvedObject":{"kind":"Pod"},"unknown":[1,{"a":null}]}', true],
    ['{"metadata":{},"involvedObject":{"kind":"Pod","extra":{"deep":[[[]]]}}}', true],
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
  it('follow the rule, in this process and in the check’s, sample by sample', async () => {
    const all = samples();
    for (const [json, readable] of all) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(json);
      } catch {
        parsed = undefined;
      }
      expect([json, isReadableEvent(parsed)]).toEqual([json, readable]);
    }
    const folder = tempFolder();
    try {
      const path = folder.path('shapes.skiff');
      writeSnapshot(path, {
        events: all.map(([json], i) => [`u-${i}`, 'shop', '2026-03-01T11:00:00Z', false, json]),
      });
      const bad = await withProbe(path, { budgetMs: 30_000 }, async (probe) => {
        await probe.open();
        return probe.badJsonRows('SELECT rowid AS id, json FROM events ORDER BY rowid', EVENT_FIELDS, 10_000);
      });
      const expected = all.flatMap(([, readable], i) => (readable ? [] : [i + 1]));
      expect(bad).toEqual(expected);
      const capped = await withProbe(path, { budgetMs: 30_000 }, async (probe) => {
        await probe.open();
        return probe.badJsonRows('SELECT rowid AS id, json FROM events ORDER BY rowid', EVENT_FIELDS, 3);
      });
      expect(capped).toEqual(expected.slice(0, 3));
    } finally {
      folder.remove();
    }
  });

  it('a value that is not an object, or has no metadata object, is never readable', () => {
    for (const v of [
      undefined,
      null,
      0,
      'x',
      [],
      [{ metadata: {} }],
      {},
      { metadata: null },
      { metadata: [] },
    ])
      expect(isReadableEvent(v)).toBe(false);
    expect(isReadableEvent({ metadata: {} })).toBe(true);
  });
});
