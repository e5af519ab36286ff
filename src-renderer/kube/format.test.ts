import { describe, expect, it } from 'vitest';
import { clockTime } from './format';

// Built from local fields so the expectations hold in any time zone the tests run in.
const at = (y: number, mo: number, d: number, h: number, mi: number) => new Date(y, mo - 1, d, h, mi, 37);

describe('clockTime', () => {
  it('shows only HH:MM, 24-hour and zero-padded, for a time earlier today', () => {
    const now = at(2026, 3, 12, 23, 59);
    expect(clockTime(at(2026, 3, 12, 14, 3).toISOString(), now)).toBe('14:03');
    expect(clockTime(at(2026, 3, 12, 0, 5).toISOString(), now)).toBe('00:05');
  });

  it('puts the local date in front when the time is not today', () => {
    const now = at(2026, 3, 13, 0, 10);
    expect(clockTime(at(2026, 3, 12, 23, 58).toISOString(), now)).toBe('2026-03-12 23:58');
    expect(clockTime(at(2025, 3, 13, 9, 7).toISOString(), now)).toBe('2025-03-13 09:07');
  });

  it('reads RFC 3339 offsets, not only Z', () => {
    const t = at(2026, 3, 12, 14, 3);
    const offset = -t.getTimezoneOffset();
    const sign = offset >= 0 ? '+' : '-';
    const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
    const mm = String(Math.abs(offset) % 60).padStart(2, '0');
    const local = `2026-03-12T14:03:37${sign}${hh}:${mm}`;
    expect(clockTime(local, at(2026, 3, 12, 18, 0))).toBe('14:03');
  });

  it('answers null for a value that is not a time', () => {
    expect(clockTime('not a time')).toBeNull();
  });
});
