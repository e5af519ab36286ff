import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DURATION_RANGE,
  durationClock,
  durationRefusal,
  INSTANT_RANGE,
  instantRefusal,
  MAX_DURATION_DAYS,
  MAX_DURATION_MS,
  MAX_INSTANT_MS,
  MIN_INSTANT_MS,
  unlessRefused,
} from './time-range';

describe('the range of an instant', () => {
  it('is RFC 3339 years 0000 to 9999, to the millisecond', () => {
    expect(new Date(MIN_INSTANT_MS).toISOString()).toBe('0000-01-01T00:00:00.000Z');
    expect(new Date(MAX_INSTANT_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });

  it('accepts both ends and refuses a millisecond past either, naming the parameter and the range', () => {
    expect(instantRefusal('since', MIN_INSTANT_MS)).toBeUndefined();
    expect(instantRefusal('since', MAX_INSTANT_MS)).toBeUndefined();
    expect(instantRefusal('since', MIN_INSTANT_MS - 1)).toBe(`since must be an instant ${INSTANT_RANGE}`);
    expect(instantRefusal('until', MAX_INSTANT_MS + 1)).toBe(`until must be an instant ${INSTANT_RANGE}`);
    expect(INSTANT_RANGE).toBe('from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z');
  });

  it('refuses what is no number at all', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(instantRefusal('since', bad)).toContain('since');
    }
  });
});

describe('the range of a duration', () => {
  it('is 0 to 100 years of days', () => {
    expect(MAX_DURATION_DAYS).toBe(36_500);
    expect(MAX_DURATION_MS).toBe(36_500 * 86_400_000);
    expect(DURATION_RANGE).toBe('at most 36500d (100 years)');
  });

  it('accepts 0 and the maximum, refuses a millisecond more, a negative and a number too long to count', () => {
    expect(durationRefusal('since', 0)).toBeUndefined();
    expect(durationRefusal('since', MAX_DURATION_MS)).toBeUndefined();
    for (const bad of [MAX_DURATION_MS + 1, -1, Number.POSITIVE_INFINITY, Number.NaN]) {
      expect(durationRefusal('until', bad)).toBe(`until must be a duration of ${DURATION_RANGE}`);
    }
  });
});

describe('the clock durations count back from', () => {
  it('is left alone anywhere a maximal duration still lands in the instant range', () => {
    const now = Date.UTC(2026, 0, 31);
    expect(durationClock(now)).toBe(now);
    expect(durationClock(MAX_INSTANT_MS)).toBe(MAX_INSTANT_MS);
    expect(durationClock(MIN_INSTANT_MS + MAX_DURATION_MS)).toBe(MIN_INSTANT_MS + MAX_DURATION_MS);
  });

  it('is moved in from either side, so that clock minus any accepted duration is an accepted instant', () => {
    expect(durationClock(MAX_INSTANT_MS + 1)).toBe(MAX_INSTANT_MS);
    expect(durationClock(8.64e15)).toBe(MAX_INSTANT_MS);
    expect(durationClock(MIN_INSTANT_MS + MAX_DURATION_MS - 1)).toBe(MIN_INSTANT_MS + MAX_DURATION_MS);
    const earliest = durationClock(-8.64e15) - MAX_DURATION_MS;
    expect(earliest).toBe(MIN_INSTANT_MS);
    expect(new Date(earliest).toISOString()).toBe('0000-01-01T00:00:00.000Z');
  });
});

describe('unlessRefused', () => {
  const schema = (refusal: string | undefined) =>
    z.string().transform((raw, ctx) => unlessRefused(ctx, refusal, raw.length));

  it('gives the value when nothing is refused', () => {
    expect(schema(undefined).parse('abc')).toBe(3);
  });

  it('makes the refusal the issue of the value', () => {
    const result = schema('since must be fine').safeParse('abc');
    expect(result.success).toBe(false);
    expect(result.error!.issues).toEqual([
      expect.objectContaining({ code: 'custom', message: 'since must be fine', path: [] }),
    ]);
  });
});
