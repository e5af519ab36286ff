import { describe, expect, it } from 'vitest';
import { compareTsText, scanDateTime, scanned, timeValueToMs } from './time';

/** Scans `s` from `start` and returns a copy of the result, with the end index. */
function scan(s: string, start = 0, bracket = false) {
  const end = scanDateTime(s, start, bracket);
  return { end, ...scanned };
}

/** Epoch ms of a UTC date-time, years 0..99 included (Date.UTC maps those to 1900..1999). */
function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi, s, 0);
  return t.getTime();
}

describe('date digits', () => {
  it('any four digits are a year, nines and zeros included', () => {
    expect(scan('1999-12-31T23:59:59Z').ms).toBe(utc(1999, 12, 31, 23, 59, 59));
    expect(scan('2000-01-01T00:00:00Z').ms).toBe(utc(2000, 1, 1));
    expect(scan('2099-09-09T09:09:09Z').ms).toBe(utc(2099, 9, 9, 9, 9, 9));
  });

  it("a year below 100 is that year, as in Go's zero time", () => {
    expect(scan('0001-01-01T00:00:00Z')).toMatchObject({ end: 20, hasDate: true, ms: utc(1, 1, 1) });
    expect(timeValueToMs('0099-12-31T23:59:59Z')).toBe(utc(99, 12, 31, 23, 59, 59));
  });

  it('a date with a non-digit in the year or a one-digit day is no date', () => {
    for (const s of ['x026-11-22T10:11:12Z', '2026-11-2 10:11:12Z']) {
      const r = scan(s);
      expect(r, s).toMatchObject({ end: 0, hasDate: false, hasTime: false });
      expect(r.ms, s).toBeNaN();
    }
  });

  it('an empty bracket is no timestamp', () => {
    expect(scan('[] x', 0, true)).toMatchObject({ end: 0, hasDate: false, hasTime: false });
  });
});

describe('zone offsets', () => {
  const at = Date.UTC(2026, 10, 22, 10, 11, 12);

  it('a zero offset is UTC', () => {
    expect(scan('2026-11-22T10:11:12+00:00')).toMatchObject({ end: 25, ms: at, hasZone: true });
    expect(scan('2026-11-22T10:41:12+00:30')).toMatchObject({ end: 25, ms: at, hasZone: true });
  });

  it('only a plus or minus sign starts a numeric offset', () => {
    for (const s of ['2026-11-22T10:11:12 02:30', '2026-11-22T10:11:12_0230']) {
      const r = scan(s);
      expect(r, s).toMatchObject({ end: 19, hasZone: false });
      expect(r.ms, s).toBeNaN();
    }
  });

  it('an offset followed by a further digit, zero included, is no zone', () => {
    for (const s of ['2026-11-22T12:41:12+02:300', '2026-11-22T12:41:12+02300']) {
      const r = scan(s);
      expect(r, s).toMatchObject({ end: 19, hasZone: false });
      expect(r.ms, s).toBeNaN();
    }
  });
});

describe('time text outside a log line', () => {
  it('a structured time value is never read inside brackets', () => {
    expect(timeValueToMs('2026-11-22T10:11:12Z')).toBe(Date.UTC(2026, 10, 22, 10, 11, 12));
    expect(timeValueToMs('[2026-11-22T10:11:12Z]')).toBeUndefined();
  });

  it('a numeric string with a leading zero is still an epoch number', () => {
    expect(timeValueToMs('01764000000')).toBe(1_764_000_000_000);
  });

  it('bracketed RFC3339 texts have no instant, so they compare as strings', () => {
    // As instants 09:00 < 10:00; as strings "[" sorts after "2".
    expect(compareTsText('[2026-11-22T09:00:00Z]', '2026-11-22T10:00:00Z')).toBe(1);
    expect(compareTsText('2026-11-22T10:00:00Z', '[2026-11-22T09:00:00Z]')).toBe(-1);
  });
});
