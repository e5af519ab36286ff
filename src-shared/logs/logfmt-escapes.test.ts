import { describe, expect, it } from 'vitest';
import { parseLogfmt } from './logfmt';

/** The value of `msg` when the line is `msg="<quoted>"`. */
function unquoted(quoted: string): string | undefined {
  return parseLogfmt(`msg="${quoted}"`, 0)?.msg;
}

describe('logfmt \\u escapes', () => {
  it('\\u with four hex digits, 0-9, a-f or A-F in any mix, is that code unit', () => {
    expect(unquoted('\\u0030\\u0039|\\u0061\\u0066|\\u0041\\u0046')).toBe('09|af|AF');
    expect(unquoted('<\\uFffD>')).toBe('<\uFFFD>');
    expect(unquoted('\\u00e9t\\u00E9')).toBe('été');
  });

  it('\\u followed by anything but four hex digits keeps a literal u and drops nothing', () => {
    // One character just outside each hex range, at each of the four places.
    const cases: Array<[string, string]> = [
      ['\\u/041', 'u/041'],
      ['\\u0:41', 'u0:41'],
      ['\\u00@1', 'u00@1'],
      ['\\u004G', 'u004G'],
      ['\\u`041', 'u`041'],
      ['\\u0g41', 'u0g41'],
      // Text that Number.parseInt would read in part: digits then letters, a sign, a blank.
      ['\\u12zz', 'u12zz'],
      ['\\u+041', 'u+041'],
      ['\\u-041', 'u-041'],
      ['\\u 041', 'u 041'],
      // Four hex digits elsewhere in the value do not count.
      ['\\u12zz beef', 'u12zz beef'],
    ];
    for (const [quoted, value] of cases) expect(unquoted(quoted), quoted).toBe(value);
  });

  it('only \\u starts a hex escape: another escaped character before four hex digits is just that character', () => {
    expect(unquoted('\\\\beef|\\"0041|\\x0041')).toBe('\\beef|"0041|x0041');
  });
});

describe('logfmt __proto__ field', () => {
  it('a __proto__ field is an ordinary field: same kind of property as any other, last duplicate wins', () => {
    const f = parseLogfmt('__proto__=a msg=m __proto__=b', 0);
    expect(Object.getOwnPropertyDescriptor(f, '__proto__')).toEqual({
      ...Object.getOwnPropertyDescriptor(f, 'msg'),
      value: 'b',
    });
  });
});
