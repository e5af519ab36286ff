import { describe, expect, it } from 'vitest';
import {
  applyLogFilter,
  compileLogFilter,
  createLogFilterStream,
  type LogFilter,
  toDisplayRows,
} from './filter';
import { compile, mk } from './filter.test-support';
import { compileSearch, findMatches, MAX_PATTERN_LENGTH } from './search';
import type { LogEntry, LogLevel } from './types';

const lines = (n: number): LogEntry[] => Array.from({ length: n }, (_, i) => mk(`line ${i}`));
const search = (pattern: string, regex = false, caseSensitive = false) => ({ pattern, regex, caseSensitive });
const arr = (a: Int32Array): number[] => Array.from(a);

describe('compileLogFilter', () => {
  it('reports invalid regexes with a message', () => {
    const r = compileLogFilter({ search: search('(unclosed', true) });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/Invalid regular expression/);
  });

  it('rejects over-long patterns, bad context and inverted ranges', () => {
    expect(compileLogFilter({ search: search('a'.repeat(MAX_PATTERN_LENGTH + 1)) }).ok).toBe(false);
    expect(compileLogFilter({ search: search('a'.repeat(MAX_PATTERN_LENGTH)) }).ok).toBe(true);
    expect(compileLogFilter({ context: -1 }).ok).toBe(false);
    expect(compileLogFilter({ context: 1.5 }).ok).toBe(false);
    expect(compileLogFilter({ from: 10, until: 5 }).ok).toBe(false);
  });

  it('accepts grep-habit escapes that Unicode mode rejects', () => {
    const f = compile({ search: search('a\\-b', true) });
    expect(f.search?.test('x a-b y')).toBe(true);
  });
});

describe('applyLogFilter: levels and time', () => {
  const entries = [
    mk('e', 'ERROR'),
    mk('w', 'WARN'),
    mk('i', 'INFO'),
    mk('d', 'DEBUG'),
    mk('t', 'TRACE'),
    mk('u', 'UNKNOWN'),
  ];

  it('shows everything without levels', () => {
    expect(arr(applyLogFilter(entries, compile({})).indices)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('shows UNKNOWN unless excluded', () => {
    expect(arr(applyLogFilter(entries, compile({ levels: { ERROR: true, WARN: true } })).indices)).toEqual([
      0, 1, 5,
    ]);
    const noUnknown = compile({ levels: { ERROR: true, UNKNOWN: false } });
    expect(arr(applyLogFilter(entries, noUnknown).indices)).toEqual([0]);
    expect(arr(applyLogFilter(entries, compile({ levels: {} })).indices)).toEqual([5]);
  });

  it('filters an inclusive time range; untimed lines follow the previous timed line', () => {
    const es = [
      mk('head', 'UNKNOWN'), // before any ts: passes
      mk('a', 'INFO', 100),
      mk('a-cont', 'UNKNOWN'), // inherits 100
      mk('b', 'ERROR', 200),
      mk('b-cont', 'UNKNOWN'), // inherits 200
      mk('c', 'INFO', 300),
    ];
    expect(arr(applyLogFilter(es, compile({ from: 150, until: 300 })).indices)).toEqual([0, 3, 4, 5]);
    expect(arr(applyLogFilter(es, compile({ from: 100, until: 100 })).indices)).toEqual([0, 1, 2]);
    // Inheritance follows input order even through lines hidden by level.
    expect(arr(applyLogFilter(es, compile({ from: 150, levels: { INFO: true } })).indices)).toEqual([
      0, 4, 5,
    ]);
  });
});

describe('applyLogFilter: search and context (grep -C)', () => {
  it('no search: every visible line is a match, no separators', () => {
    const r = applyLogFilter(lines(3), compile({ context: 2 }));
    expect(arr(r.indices)).toEqual([0, 1, 2]);
    expect(r.matchIndices).toBe(r.indices);
    expect(r.separators.length).toBe(0);
  });

  it('an empty pattern is no search', () => {
    expect(compile({ search: search('') }).search).toBeNull();
  });

  it('context 0: only matches, no separators', () => {
    const r = applyLogFilter(lines(10), compile({ search: search('line [27]', true) }));
    expect(arr(r.indices)).toEqual([2, 7]);
    expect(arr(r.matchIndices)).toEqual([2, 7]);
    expect(r.separators.length).toBe(0);
  });

  it('merges overlapping contexts and separates gaps', () => {
    const r = applyLogFilter(lines(20), compile({ search: search('^line (2|4|12)$', true), context: 1 }));
    expect(arr(r.indices)).toEqual([1, 2, 3, 4, 5, 11, 12, 13]);
    expect(arr(r.matchIndices)).toEqual([2, 4, 12]);
    expect(arr(r.separators)).toEqual([5]);
    expect(arr(toDisplayRows(r))).toEqual([1, 2, 3, 4, 5, -1, 11, 12, 13]);
  });

  it('touching groups are contiguous: no separator', () => {
    const r = applyLogFilter(lines(10), compile({ search: search('^line (2|5)$', true), context: 1 }));
    expect(arr(r.indices)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(r.separators.length).toBe(0);
  });

  it('clips context at both ends', () => {
    const r = applyLogFilter(lines(5), compile({ search: search('^line (0|4)$', true), context: 3 }));
    expect(arr(r.indices)).toEqual([0, 1, 2, 3, 4]);
    expect(r.separators.length).toBe(0);
    const r2 = applyLogFilter(lines(10), compile({ search: search('^line (0|9)$', true), context: 2 }));
    expect(arr(r2.indices)).toEqual([0, 1, 2, 7, 8, 9]);
    expect(arr(r2.separators)).toEqual([3]);
  });

  it('takes context from the level/time-filtered view only', () => {
    const es = [
      mk('ctx-a', 'INFO'),
      mk('hidden-1', 'DEBUG'),
      mk('hidden-2', 'DEBUG'),
      mk('MATCH', 'ERROR'),
      mk('hidden-3', 'DEBUG'),
      mk('ctx-b', 'WARN'),
      mk('far', 'INFO'),
    ];
    const f = compile({
      levels: { ERROR: true, WARN: true, INFO: true },
      search: search('match'),
      context: 1,
    });
    const r = applyLogFilter(es, f);
    expect(arr(r.indices)).toEqual([0, 3, 5]);
    expect(r.separators.length).toBe(0);
  });

  it('a gap hidden by the level filter is not a gap', () => {
    const es = [mk('m1'), mk('x', 'DEBUG'), mk('x', 'DEBUG'), mk('x', 'DEBUG'), mk('m2')];
    const r = applyLogFilter(es, compile({ levels: { INFO: true }, search: search('^m', true), context: 1 }));
    expect(arr(r.indices)).toEqual([0, 4]);
    expect(r.separators.length).toBe(0);
  });

  it('searches raw text, literal by default, with case options', () => {
    const es = [mk('Foo.bar'), mk('fooXbar'), mk('FOO.BAR')];
    expect(arr(applyLogFilter(es, compile({ search: search('foo.bar') })).indices)).toEqual([0, 2]);
    expect(arr(applyLogFilter(es, compile({ search: search('foo.bar', false, true) })).indices)).toEqual([]);
    expect(arr(applyLogFilter(es, compile({ search: search('foo.bar', true) })).indices)).toEqual([0, 1, 2]);
    expect(arr(applyLogFilter(es, compile({ search: search('Foo', true, true) })).indices)).toEqual([0]);
  });
});

describe('findMatches', () => {
  const s = (p: string, regex = false, cs = false) => {
    const r = compileSearch({ pattern: p, regex, caseSensitive: cs });
    if (!r.ok) throw new Error(r.error);
    return r.search;
  };
  it('finds non-overlapping literal ranges', () => {
    expect(findMatches('aaaa', s('aa', false, true))).toEqual([
      [0, 2],
      [2, 4],
    ]);
    expect(findMatches('Error and ERROR', s('error'))).toEqual([
      [0, 5],
      [10, 15],
    ]);
    expect(findMatches('a.b axb', s('a.b'))).toEqual([[0, 3]]);
  });
  it('handles regexes, empty matches and astral characters', () => {
    expect(findMatches('id=12 id=345', s('\\d+', true))).toEqual([
      [3, 5],
      [9, 12],
    ]);
    expect(findMatches('abc', s('x*', true))).toEqual([]);
    expect(findMatches('😀a😀', s('a|^', true))).toEqual([[2, 3]]);
    expect(findMatches('Ünïcode', s('\\p{Lu}', true, true))).toEqual([[0, 1]]);
    // Repeated calls are independent (lastIndex is reset).
    const re = s('b', true);
    expect(findMatches('abab', re)).toEqual(findMatches('abab', re));
  });
});

describe('createLogFilterStream', () => {
  function flattenBatch(entries: LogEntry[], f: LogFilter): string[] {
    const r = applyLogFilter(entries, f);
    const matchSet = new Set(arr(r.matchIndices));
    return arr(toDisplayRows(r)).map((i) => (i < 0 ? '--' : `${matchSet.has(i) ? 'M' : 'C'}${i}`));
  }
  function flattenStream(entries: LogEntry[], f: LogFilter): string[] {
    const stream = createLogFilterStream(f);
    const index = new Map(entries.map((e, i) => [e, i]));
    const out: string[] = [];
    for (const e of entries) {
      for (const item of stream.push(e)) {
        out.push(
          item.kind === 'separator' ? '--' : `${item.kind === 'match' ? 'M' : 'C'}${index.get(item.entry)}`,
        );
      }
    }
    return out;
  }

  it('emits after-context as lines arrive and before-context on the match', () => {
    const stream = createLogFilterStream(compile({ search: search('hit'), context: 1 }));
    const es = [mk('a'), mk('b'), mk('hit'), mk('c'), mk('d'), mk('e'), mk('hit')];
    const kinds = es.map((e) =>
      stream
        .push(e)
        .map((i) => i.kind)
        .join(','),
    );
    expect(kinds).toEqual(['', '', 'context,match', 'context', '', '', 'separator,context,match']);
  });

  it('equals the batch filter on random input', () => {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const levels: LogLevel[] = ['ERROR', 'WARN', 'INFO', 'DEBUG', 'UNKNOWN'];
    for (let round = 0; round < 40; round++) {
      const entries = Array.from({ length: 300 }, (_, i) =>
        mk(
          rand() < 0.08 ? `hit ${i}` : `line ${i}`,
          levels[Math.floor(rand() * levels.length)],
          rand() < 0.7 ? i * 10 : undefined,
        ),
      );
      const f = compile({
        levels: round % 3 === 0 ? undefined : { ERROR: true, INFO: true, UNKNOWN: round % 2 === 0 },
        from: round % 4 === 1 ? 500 : undefined,
        until: round % 5 === 2 ? 2500 : undefined,
        search: round % 7 === 6 ? undefined : search('hit'),
        context: round % 6,
      });
      expect(flattenStream(entries, f)).toEqual(flattenBatch(entries, f));
    }
  });
});
