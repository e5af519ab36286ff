/**
 * The event history's options: the defaults of what is not given, and the durations
 * `--event-retention` and `--demo-event-ttl` take (one whole number and one unit).
 */
import { describe, expect, it } from 'vitest';
import { parseDuration, resolveHistoryOptions } from './options';

describe('history options', () => {
  it('records viewed clusters, keeps 7 days and 1,000,000 events, flushes every 500 ms, prunes every minute and asks for a recorder lease every 5 s by default', () => {
    const defaults = {
      record: 'viewed',
      retentionMs: 604_800_000,
      maxPerCluster: 1_000_000,
      flushMs: 500,
      pruneEveryMs: 60_000,
      leaseRetryMs: 5_000,
    };
    expect(resolveHistoryOptions()).toEqual(defaults);
    expect(resolveHistoryOptions({})).toEqual(defaults);
  });

  it('keeps every option that is given over its default', () => {
    const given = {
      record: 'all',
      retentionMs: 3_600_000,
      maxPerCluster: 50,
      flushMs: 20,
      pruneEveryMs: 100,
      leaseRetryMs: 250,
    } as const;
    expect(resolveHistoryOptions(given)).toEqual(given);
    expect(resolveHistoryOptions({ record: 'off' }).record).toBe('off');
  });

  it('keeps a zero that is given instead of taking the default', () => {
    expect(resolveHistoryOptions({ flushMs: 0, pruneEveryMs: 0 })).toMatchObject({
      flushMs: 0,
      pruneEveryMs: 0,
    });
  });
});

describe('durations', () => {
  it('reads seconds, minutes, hours and days', () => {
    expect(parseDuration('15s')).toBe(15_000);
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('12h')).toBe(43_200_000);
    expect(parseDuration('7d')).toBe(604_800_000);
    expect(parseDuration('1s')).toBe(1_000);
  });

  it('ignores white space around the duration', () => {
    expect(parseDuration('  30m\n')).toBe(1_800_000);
  });

  it('refuses a duration of zero', () => {
    expect(parseDuration('0s')).toBeUndefined();
    expect(parseDuration('0d')).toBeUndefined();
  });

  it('refuses text that is not one whole number followed by one unit', () => {
    for (const text of [
      '',
      '7',
      'd',
      '7w',
      '7D',
      '1.5h',
      '-1h',
      '+1h',
      '7 d',
      '7d 12h',
      '7d12h',
      '7d 12h 30m 15s',
      'x7d',
      '7dx',
      '7ms',
    ])
      expect(parseDuration(text), JSON.stringify(text)).toBeUndefined();
  });

  it('refuses a duration too long to count in whole milliseconds', () => {
    expect(parseDuration('104249992d')).toBeUndefined();
    // The longest that still counts exactly is taken.
    expect(parseDuration('104249991d')).toBe(104_249_991 * 86_400_000);
  });
});
