import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from './args';

describe('serve: activity log retention flags', () => {
  it('defaults to 90 days and 100,000 entries', () => {
    const o = parseServeArgs([], { dataDir: '/d' });
    expect([o.activityRetentionDays, o.activityMaxEntries]).toEqual([90, 100_000]);
  });

  it('reads --activity-retention and --activity-max-entries', () => {
    const o = parseServeArgs(['--activity-retention', '30', '--activity-max-entries', '5000'], {
      dataDir: '/d',
    });
    expect([o.activityRetentionDays, o.activityMaxEntries]).toEqual([30, 5000]);
  });

  it('refuses values out of range with the usage line', () => {
    for (const args of [
      ['--activity-retention', '0'],
      ['--activity-retention', '3651'],
      ['--activity-retention', '1.5'],
      ['--activity-max-entries', '999'],
      ['--activity-max-entries', 'lots'],
    ]) {
      expect(() => parseServeArgs(args, { dataDir: '/d' }), args.join(' ')).toThrow(UsageError);
    }
    expect(() => parseServeArgs(['--activity-retention', '0'], { dataDir: '/d' })).toThrow(/from 1 to 3650/);
  });
});
