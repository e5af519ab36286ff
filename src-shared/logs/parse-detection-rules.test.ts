import { describe, expect, it } from 'vitest';
import { parseLogLine } from './parse';

const T = Date.UTC(2026, 10, 22, 10, 11, 12);

describe('which lines are structured', () => {
  it('the kubelet timestamp is never in brackets: a bracketed one stays part of the line', () => {
    const line = '[2026-11-22T10:11:12Z] body';
    const e = parseLogLine(line, { timestamps: true });
    expect(e).toMatchObject({ tsText: undefined, raw: line, message: line });
    // As the line's own leading timestamp it still gives the time.
    expect(e.ts).toBe(T);
  });

  it('a line whose first key is no identifier is not logfmt, however credible the pairs after it', () => {
    for (const s of ['4711 level=info msg=m', '9lives=1 level=warn', 'a:b=1 level=warn', '.x=1 y=2']) {
      expect(parseLogLine(s), s).toMatchObject({ format: 'plain', level: 'UNKNOWN', fields: undefined });
    }
    expect(parseLogLine('lives9=1 level=warn')).toMatchObject({
      format: 'logfmt',
      level: 'WARN',
      fields: { lives9: '1', level: 'warn' },
    });
  });

  it('a JSON number field is the number as text, never "null", even beyond the range of a double', () => {
    const e = parseLogLine('{"big":1e400,"small":-1e400,"n":12.5,"z":null,"msg":"m"}');
    expect(e.fields).toEqual({ big: 'Infinity', small: '-Infinity', n: '12.5', z: 'null', msg: 'm' });
  });
});
