import { describe, expect, it } from 'vitest';
import { parseLogLine } from './parse';

const T = Date.UTC(2026, 10, 22, 10, 11, 12);

describe('klog date digits', () => {
  it('the four date digits of a klog header may be any of 0 to 9, and only digits', () => {
    expect(parseLogLine('I0109 10:11:12.123456 1 a.go:1] zero and nine')).toMatchObject({
      level: 'INFO',
      message: 'zero and nine',
      format: 'prefix',
    });
    expect(parseLogLine('W9990 10:11:12.123456 1 a.go:1] nines')).toMatchObject({
      level: 'WARN',
      message: 'nines',
    });
    // "/" and ":" sit just below "0" and just above "9".
    for (const s of ['I1/22 10:11:12.1 1 a.go:1] m', 'I11:2 10:11:12.1 1 a.go:1] m']) {
      expect(parseLogLine(s), s).toMatchObject({ level: 'UNKNOWN', format: 'plain', message: s });
    }
  });
});

describe('what a level word needs around it', () => {
  it('a line of nothing but a timestamp, pids and dashes has no level and stays plain', () => {
    // A level read on the line before must not carry over.
    expect(parseLogLine('ERROR before').level).toBe('ERROR');
    expect(parseLogLine('2026-11-22T10:11:12Z')).toMatchObject({
      ts: T,
      level: 'UNKNOWN',
      format: 'plain',
      message: '2026-11-22T10:11:12Z',
    });
    expect(parseLogLine('WARN before').level).toBe('WARN');
    expect(parseLogLine('4711 --- | ')).toMatchObject({ level: 'UNKNOWN', format: 'plain' });
  });

  it('a bare level word must be followed by a blank, a colon or the end of the line', () => {
    for (const s of [
      'ERROR, disk full',
      'WARN. disk full',
      'INFO-x disk full',
      'ERROR=1 disk full',
      '12 warn; x',
    ]) {
      expect(parseLogLine(s), s).toMatchObject({ level: 'UNKNOWN', format: 'plain', message: s });
    }
    expect(parseLogLine('ERROR: disk full')).toMatchObject({ level: 'ERROR', message: 'disk full' });
    expect(parseLogLine('12 warn\tx')).toMatchObject({ level: 'WARN', message: 'x' });
  });

  it('the longest level word, "information", is a level; one letter more is not', () => {
    expect(parseLogLine('[information] started')).toMatchObject({ level: 'INFO', message: 'started' });
    expect(parseLogLine('0 Information started')).toMatchObject({ level: 'INFO', message: 'started' });
    expect(parseLogLine('[informations] started').level).toBe('UNKNOWN');
    expect(parseLogLine('0 informations started').level).toBe('UNKNOWN');
  });

  it('a pid before the level is digits only: a dot, dash or slash in it makes it message text', () => {
    for (const s of ['12.5 WARN low memory', '47-11 WARN low memory', '47/11 WARN low memory']) {
      expect(parseLogLine(s), s).toMatchObject({ level: 'UNKNOWN', format: 'plain' });
    }
    expect(parseLogLine('4711 WARN low memory')).toMatchObject({ level: 'WARN', message: 'low memory' });
  });
});
