/**
 * ListPins (list-pins.ts): tokens per version, the least recently used dropped at max, idle views
 * dropped, 410 once gone.
 */
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { ListPins } from './list-pins';

function setup(max = 3, idleMs = 1_000) {
  let now = 0;
  const pins = new ListPins<{ version: number }>({ max, idleMs, now: () => now });
  return { pins, advance: (ms: number) => (now += ms) };
}

function expired(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof ProblemError ? err.code : String(err);
  }
  return undefined;
}

describe('ListPins', () => {
  it('gives one version one token, and resolves it to that view', () => {
    const { pins } = setup();
    const v7 = { version: 7 };
    const a = pins.pin(v7).token;
    expect(pins.pin(v7).token).toBe(a);
    expect(pins.pin({ version: 8 }).token).not.toBe(a);
    expect(pins.resolve(a).view).toBe(v7);
  });

  it('keeps the time a version was first pinned, for durations counted within a walk', () => {
    const { pins, advance } = setup();
    const first = pins.pin({ version: 1 });
    advance(500);
    expect(pins.pin({ version: 1 }).pinnedAt).toBe(first.pinnedAt);
    expect(pins.resolve(first.token).pinnedAt).toBe(first.pinnedAt);
  });

  it('forgets a snapshot unused for longer than the idle time: 410 snapshot_expired', () => {
    const { pins, advance } = setup(3, 1_000);
    const { token } = pins.pin({ version: 1 });
    advance(900);
    expect(pins.resolve(token).view.version).toBe(1);
    advance(900);
    expect(pins.resolve(token).view.version).toBe(1);
    advance(1_001);
    expect(expired(() => pins.resolve(token))).toBe('snapshot_expired');
  });

  it('keeps at most max views, dropping the least recently used', () => {
    const { pins } = setup(2);
    const t1 = pins.pin({ version: 1 }).token;
    const t2 = pins.pin({ version: 2 }).token;
    pins.resolve(t1);
    pins.pin({ version: 3 });
    expect(pins.size).toBe(2);
    expect(expired(() => pins.resolve(t2))).toBe('snapshot_expired');
    expect(pins.resolve(t1).view.version).toBe(1);
  });

  it('refuses a token of another collection or a made-up one as expired', () => {
    const a = setup().pins;
    const b = setup().pins;
    const token = a.pin({ version: 1 }).token;
    b.pin({ version: 1 });
    expect(expired(() => b.resolve(token))).toBe('snapshot_expired');
    expect(expired(() => a.resolve('nonsense'))).toBe('snapshot_expired');
    expect(expired(() => a.resolve(`${token.split('.')[0]}.zz`))).toBe('snapshot_expired');
  });

  it('keeps a view used exactly the idle time ago', () => {
    const { pins, advance } = setup(3, 1_000);
    const { token } = pins.pin({ version: 1 });
    advance(1_000);
    expect(pins.resolve(token).view.version).toBe(1);
  });

  it('pinning forgets idle views too, not only resolving', () => {
    const { pins, advance } = setup(3, 1_000);
    pins.pin({ version: 1 });
    pins.pin({ version: 2 });
    advance(1_001);
    pins.pin({ version: 3 });
    expect(pins.size).toBe(1);
  });

  it('pinning a version again makes it the most recently used', () => {
    const { pins } = setup(2);
    const t1 = pins.pin({ version: 1 }).token;
    const t2 = pins.pin({ version: 2 }).token;
    pins.pin({ version: 1 });
    pins.pin({ version: 3 });
    expect(expired(() => pins.resolve(t2))).toBe('snapshot_expired');
    expect(pins.resolve(t1).view.version).toBe(1);
  });

  it('refuses a version that is not plain base-36 text, even when part of it would parse', () => {
    const { pins } = setup();
    const epoch = pins.pin({ version: 1 }).token.split('.')[0];
    for (const version of ['1!', ' 1', '1 ', '000000000001'])
      expect(
        expired(() => pins.resolve(`${epoch}.${version}`)),
        version,
      ).toBe('snapshot_expired');
  });
});
