import { describe, expect, it } from 'vitest';
import { parseCapturedLog, parseLogTimestamp } from './snapshot-content';

describe('captured log text', () => {
  it('keeps the nanoseconds below the millisecond of a CRI timestamp', () => {
    expect(parseLogTimestamp('2026-03-01T12:00:00.123456789Z')).toEqual({
      ts: Date.parse('2026-03-01T12:00:00.123Z'),
      nanos: 456789,
    });
    expect(parseLogTimestamp('2026-03-01T13:00:00+01:00')).toEqual({
      ts: Date.parse('2026-03-01T12:00:00Z'),
      nanos: 0,
    });
    expect(parseLogTimestamp('not-a-time')).toBeUndefined();
  });

  it('splits lines at the first space; a line without a timestamp keeps the one before it', () => {
    const lines = parseCapturedLog(
      '2026-03-01T12:00:01.5Z first line\ncontinued  here\n2026-03-01T12:00:02Z \n',
    );
    expect(lines.map((l) => l.text)).toEqual(['first line', 'continued  here', '']);
    expect(lines[1]!.ts).toBe(lines[0]!.ts);
    expect(lines[2]!.ts).toBe(Date.parse('2026-03-01T12:00:02Z'));
    expect(parseCapturedLog('')).toEqual([]);
  });
});
