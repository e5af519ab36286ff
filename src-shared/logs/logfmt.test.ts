import { describe, expect, it } from 'vitest';
import { looksLikeLogfmt, parseLogfmt } from './logfmt';

describe('logfmt pre-check', () => {
  it('a key starts with an ASCII letter or underscore', () => {
    for (const s of ['A=1', 'Z=1', 'a=1', 'z=1', '_=1']) expect(looksLikeLogfmt(s, 0), s).toBe(true);
    for (const s of ['@=1', '[=1', '`=1', '{=1', '0=1', '9=1', '-a=1', '=1', ''])
      expect(looksLikeLogfmt(s, 0), s).toBe(false);
  });

  it('a key goes on with letters, digits, dot, dash, slash and at, then needs "="', () => {
    for (const s of ['a0=1', 'a9=1', 'aZ_z=1', 'a.b=1', 'a-b=1', 'a/b=1', 'a@b=1'])
      expect(looksLikeLogfmt(s, 0), s).toBe(true);
    for (const s of ['a:b=1', 'a b=1', 'a,b=1', 'a[=1', 'abc', 'a', 'a =1'])
      expect(looksLikeLogfmt(s, 0), s).toBe(false);
  });

  it('the check starts at the given index', () => {
    expect(looksLikeLogfmt('  msg=x', 2)).toBe(true);
    expect(looksLikeLogfmt('  msg=x', 0)).toBe(false);
  });
});

describe('logfmt fields', () => {
  it('pairs are separated by spaces or tabs, bare keys get an empty value and the last duplicate wins', () => {
    expect(parseLogfmt(' \tmsg=x\tflag\tlevel=info  msg=y \t', 0)).toEqual({
      msg: 'y',
      flag: '',
      level: 'info',
    });
    expect(parseLogfmt('xx level=warn', 3)).toEqual({ level: 'warn' });
  });

  it('quoted values keep blanks and resolve \\n, \\t, \\r, \\uXXXX and escaped characters', () => {
    const f = parseLogfmt('msg="a b\\n\\t\\r\\u00e9\\"\\\\z" level=info', 0);
    expect(f).toEqual({ msg: 'a b\n\t\r\u00e9"\\z', level: 'info' });
    // A short or non-hex \u stays a literal u.
    expect(parseLogfmt('msg="x\\u00e"', 0)).toEqual({ msg: 'xu00e' });
    expect(parseLogfmt('msg="\\uzzzz"', 0)).toEqual({ msg: 'uzzzz' });
    expect(parseLogfmt('msg="" level=x', 0)).toEqual({ msg: '', level: 'x' });
  });

  it('a quote left open, a quote inside a key or an empty key is not logfmt', () => {
    expect(parseLogfmt('msg="open level=info', 0)).toBeUndefined();
    expect(parseLogfmt('msg="ends in escape\\" level=info', 0)).toBeUndefined();
    expect(parseLogfmt('msg=x a"b=1', 0)).toBeUndefined();
    expect(parseLogfmt('msg=x "quoted"', 0)).toBeUndefined();
    expect(parseLogfmt('msg=y =x', 0)).toBeUndefined();
  });

  it('a __proto__ key is stored as a field and leaves the prototype alone', () => {
    const f = parseLogfmt('__proto__=x msg=m', 0);
    expect(Object.getOwnPropertyDescriptor(f, '__proto__')?.value).toBe('x');
    expect(f?.msg).toBe('m');
    expect(Object.keys(f ?? {})).toEqual(['__proto__', 'msg']);
    expect(Object.getPrototypeOf(f)).toBe(Object.prototype);
  });
});

describe('logfmt credibility', () => {
  it('a known key is enough while bare words do not outnumber pairs', () => {
    for (const k of ['level', 'lvl', 'severity', 'msg', 'message', 'time', 'ts', 'timestamp']) {
      expect(parseLogfmt(`${k}=v`, 0), k).toEqual({ [k]: 'v' });
      expect(parseLogfmt(`${k}=v word`, 0), k).toEqual({ [k]: 'v', word: '' });
      expect(parseLogfmt(`${k}=v two words`, 0), k).toBeUndefined();
    }
    expect(parseLogfmt('level= x=1', 0)).toEqual({ level: '', x: '1' });
    expect(parseLogfmt('a=1 level', 0)).toEqual({ a: '1', level: '' });
  });

  it('without a known key, two pairs and no bare word are needed', () => {
    expect(parseLogfmt('a=1 b=2', 0)).toEqual({ a: '1', b: '2' });
    expect(parseLogfmt('a=1', 0)).toBeUndefined();
    expect(parseLogfmt('a=1 b=2 c', 0)).toBeUndefined();
    expect(parseLogfmt('Level=1', 0)).toBeUndefined();
  });
});
