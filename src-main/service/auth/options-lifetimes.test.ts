import { describe, expect, it } from 'vitest';
import { resolveLifetimes } from './options';

/** How the configured token and session lifetimes become milliseconds, and which values are refused. */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The RangeError a configuration is refused with (any other outcome fails the test). */
function refusal(o: Parameters<typeof resolveLifetimes>[0]): RangeError {
  try {
    resolveLifetimes(o);
  } catch (err) {
    if (err instanceof RangeError) return err;
    throw err;
  }
  throw new Error(`accepted ${JSON.stringify(o)}`);
}

describe('lifetimes', () => {
  it('default to 15 minutes, 14 days idle, 90 days in all and a 10 s overlap', () => {
    expect(resolveLifetimes({})).toEqual({
      accessTtlMs: 15 * MINUTE,
      refreshTtlMs: 14 * DAY,
      sessionMaxMs: 90 * DAY,
      overlapMs: 10_000,
    });
  });

  it('are converted from minutes, days and seconds as configured', () => {
    expect(
      resolveLifetimes({ accessTokenMinutes: 37, refreshTokenDays: 3, sessionMaxDays: 5, overlapSeconds: 7 }),
    ).toEqual({ accessTtlMs: 37 * MINUTE, refreshTtlMs: 3 * DAY, sessionMaxMs: 5 * DAY, overlapMs: 7_000 });
  });

  it('accept each range’s both ends', () => {
    const low = resolveLifetimes({
      accessTokenMinutes: 15,
      refreshTokenDays: 1,
      sessionMaxDays: 1,
      overlapSeconds: 0,
    });
    expect(low).toEqual({ accessTtlMs: 15 * MINUTE, refreshTtlMs: DAY, sessionMaxMs: DAY, overlapMs: 0 });
    const high = resolveLifetimes({
      accessTokenMinutes: 60,
      refreshTokenDays: 365,
      sessionMaxDays: 3650,
      overlapSeconds: 60,
    });
    expect(high).toEqual({
      accessTtlMs: 60 * MINUTE,
      refreshTtlMs: 365 * DAY,
      sessionMaxMs: 3650 * DAY,
      overlapMs: 60_000,
    });
  });

  it('refuse a value just outside its range, or no finite number, naming the range and the value', () => {
    const cases: [Parameters<typeof resolveLifetimes>[0], number, number, string][] = [
      [{ accessTokenMinutes: 14 }, 15, 60, '14'],
      [{ accessTokenMinutes: 61 }, 15, 60, '61'],
      [{ accessTokenMinutes: Number.NaN }, 15, 60, 'NaN'],
      [{ refreshTokenDays: 0 }, 1, 365, '0'],
      [{ refreshTokenDays: 366 }, 1, 365, '366'],
      [{ sessionMaxDays: 3651 }, 14, 3650, '3651'],
      [{ sessionMaxDays: Number.POSITIVE_INFINITY }, 14, 3650, 'Infinity'],
      [{ overlapSeconds: -1 }, 0, 60, '-1'],
      [{ overlapSeconds: 61 }, 0, 60, '61'],
    ];
    for (const [o, min, max, got] of cases) {
      const { message } = refusal(o);
      expect(message, JSON.stringify(o)).toContain(`${min} to ${max}`);
      expect(message, JSON.stringify(o)).toContain(`(got ${got})`);
    }
  });

  it('never let a session end before its refresh token would', () => {
    // The session's lifetime may equal the refresh token's, not be shorter.
    expect(resolveLifetimes({ refreshTokenDays: 30, sessionMaxDays: 30 }).sessionMaxMs).toBe(30 * DAY);
    expect(refusal({ refreshTokenDays: 30, sessionMaxDays: 29 }).message).toContain(
      'from 30 to 3650 (got 29)',
    );
    // Unset, the session lasts 90 days, or as long as a longer refresh token.
    expect(resolveLifetimes({ refreshTokenDays: 90 }).sessionMaxMs).toBe(90 * DAY);
    expect(resolveLifetimes({ refreshTokenDays: 120 }).sessionMaxMs).toBe(120 * DAY);
    expect(resolveLifetimes({ refreshTokenDays: 30 }).sessionMaxMs).toBe(90 * DAY);
  });
});
