import { describe, expect, it } from 'vitest';
import { justBefore, momentText } from './moment';

describe('momentText', () => {
  it('reads to the second, with the date only on another day (local time)', () => {
    const t = new Date(2026, 10, 28, 2, 7, 3);
    expect(momentText(t.toISOString(), new Date(2026, 10, 28, 23, 59, 59))).toBe('02:07:03');
    expect(momentText(t.toISOString(), new Date(2026, 10, 29, 0, 0, 1))).toBe('2026-11-28 02:07:03');
    expect(momentText(t.toISOString(), new Date(2026, 9, 28, 2, 7, 3))).toBe('2026-11-28 02:07:03');
    expect(momentText(t.toISOString(), new Date(2025, 10, 28, 2, 7, 3))).toBe('2026-11-28 02:07:03');
  });

  it('adds the milliseconds when asked, for moments within one second', () => {
    const t = new Date(2026, 10, 28, 2, 7, 3, 45);
    expect(momentText(t.toISOString(), new Date(2026, 10, 28, 9), true)).toBe('02:07:03.045');
    expect(momentText(t.toISOString(), new Date(2026, 10, 29, 9), true)).toBe('2026-11-28 02:07:03.045');
    expect(momentText(t.toISOString(), new Date(2026, 10, 28, 9))).toBe('02:07:03');
  });

  it('shows a value that is not a time as it came', () => {
    expect(momentText('soon')).toBe('soon');
  });
});

describe('justBefore', () => {
  it('is one millisecond earlier, in UTC', () => {
    expect(justBefore('2026-11-28T02:07:00.000Z')).toBe('2026-11-28T02:06:59.999Z');
    expect(justBefore('2026-11-28T03:07:00.124+01:00')).toBe('2026-11-28T02:07:00.123Z');
    expect(justBefore('not a time')).toBeUndefined();
  });
});
