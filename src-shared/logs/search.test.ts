import { describe, expect, it } from 'vitest';
import { type CompiledSearch, compileSearch, findMatches, type RegexTester, type SearchSpec } from './search';

function compile(spec: SearchSpec, tester?: RegexTester): CompiledSearch {
  const r = compileSearch(spec, tester);
  if (!r.ok) throw new Error(r.error);
  return r.search;
}

describe('search matching', () => {
  it('a case-sensitive literal matches the exact text and highlights each occurrence without a regex', () => {
    const s = compile({ pattern: 'a.b', regex: false, caseSensitive: true });
    expect(s.global).toBeNull();
    expect(s.test('xxa.bxx')).toBe(true);
    expect(s.test('xxA.Bxx')).toBe(false);
    expect(s.test('xxaxbxx')).toBe(false);
    expect(findMatches('a.ba.b a.b', s)).toEqual([
      [0, 3],
      [3, 6],
      [7, 10],
    ]);
  });

  it('an empty literal matches every line but highlights nothing', () => {
    const s = compile({ pattern: '', regex: false, caseSensitive: true });
    expect(s.test('anything')).toBe(true);
    expect(findMatches('anything', s)).toEqual([]);
  });

  it('a case-insensitive literal matches its characters literally in any case', () => {
    const s = compile({ pattern: 'A.(b)', regex: false, caseSensitive: false });
    expect(s.test('x a.(B) y')).toBe(true);
    expect(s.test('x ax(B) y')).toBe(false);
    expect(findMatches('a.(b)A.(B)', s)).toEqual([
      [0, 5],
      [5, 10],
    ]);
  });

  it('a given regex tester compiles regexes and case-insensitive literals, and its refusal is reported', () => {
    const calls: Array<[string, boolean]> = [];
    const tester: RegexTester = (source, caseSensitive) => {
      calls.push([source, caseSensitive]);
      if (source.startsWith('bad')) return 'refused by engine';
      // A deliberately different engine: matches only at the start of the text.
      const re = new RegExp(`^(?:${source})`, caseSensitive ? '' : 'i');
      return { test: (text) => re.test(text) };
    };
    const lit = compile({ pattern: 'a.b', regex: false, caseSensitive: false }, tester);
    expect(lit.global).toBeNull();
    expect(lit.test('A.B at start')).toBe(true);
    expect(lit.test('not at start a.b')).toBe(false);
    const rx = compile({ pattern: 'x+', regex: true, caseSensitive: true }, tester);
    expect(rx.test('xx')).toBe(true);
    expect(rx.test('ax')).toBe(false);
    expect(calls).toEqual([
      ['a\\.b', false],
      ['x+', true],
    ]);
    expect(compileSearch({ pattern: 'bad(', regex: true, caseSensitive: true }, tester)).toEqual({
      ok: false,
      error: 'Invalid regular expression: refused by engine',
    });
  });

  it('an invalid regex is refused with the engine reason only, without the pattern and flags', () => {
    for (const caseSensitive of [true, false]) {
      const pattern = 'ab(cd';
      let reason = '';
      try {
        new RegExp(pattern, caseSensitive ? '' : 'i');
      } catch (e) {
        const m = (e as Error).message;
        reason = m.slice(m.lastIndexOf(': ') + 2);
      }
      expect(reason).not.toBe('');
      expect(compileSearch({ pattern, regex: true, caseSensitive })).toEqual({
        ok: false,
        error: `Invalid regular expression: ${reason}`,
      });
    }
  });
});

describe('search highlighting', () => {
  it('empty matches are stepped over by one character and never hide the next real match', () => {
    const s = compile({ pattern: 'a*', regex: true, caseSensitive: true });
    expect(findMatches('xab', s)).toEqual([[1, 2]]);
    expect(findMatches('\ue000a', s)).toEqual([[1, 2]]);
    expect(findMatches('', s)).toEqual([]);
  });

  it('in Unicode mode an empty match never splits a surrogate pair', () => {
    const s = compile({ pattern: '(?:)|\\udc00', regex: true, caseSensitive: true });
    expect(s.global?.unicode).toBe(true);
    expect(findMatches('\ud83d\udc00x', s)).toEqual([]);
    const a = compile({ pattern: 'x*', regex: true, caseSensitive: true });
    expect(findMatches('\ud800\udc00x\udbff\udfffx', a)).toEqual([
      [2, 3],
      [5, 6],
    ]);
  });
});
