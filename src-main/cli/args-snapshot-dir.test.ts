import { describe, expect, it } from 'vitest';
import { parseServeArgs, USAGE, UsageError } from './args';

/** serve --snapshot-dir: the folder capture jobs keep their files in, shared by replicas. */

describe('serve: --snapshot-dir', () => {
  it('is absent unless given (the service then uses the data dir’s snapshots/), and taken as given', () => {
    expect(parseServeArgs([], { dataDir: '/d' }).snapshotDir).toBeUndefined();
    expect(parseServeArgs(['--snapshot-dir', '/shared/snapshots'], { dataDir: '/d' }).snapshotDir).toBe(
      '/shared/snapshots',
    );
    expect(USAGE).toContain('[--snapshot-dir DIR]');
  });

  it('refuses an empty folder name with a usage error', () => {
    expect(() => parseServeArgs(['--snapshot-dir', ''], { dataDir: '/d' })).toThrow(UsageError);
    expect(() => parseServeArgs(['--snapshot-dir='], { dataDir: '/d' })).toThrow(
      /^--snapshot-dir needs the folder capture files are kept in\n/,
    );
  });
});
