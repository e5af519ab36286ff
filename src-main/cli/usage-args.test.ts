/** serve --usage-interval / SKIFF_USAGE_INTERVAL: how often recorded clusters' usage is sampled (history/usage/). */
import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from './args';

const parse = (argv: string[], usageInterval?: string) =>
  parseServeArgs(argv, {
    dataDir: '/tmp/skiff-test',
    ...(usageInterval !== undefined ? { usageInterval } : {}),
  });

describe('--usage-interval', () => {
  it('is unset by default (the service samples every 30 s), and with an empty variable', () => {
    expect(parse([]).usage).toBeUndefined();
    expect(parse([], '').usage).toBeUndefined();
  });

  it('takes a duration from 1s to 1h, or off', () => {
    expect(parse(['--usage-interval', '1s']).usage).toEqual({ intervalMs: 1_000 });
    expect(parse(['--usage-interval', '5m']).usage).toEqual({ intervalMs: 300_000 });
    expect(parse(['--usage-interval', '1h']).usage).toEqual({ intervalMs: 3_600_000 });
    expect(parse(['--usage-interval', 'off']).usage).toEqual({ intervalMs: 0 });
  });

  it('is read from SKIFF_USAGE_INTERVAL when the flag is not given; the flag wins', () => {
    expect(parse([], '2m').usage).toEqual({ intervalMs: 120_000 });
    expect(parse(['--usage-interval', '10s'], 'off').usage).toEqual({ intervalMs: 10_000 });
  });

  it('refuses anything else, naming the flag and the accepted range', () => {
    for (const bad of ['0s', '500ms', '2h', '61m', 'fast', '', '30']) {
      expect(() => parse(['--usage-interval', bad])).toThrow(UsageError);
      expect(() => parse(['--usage-interval', bad])).toThrow(
        '--usage-interval must be off or a duration from 1s to 1h, such as 30s or 5m',
      );
    }
    expect(() => parse([], 'never')).toThrow('--usage-interval must be off');
  });
});
