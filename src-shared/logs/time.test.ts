import { describe, expect, it } from 'vitest';
import { compareTsText, epochToMs, scanDateTime, scanned, timeValueToMs } from './time';

/** Scans `s` from 0 and returns a copy of the result, with the end index. */
function scan(s: string, start = 0, bracket = false) {
  const end = scanDateTime(s, start, bracket);
  return { end, ...scanned };
}

describe('timestamp formats', () => {
  it('a dash date with T, t or space before the time and a zone is read as an instant', () => {
    const want = Date.UTC(2026, 10, 22, 10, 11, 12);
    for (const sep of ['T', 't', ' ']) {
      const r = scan(`2026-11-22${sep}10:11:12Z rest`);
      expect(r).toMatchObject({ end: 20, ms: want, hasDate: true, hasTime: true, hasZone: true });
    }
    // Any other separator leaves the time unread: a date alone has no instant.
    const other = scan('2026-11-22_10:11:12Z');
    expect(other).toMatchObject({ end: 10, hasDate: true, hasTime: false });
    expect(other.ms).toBeNaN();
  });

  it('a slash date is recognised but never turned into an instant', () => {
    const r = scan('2026/11/22 10:11:12Z');
    expect(r).toMatchObject({ end: 20, hasDate: true, hasTime: true, hasZone: true });
    expect(r.ms).toBeNaN();
    // Mixed separators are no date at all.
    expect(scan('2026-11/22 x').end).toBe(0);
    expect(scan('2026/11-22 x').end).toBe(0);
  });

  it('a date needs four year digits and two-digit month and day', () => {
    for (const s of [
      '202-11-22T10:11:12Z',
      '20x6-11-22T10:11:12Z',
      '2026-1-22T10:11:12Z',
      '2026-11-2xT10:11:12Z',
    ]) {
      const r = scan(s);
      expect(r.hasDate, s).toBe(false);
      expect(r.ms, s).toBeNaN();
    }
    expect(scan('2026-1x-22 y')).toMatchObject({ end: 0, hasDate: false });
  });

  it('a bare time of day is recognised without a date and gives no instant', () => {
    const r = scan('10:11:12.5 msg');
    expect(r).toMatchObject({ end: 10, hasDate: false, hasTime: true });
    expect(r.ms).toBeNaN();
    for (const s of ['1:11:12', '10-11:12', '10:1x:12', '10:11-12', '10:11:1x', 'x0:11:12']) {
      expect(scan(s), s).toMatchObject({ end: 0, hasTime: false, hasDate: false });
    }
  });

  it('scanning starts at the given index', () => {
    expect(scan('ab 2026-11-22T10:11:12Z', 3).end).toBe(23);
    expect(scanned.ms).toBe(Date.UTC(2026, 10, 22, 10, 11, 12));
  });

  it('text that is no date or time resets every field of the previous scan', () => {
    scan('2026-11-22T10:11:12.123456Z');
    const r = scan('hello');
    expect(r).toEqual({
      end: 0,
      ms: Number.NaN,
      subMsNanos: 0,
      hasDate: false,
      hasTime: false,
      hasZone: false,
    });
  });

  it('one surrounding bracket is consumed only when allowed and closed', () => {
    expect(scan('[2026-11-22 10:11:12Z] x', 0, true)).toMatchObject({
      end: 22,
      ms: Date.UTC(2026, 10, 22, 10, 11, 12),
    });
    expect(scan('[10:11:12] x', 0, true)).toMatchObject({ end: 10, hasTime: true });
    // Not allowed: the bracket is not part of a timestamp.
    expect(scan('[2026-11-22 10:11:12Z]', 0, false).end).toBe(0);
    // Unclosed: nothing is read and nothing is kept.
    const open = scan('[2026-11-22 10:11:12Z x', 0, true);
    expect(open).toEqual({
      end: 0,
      ms: Number.NaN,
      subMsNanos: 0,
      hasDate: false,
      hasTime: false,
      hasZone: false,
    });
  });
});

describe('fractional seconds', () => {
  const base = Date.UTC(2026, 10, 22, 10, 11, 12);
  it('fractions of any length give milliseconds and the nanoseconds beyond', () => {
    const cases: Array<[string, number, number]> = [
      ['5', 500, 0],
      ['12', 120, 0],
      ['123', 123, 0],
      ['1234', 123, 400000],
      ['12345', 123, 450000],
      ['123456', 123, 456000],
      ['1234567', 123, 456700],
      ['123456789', 123, 456789],
      ['000000001', 0, 1],
      ['1234567891', 123, 456789],
    ];
    for (const [frac, ms, nanos] of cases) {
      const s = `2026-11-22T10:11:12.${frac}Z`;
      const r = scan(s);
      expect(r.end, s).toBe(s.length);
      expect(r.ms, s).toBe(base + ms);
      expect(r.subMsNanos, s).toBe(nanos);
    }
  });

  it('a comma also starts a fraction, but a dot or comma without a digit does not', () => {
    expect(scan('2026-11-22T10:11:12,25Z').ms).toBe(base + 250);
    const dot = scan('2026-11-22T10:11:12.Z');
    expect(dot).toMatchObject({ end: 19, hasZone: false });
    expect(scan('2026-11-22T10:11:12;5Z')).toMatchObject({ end: 19, hasZone: false });
  });
});

describe('time zones and offsets', () => {
  const utc = Date.UTC(2026, 10, 22, 10, 11, 12);
  it('Z or z marks UTC', () => {
    expect(scan('2026-11-22T10:11:12z').ms).toBe(utc);
    expect(scan('2026-11-22T10:11:12Z').ms).toBe(utc);
  });

  it('a numeric offset with or without a colon is subtracted, east positive and west negative', () => {
    expect(scan('2026-11-22T12:41:12+02:30')).toMatchObject({ end: 25, ms: utc, hasZone: true });
    expect(scan('2026-11-22T12:41:12+0230')).toMatchObject({ end: 24, ms: utc });
    expect(scan('2026-11-22T07:41:12-02:30')).toMatchObject({ end: 25, ms: utc });
    expect(scan('2026-11-22T07:41:12-0230')).toMatchObject({ end: 24, ms: utc });
  });

  it('an offset with missing or extra digits is no zone', () => {
    for (const s of [
      '2026-11-22T10:11:12+2',
      '2026-11-22T10:11:12+02:3',
      '2026-11-22T10:11:12+023',
      '2026-11-22T10:11:12+02:301',
      '2026-11-22T10:11:12+x2:30',
    ]) {
      const r = scan(s);
      expect(r, s).toMatchObject({ end: 19, hasZone: false });
      expect(r.ms, s).toBeNaN();
    }
  });

  it('a zone-less date-time is recognised but gives no instant', () => {
    const r = scan('2026-11-22T10:11:12.5 x');
    expect(r).toMatchObject({ end: 21, hasDate: true, hasTime: true, hasZone: false, subMsNanos: 0 });
    expect(r.ms).toBeNaN();
  });
});

describe('timestamp edge values', () => {
  it('month, day, hour, minute and second outside their range give no instant', () => {
    const good = ['2026-01-01T00:00:00Z', '2026-12-31T23:59:59Z', '2026-06-30T23:59:60Z'];
    for (const s of good)
      expect(scan(s).ms, s).toBe(Date.parse(s.replace(':60Z', ':59Z')) + (s.includes(':60') ? 1000 : 0));
    const bad = [
      '2026-00-10T10:00:00Z',
      '2026-13-10T10:00:00Z',
      '2026-05-00T10:00:00Z',
      '2026-05-32T10:00:00Z',
      '2026-05-10T24:00:00Z',
      '2026-05-10T10:60:00Z',
      '2026-05-10T10:00:61Z',
    ];
    for (const s of bad) {
      const r = scan(s);
      expect(r.hasTime, s).toBe(true);
      expect(r.ms, s).toBeNaN();
    }
  });

  it('consecutive dates differing only in year, month or day each get their own day', () => {
    const seq = [
      '2026-03-04T00:00:00Z',
      '2027-03-04T00:00:00Z',
      '2027-04-04T00:00:00Z',
      '2027-04-05T00:00:00Z',
      '2027-04-05T01:00:00Z',
    ];
    for (const s of seq) expect(scan(s).ms, s).toBe(Date.parse(s));
  });
});

describe('epoch numbers', () => {
  it('the unit is guessed by magnitude: seconds, ms, µs, ns', () => {
    const ms = 1_764_000_000_123;
    expect(epochToMs(1_764_000_000.1234)).toBe(1_764_000_000_123);
    expect(epochToMs(ms)).toBe(ms);
    expect(epochToMs(ms * 1e3 + 999)).toBe(ms);
    expect(epochToMs(1.5e17 + 4096)).toBe(1.5e11);
    // Boundaries between the units.
    expect(epochToMs(1e11 - 1)).toBe((1e11 - 1) * 1000);
    expect(epochToMs(1e11)).toBe(1e11);
    expect(epochToMs(1e14 - 1)).toBe(1e14 - 1);
    expect(epochToMs(1e14)).toBe(1e11);
    expect(epochToMs(1e17 - 1000)).toBe(1e14 - 1);
    expect(epochToMs(1e17)).toBe(1e11);
  });

  it('zero, negative and non-finite numbers are no time', () => {
    for (const n of [0, -5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(epochToMs(n), String(n)).toBeUndefined();
  });
});

describe('structured time values', () => {
  it('a zoned ISO string, an epoch number or a numeric string is a time; anything else is not', () => {
    expect(timeValueToMs('2026-11-22T10:11:12.5+01:00')).toBe(Date.UTC(2026, 10, 22, 9, 11, 12, 500));
    expect(timeValueToMs(1_764_000_000)).toBe(1_764_000_000_000);
    expect(timeValueToMs('1764000000.5')).toBe(1_764_000_000_500);
    expect(timeValueToMs('1764000000123')).toBe(1_764_000_000_123);
    for (const v of [
      '',
      'yesterday',
      '2026-11-22T10:11:12',
      '2026-11-22T10:11:12Z junk',
      '1e999',
      '+1764000000',
      ' 1764000000',
      '.5',
      '12abc',
      null,
      true,
      {},
    ]) {
      expect(timeValueToMs(v), JSON.stringify(v)).toBeUndefined();
    }
  });
});

describe('ordering of RFC3339 texts', () => {
  it('orders by instant, then by the nanoseconds, whatever the zone and fraction length', () => {
    expect(compareTsText('2026-11-22T10:00:00.000000001Z', '2026-11-22T10:00:00.000000002Z')).toBe(-1);
    expect(compareTsText('2026-11-22T10:00:00.000000002Z', '2026-11-22T10:00:00.000000001Z')).toBe(1);
    expect(compareTsText('2026-11-22T10:00:00.5Z', '2026-11-22T10:00:00.500000000Z')).toBe(0);
    expect(compareTsText('2026-11-22T12:00:00.9+02:00', '2026-11-22T10:00:01Z')).toBe(-1);
    expect(compareTsText('2026-11-22T10:00:01Z', '2026-11-22T12:00:00.9+02:00')).toBe(1);
  });

  it('text without an instant on either side compares as a string', () => {
    expect(compareTsText('b', 'a')).toBe(1);
    expect(compareTsText('a', 'b')).toBe(-1);
    expect(compareTsText('a', 'a')).toBe(0);
    // One side parseable is still a string comparison: "2" < "z" although z has no time.
    expect(compareTsText('2026-11-22T10:00:00Z', 'z')).toBe(-1);
    expect(compareTsText('z', '2026-11-22T10:00:00Z')).toBe(1);
    expect(compareTsText('2026-11-22T10:00:00', '2026-11-22T09:00:00Z')).toBe(1);
  });
});
