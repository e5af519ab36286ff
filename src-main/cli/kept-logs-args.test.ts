import { describe, expect, it } from 'vitest';
import { keptLogsArgs } from './kept-logs-args';

describe('--kept-logs, --kept-log-lines, --kept-logs-max-bytes', () => {
  it('leave every option to its default when nothing is given (an empty variable is unset)', () => {
    expect(keptLogsArgs({}, {})).toEqual({});
    expect(keptLogsArgs({}, { keptLogs: '', keptLogLines: '', keptLogsMaxBytes: '' })).toEqual({});
  });

  it('read each flag, sizes in bytes or binary units', () => {
    expect(
      keptLogsArgs({ 'kept-logs': 'all', 'kept-log-lines': '1000', 'kept-logs-max-bytes': '2GiB' }, {}),
    ).toEqual({ mode: 'all', lines: 1000, maxBytes: 2 * 1024 ** 3 });
    expect(keptLogsArgs({ 'kept-logs-max-bytes': '1048576' }, {})).toEqual({ maxBytes: 1048576 });
    expect(keptLogsArgs({ 'kept-logs-max-bytes': '3 MiB' }, {})).toEqual({ maxBytes: 3 * 1024 ** 2 });
    expect(keptLogsArgs({ 'kept-logs-max-bytes': '1TiB' }, {})).toEqual({ maxBytes: 1024 ** 4 });
    expect(keptLogsArgs({ 'kept-logs-max-bytes': '2048KiB' }, {})).toEqual({ maxBytes: 2048 * 1024 });
    expect(keptLogsArgs({ 'kept-logs-max-bytes': '1048576B' }, {})).toEqual({ maxBytes: 1048576 });
    expect(keptLogsArgs({ 'kept-logs': 'off' }, {})).toEqual({ mode: 'off' });
    expect(keptLogsArgs({ 'kept-logs-max-bytes': ' 2MiB ' }, {})).toEqual({ maxBytes: 2 * 1024 ** 2 });
    expect(keptLogsArgs({ 'kept-logs': 'failed', 'kept-log-lines': '1' }, {})).toEqual({
      mode: 'failed',
      lines: 1,
    });
    expect(keptLogsArgs({ 'kept-log-lines': '100000' }, {})).toEqual({ lines: 100000 });
  });

  it('take the variables when the flags are absent, and the flags over them', () => {
    const env = { keptLogs: 'all', keptLogLines: '42', keptLogsMaxBytes: '64MiB' };
    expect(keptLogsArgs({}, env)).toEqual({ mode: 'all', lines: 42, maxBytes: 64 * 1024 ** 2 });
    expect(
      keptLogsArgs({ 'kept-logs': 'off', 'kept-log-lines': '7', 'kept-logs-max-bytes': '2MiB' }, env),
    ).toEqual({ mode: 'off', lines: 7, maxBytes: 2 * 1024 ** 2 });
  });

  it.each([
    [{ 'kept-logs': 'some' }, {}, '--kept-logs must be failed, all or off (got "some")'],
    [{}, { keptLogs: 'FAILED' }, 'SKIFF_KEPT_LOGS must be failed, all or off (got "FAILED")'],
    [{ 'kept-log-lines': '0' }, {}, '--kept-log-lines must be a whole number from 1 to 100000'],
    [{ 'kept-log-lines': '100001' }, {}, '--kept-log-lines must be a whole number from 1 to 100000'],
    [{ 'kept-log-lines': '5.5' }, {}, '--kept-log-lines must be a whole number from 1 to 100000'],
    [{ 'kept-log-lines': '' }, {}, '--kept-log-lines must be a whole number from 1 to 100000'],
    [{}, { keptLogLines: '-3' }, 'SKIFF_KEPT_LOG_LINES must be a whole number from 1 to 100000'],
    [{ 'kept-logs-max-bytes': '1KiB' }, {}, '--kept-logs-max-bytes must be a size of at least 1MiB'],
    [{ 'kept-logs-max-bytes': '1048575' }, {}, '--kept-logs-max-bytes must be a size of at least 1MiB'],
    [{ 'kept-logs-max-bytes': '1GB' }, {}, '--kept-logs-max-bytes must be a size of at least 1MiB'],
    [{ 'kept-logs-max-bytes': 'x1GiB' }, {}, '--kept-logs-max-bytes must be a size of at least 1MiB'],
    [{ 'kept-logs-max-bytes': '2097152 bytes' }, {}, '--kept-logs-max-bytes must be a size of at least 1MiB'],
    [{ 'kept-logs-max-bytes': '99999999999999999TiB' }, {}, '--kept-logs-max-bytes must be a size'],
    [{}, { keptLogsMaxBytes: 'lots' }, 'SKIFF_KEPT_LOGS_MAX_BYTES must be a size of at least 1MiB'],
  ])('refuse %j %j naming the flag or variable', (values, env, message) => {
    expect(() => keptLogsArgs(values, env)).toThrow(message);
  });
});

describe('serve reads them', () => {
  it('into ServeOptions.keptLogs, from the flags or the variables, and refuses a bad one with the usage', async () => {
    const { parseServeArgs, UsageError } = await import('./args');
    const dataDir = '/tmp/skiff-args-test';
    expect(parseServeArgs([], { dataDir }).keptLogs).toEqual({});
    expect(
      parseServeArgs(['--kept-logs', 'all', '--kept-log-lines', '20', '--kept-logs-max-bytes', '8MiB'], {
        dataDir,
      }).keptLogs,
    ).toEqual({ mode: 'all', lines: 20, maxBytes: 8 * 1024 ** 2 });
    expect(parseServeArgs([], { dataDir, keptLogs: { keptLogs: 'off' } }).keptLogs).toEqual({ mode: 'off' });
    const refused = () => parseServeArgs(['--kept-logs', 'never'], { dataDir });
    expect(refused).toThrow(UsageError);
    expect(refused).toThrow(
      /--kept-logs must be failed, all or off[\s\S]*usage: npm run serve[\s\S]*--kept-log-lines 500/,
    );
  });
});
