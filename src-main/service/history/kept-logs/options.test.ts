import { describe, expect, it } from 'vitest';
import { DEFAULT_KEPT_LOGS, isFailedRun, keeps, resolveKeptLogsOptions } from './options';

describe('which runs a mode keeps', () => {
  it('failed: a non-zero exit, or a failure reason when the exit code is unknown', () => {
    expect(isFailedRun(1, 'Error')).toBe(true);
    expect(isFailedRun(137, 'OOMKilled')).toBe(true);
    expect(isFailedRun(0, 'Completed')).toBe(false);
    // The exit code decides when there is one, whatever the reason says.
    expect(isFailedRun(0, 'Error')).toBe(false);
    expect(isFailedRun(2, 'Completed')).toBe(true);
    expect(isFailedRun(null, 'OOMKilled')).toBe(true);
    expect(isFailedRun(null, 'Error')).toBe(true);
    expect(isFailedRun(null, 'Completed')).toBe(false);
    expect(isFailedRun(null, 'Deleted')).toBe(false);
    expect(isFailedRun(null, '')).toBe(false);
  });

  it('all keeps everything, off nothing, failed the failures', () => {
    expect(keeps('all', 0, 'Completed')).toBe(true);
    expect(keeps('all', null, 'Deleted')).toBe(true);
    expect(keeps('off', 1, 'Error')).toBe(false);
    expect(keeps('failed', 1, 'Error')).toBe(true);
    expect(keeps('failed', 0, 'Completed')).toBe(false);
    expect(keeps('failed', null, 'Deleted')).toBe(false);
  });
});

describe('resolveKeptLogsOptions', () => {
  it('defaults: failed runs, 500 lines, 1 GiB per cluster', () => {
    expect(resolveKeptLogsOptions()).toEqual({ mode: 'failed', lines: 500, maxBytes: 1024 ** 3 });
    expect(DEFAULT_KEPT_LOGS).toEqual({ mode: 'failed', lines: 500, maxBytes: 1024 ** 3 });
    expect(resolveKeptLogsOptions({ mode: 'all', lines: 1, maxBytes: 1024 * 1024 })).toEqual({
      mode: 'all',
      lines: 1,
      maxBytes: 1024 * 1024,
    });
    expect(resolveKeptLogsOptions({ lines: 100_000 }).lines).toBe(100_000);
  });

  it.each([
    [{ mode: 'some' }, 'kept logs mode must be failed, all or off'],
    [{ lines: 0 }, 'kept log lines must be a whole number from 1 to 100000'],
    [{ lines: 100_001 }, 'kept log lines must be a whole number from 1 to 100000'],
    [{ lines: 2.5 }, 'kept log lines must be a whole number from 1 to 100000'],
    [{ maxBytes: 1024 * 1024 - 1 }, 'kept logs max bytes must be at least 1048576 (1MiB)'],
    [{ maxBytes: 2 ** 60 }, 'kept logs max bytes must be at least 1048576 (1MiB)'],
  ])('refuse %j', (partial, message) => {
    expect(() => resolveKeptLogsOptions(partial as never)).toThrow(new RangeError(message));
  });
});
