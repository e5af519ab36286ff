/** The window a usage read answers: until defaults to the clock, since to an hour before until. */
import { describe, expect, it } from 'vitest';
import { usageRange } from './usage';

const CLOCK = Date.UTC(2026, 0, 10, 12, 0, 0);
const HOUR = 3_600_000;

describe('usageRange', () => {
  it('is the last hour up to the clock when nothing is given', () => {
    expect(usageRange({}, CLOCK)).toEqual({ sinceMs: CLOCK - HOUR, untilMs: CLOCK });
  });

  it('counts durations back from the clock and keeps instants', () => {
    expect(usageRange({ since: { durationMs: 6 * HOUR } }, CLOCK)).toEqual({
      sinceMs: CLOCK - 6 * HOUR,
      untilMs: CLOCK,
    });
    expect(usageRange({ since: { instant: 5 }, until: { instant: 9 } }, CLOCK)).toEqual({
      sinceMs: 5,
      untilMs: 9,
    });
    expect(usageRange({ until: { durationMs: 60_000 } }, CLOCK)).toEqual({
      sinceMs: CLOCK - 60_000 - HOUR,
      untilMs: CLOCK - 60_000,
    });
    expect(usageRange({ until: { instant: 7 * HOUR } }, CLOCK)).toEqual({
      sinceMs: 6 * HOUR,
      untilMs: 7 * HOUR,
    });
  });
});
