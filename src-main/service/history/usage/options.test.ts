/** --usage-interval's values and the usage defaults (the issue's: 30 s, 7 days, 5-minute points after 24 h). */
import { describe, expect, it } from 'vitest';
import { parseUsageInterval, resolveUsageOptions } from './options';

describe('parseUsageInterval', () => {
  it('takes off, and durations from 1s to 1h', () => {
    expect(parseUsageInterval('off')).toBe(0);
    expect(parseUsageInterval(' off ')).toBe(0);
    expect(parseUsageInterval('1s')).toBe(1_000);
    expect(parseUsageInterval('30s')).toBe(30_000);
    expect(parseUsageInterval('60m')).toBe(3_600_000);
    expect(parseUsageInterval('1h')).toBe(3_600_000);
  });

  it('refuses what is shorter than 1s, longer than 1h, zero or no duration', () => {
    for (const bad of ['0s', '3601s', '61m', '2h', '1d', 'on', '', '30', '1.5s', '-1s'])
      expect(parseUsageInterval(bad)).toBeUndefined();
  });
});

describe('resolveUsageOptions', () => {
  it('fills in the defaults and keeps what is given', () => {
    expect(resolveUsageOptions()).toEqual({
      intervalMs: 30_000,
      retentionMs: 7 * 86_400_000,
      downsampleAfterMs: 86_400_000,
      downsampleStepMs: 300_000,
      maintainEveryMs: 60_000,
    });
    const given = {
      intervalMs: 0,
      retentionMs: 1,
      downsampleAfterMs: 2,
      downsampleStepMs: 3,
      maintainEveryMs: 4,
    };
    expect(resolveUsageOptions(given)).toEqual(given);
  });
});
