import { describe, expect, it } from 'vitest';
import { parseLogLine } from './parse';

const T = Date.UTC(2026, 10, 22, 10, 11, 12);

describe('klog headers', () => {
  it('I, W, E and F headers give INFO, WARN, ERROR, ERROR and the text after "] "', () => {
    const cases: Array<[string, string]> = [
      ['I', 'INFO'],
      ['W', 'WARN'],
      ['E', 'ERROR'],
      ['F', 'ERROR'],
    ];
    for (const [c, level] of cases) {
      const e = parseLogLine(`${c}1122 10:11:12.123456    1 main.go:42] started x`);
      expect(e, c).toMatchObject({ level, message: 'started x', format: 'prefix', ts: undefined });
    }
    // No space after the bracket, or no bracket at all.
    expect(parseLogLine('I1122 10:11:12.123456 1 a.go:1]tight').message).toBe('tight');
    expect(parseLogLine('I1122 10:11:12.123456 1 a.go:1 no bracket')).toMatchObject({
      level: 'INFO',
      message: '',
    });
  });

  it('a klog header needs four digits, a space and the two colons in place', () => {
    for (const s of [
      'I112x 10:11:12.1 1 a.go:1] m',
      'Ix122 10:11:12.1 1 a.go:1] m',
      'I1122x10:11:12.1 1 a.go:1] m',
      'I1122 10x11:12.1 1 a.go:1] m',
      'I1122 10:11x12.1 1 a.go:1] m',
      'D1122 10:11:12.1 1 a.go:1] m',
    ]) {
      const e = parseLogLine(s);
      expect(e.level, s).toBe('UNKNOWN');
      expect(e.format, s).toBe('plain');
    }
  });
});

describe('level prefixes in free text', () => {
  it('the separators between level and text are skipped: blanks, colons, pipes and up to three dashes', () => {
    expect(parseLogLine('ERROR: | -- disk full').message).toBe('disk full');
    expect(parseLogLine('ERROR - disk full').message).toBe('disk full');
    expect(parseLogLine('ERROR --- disk full').message).toBe('disk full');
    expect(parseLogLine('ERROR -: disk full').message).toBe('disk full');
    expect(parseLogLine('[ERROR]\t|\tdisk full').message).toBe('disk full');
    expect(parseLogLine('ERROR -').message).toBe('');
    // Four dashes, or dashes that start a word, belong to the message.
    expect(parseLogLine('ERROR ---- disk full').message).toBe('---- disk full');
    expect(parseLogLine('ERROR -x disk full').message).toBe('-x disk full');
  });

  it('a pid or a run of dashes and pipes before the level is skipped, other words are not', () => {
    expect(parseLogLine('4711 WARN low memory')).toMatchObject({ level: 'WARN', message: 'low memory' });
    expect(parseLogLine('0 9 warn low memory')).toMatchObject({ level: 'WARN', message: 'low memory' });
    expect(parseLogLine('--- | -|- ERROR boom')).toMatchObject({ level: 'ERROR', message: 'boom' });
    for (const s of ['47a1 WARN x', 'a471 WARN x', '-x- WARN x', '/ WARN x', ':: WARN x', '4711|x WARN y']) {
      expect(parseLogLine(s).level, s).toBe('UNKNOWN');
    }
  });

  it('a bracketed token before the level is skipped only when closed and followed by a blank', () => {
    expect(parseLogLine('[main-1] info started')).toMatchObject({ level: 'INFO', message: 'started' });
    expect(parseLogLine('[main-1 info started').level).toBe('UNKNOWN');
    expect(parseLogLine('[main-1]x info started').level).toBe('UNKNOWN');
    expect(parseLogLine('[main-1]info started').level).toBe('UNKNOWN');
  });

  it('only four tokens before the level are inspected', () => {
    expect(parseLogLine('1 2 3 ERROR x').level).toBe('ERROR');
    expect(parseLogLine('1 2 3 4 ERROR x').level).toBe('UNKNOWN');
  });

  it('a leading bare word must be upper case, but after a timestamp or a skipped token any case counts', () => {
    expect(parseLogLine('Error reading file').level).toBe('UNKNOWN');
    expect(parseLogLine('ERROR reading file').level).toBe('ERROR');
    expect(parseLogLine('ERROR').level).toBe('ERROR');
    expect(parseLogLine('10:11:12 error reading').level).toBe('ERROR');
    expect(parseLogLine('12 error reading').level).toBe('ERROR');
    expect(parseLogLine('Error: reading').level).toBe('ERROR');
  });

  it('a bracket, angle or parenthesis frame must close on the level word', () => {
    expect(parseLogLine('<warn> x')).toMatchObject({ level: 'WARN', message: 'x' });
    expect(parseLogLine('(debug) x')).toMatchObject({ level: 'DEBUG', message: 'x' });
    expect(parseLogLine('<warn) x').level).toBe('UNKNOWN');
    expect(parseLogLine('(debug] x').level).toBe('UNKNOWN');
  });

  it('a leading zoned timestamp gives the line its time, a zone-less one does not', () => {
    expect(parseLogLine('  2026-11-22T10:11:12Z INFO up')).toMatchObject({
      ts: T,
      level: 'INFO',
      message: 'up',
    });
    expect(parseLogLine('[2026-11-22 10:11:12Z] [INFO] up')).toMatchObject({
      ts: T,
      level: 'INFO',
      message: 'up',
    });
    expect(parseLogLine('2026-11-22T10:11:12 INFO up')).toMatchObject({ ts: undefined, level: 'INFO' });
    expect(parseLogLine('2026-11-22T10:11:12Z just text')).toMatchObject({
      ts: T,
      level: 'UNKNOWN',
      format: 'plain',
    });
  });
});

describe('kubelet timestamps', () => {
  it('the kubelet prefix needs date, time and zone and is followed by a space or the end', () => {
    const ok = parseLogLine('2026-11-22T10:11:12Z body', { timestamps: true });
    expect(ok).toMatchObject({ ts: T, tsText: '2026-11-22T10:11:12Z', raw: 'body' });
    for (const s of [
      '2026-11-22T10:11:12 body',
      '10:11:12Z body',
      '2026-11-22 body',
      '2026-11-22T10:11:12Zbody',
      'body',
    ]) {
      const e = parseLogLine(s, { timestamps: true });
      expect(e.tsText, s).toBeUndefined();
      expect(e.raw, s).toBe(s);
    }
  });

  it('a zoned kubelet prefix that is no valid instant is split off but gives no time', () => {
    const e = parseLogLine('2026-13-22T10:11:12Z body', { timestamps: true });
    expect(e).toMatchObject({ ts: undefined, tsText: '2026-13-22T10:11:12Z', raw: 'body' });
  });

  it('the kubelet time wins over the time inside the line', () => {
    const e = parseLogLine('2026-11-22T10:11:12Z {"time":"2020-01-01T00:00:00Z","msg":"m"}', {
      timestamps: true,
    });
    expect(e.ts).toBe(T);
    const l = parseLogLine('2026-11-22T10:11:12Z ts=2020-01-01T00:00:00Z msg=m', { timestamps: true });
    expect(l.ts).toBe(T);
    const p = parseLogLine('2026-11-22T10:11:12Z 2020-01-01T00:00:00Z INFO m', { timestamps: true });
    expect(p.ts).toBe(T);
  });

  it('only trailing CR and LF are removed, all of them', () => {
    expect(parseLogLine('ERROR x\r\n\n\r').raw).toBe('ERROR x');
    expect(parseLogLine('\r\nERROR x').raw).toBe('\r\nERROR x');
    expect(parseLogLine('\n\r\n')).toMatchObject({ raw: '', format: 'plain', level: 'UNKNOWN' });
  });

  it('a blank body is plain with no level', () => {
    const e = parseLogLine(' \t ', { timestamps: false });
    expect(e).toMatchObject({
      raw: ' \t ',
      message: ' \t ',
      format: 'plain',
      level: 'UNKNOWN',
      fields: undefined,
    });
  });
});
