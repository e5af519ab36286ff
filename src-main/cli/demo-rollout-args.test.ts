import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from './args';

describe('serve: --demo-bad-rollout', () => {
  it('is off unless given; takes a duration', () => {
    expect(parseServeArgs(['--demo'], { dataDir: '/d' }).demoBadRolloutMs).toBeUndefined();
    expect(parseServeArgs(['--demo', '--demo-bad-rollout', '2m'], { dataDir: '/d' }).demoBadRolloutMs).toBe(
      120_000,
    );
    expect(parseServeArgs(['--demo-bad-rollout', '30s'], { dataDir: '/d' }).demoBadRolloutMs).toBe(30_000);
  });

  it('refuses what is no duration, naming the flag', () => {
    expect(() => parseServeArgs(['--demo-bad-rollout', 'soon'], { dataDir: '/d' })).toThrow(UsageError);
    expect(() => parseServeArgs(['--demo-bad-rollout', 'soon'], { dataDir: '/d' })).toThrow(
      '--demo-bad-rollout must be a duration such as 30s, 2m, 1h',
    );
  });
});
