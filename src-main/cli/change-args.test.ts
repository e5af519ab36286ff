import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from './args';
import { changeArgs } from './change-args';

describe('serve: --record-changes and --record-noisy-kinds', () => {
  it('defaults to nothing set (viewed, noisy kinds off, resolved by the service)', () => {
    expect(parseServeArgs([], { dataDir: '/d' }).changeHistory).toEqual({});
  });

  it('reads the flags, which win over the variables', () => {
    expect(
      parseServeArgs(['--record-changes', 'all', '--record-noisy-kinds'], {
        dataDir: '/d',
        recordChanges: 'off',
        recordNoisyKinds: 'false',
      }).changeHistory,
    ).toEqual({ record: 'all', recordNoisyKinds: true });
    expect(changeArgs({ 'record-changes': 'off' }, {})).toEqual({ record: 'off' });
  });

  it('reads $SKIFF_RECORD_CHANGES and $SKIFF_RECORD_NOISY_KINDS; empty is unset', () => {
    expect(changeArgs({}, { recordChanges: 'off', recordNoisyKinds: '1' })).toEqual({
      record: 'off',
      recordNoisyKinds: true,
    });
    expect(changeArgs({}, { recordChanges: 'viewed', recordNoisyKinds: 'true' })).toEqual({
      record: 'viewed',
      recordNoisyKinds: true,
    });
    expect(changeArgs({}, { recordNoisyKinds: '0' })).toEqual({ recordNoisyKinds: false });
    expect(changeArgs({}, { recordNoisyKinds: 'false' })).toEqual({ recordNoisyKinds: false });
    expect(changeArgs({}, { recordChanges: '', recordNoisyKinds: '' })).toEqual({});
    expect(changeArgs({})).toEqual({});
  });

  it('refuses other values, naming the flag or the variable and what is accepted', () => {
    expect(() => parseServeArgs(['--record-changes', 'some'], { dataDir: '/d' })).toThrow(UsageError);
    expect(() => parseServeArgs(['--record-changes', 'some'], { dataDir: '/d' })).toThrow(
      /--record-changes must be viewed, all or off \(got "some"\)/,
    );
    expect(() => changeArgs({}, { recordChanges: 'ALL' })).toThrow(
      /SKIFF_RECORD_CHANGES must be viewed, all or off/,
    );
    expect(() => changeArgs({}, { recordNoisyKinds: 'yes' })).toThrow(
      /SKIFF_RECORD_NOISY_KINDS must be 1, true, 0 or false \(got "yes"\)/,
    );
  });
});
