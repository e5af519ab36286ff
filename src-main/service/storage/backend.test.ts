import { describe, expect, it } from 'vitest';
import { toPositional, valuesFor } from './backend';

/** The `$name` → `$n` rewrite the PostgreSQL backend runs every statement through. */
describe('toPositional', () => {
  it('numbers names in order of first use, one number per name however often it appears', () => {
    expect(toPositional('SELECT * FROM t WHERE a = $a AND (b = $b OR b2 = $b) AND c = $a_1')).toEqual({
      text: 'SELECT * FROM t WHERE a = $1 AND (b = $2 OR b2 = $2) AND c = $3',
      names: ['a', 'b', 'a_1'],
    });
  });

  it('leaves quoted strings, quoted identifiers and comments alone, doubled quotes included', () => {
    const sql = `SELECT '$a', 'it''s $b', "col$c", "q""$d" -- $e\nFROM t WHERE x = $f`;
    expect(toPositional(sql)).toEqual({
      text: `SELECT '$a', 'it''s $b', "col$c", "q""$d" -- $e\nFROM t WHERE x = $1`,
      names: ['f'],
    });
  });

  it('tells a minus from a comment, an escaped quote at a string’s end from its close, and survives an open quote', () => {
    expect(toPositional('SELECT 1-$a, 2 - -$b, $c-- $d')).toEqual({
      text: 'SELECT 1-$1, 2 - -$2, $3-- $d',
      names: ['a', 'b', 'c'],
    });
    expect(toPositional("SELECT 'a''' = $b")).toEqual({ text: "SELECT 'a''' = $1", names: ['b'] });
    expect(toPositional("SELECT $a, 'open $b")).toEqual({ text: "SELECT $1, 'open $b", names: ['a'] });
  });

  it('keeps a $ that starts no name, and a comment at the very end', () => {
    expect(toPositional('SELECT $1, $ , x - 1 -- $tail')).toEqual({
      text: 'SELECT $1, $ , x - 1 -- $tail',
      names: [],
    });
    expect(toPositional("SELECT ''")).toEqual({ text: "SELECT ''", names: [] });
  });
});

describe('valuesFor', () => {
  it('answers the values in the names’ order, null kept', () => {
    expect(valuesFor(['b', 'a'], { a: 1, b: null }, 'x')).toEqual([null, 1]);
  });

  it('names the missing placeholder and the statement', () => {
    expect(() => valuesFor(['a', 'gone'], { a: 1 }, '  SELECT $a, $gone ')).toThrow(
      'no value for $gone in: SELECT $a, $gone',
    );
  });

  it('quotes at most 200 characters of a long statement', () => {
    const sql = `SELECT $gone, ${'x'.repeat(300)}`;
    expect(() => valuesFor(['gone'], {}, sql)).toThrow(
      new Error(`no value for $gone in: ${sql.slice(0, 200)}`),
    );
  });
});
