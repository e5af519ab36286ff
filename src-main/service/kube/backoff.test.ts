/**
 * The backoff's rules (backoff.ts): growth with jitter up to the cap, never zero, reset only by
 * proof of health.
 */
import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff';

const opts = { baseMs: 100, capMs: 1_600, stableAfterMs: 5_000 };

describe('Backoff', () => {
  it('doubles the ceiling after every failure, up to the cap', () => {
    const top = new Backoff(
      opts,
      () => 0,
      () => 1,
    );
    expect(Array.from({ length: 7 }, () => top.next())).toEqual([100, 200, 400, 800, 1600, 1600, 1600]);
  });

  it('jitters each delay within the upper half of its ceiling', () => {
    const bottom = new Backoff(
      opts,
      () => 0,
      () => 0,
    );
    expect(Array.from({ length: 6 }, () => bottom.next())).toEqual([50, 100, 200, 400, 800, 800]);
  });

  it('does not reset after a connection that dropped before it was stable (a flapping cluster)', () => {
    let now = 0;
    const b = new Backoff(
      opts,
      () => now,
      () => 1,
    );
    b.next();
    b.next();
    b.connected();
    now += 3_000;
    expect(b.next()).toBe(400);
    expect(b.attempts).toBe(3);
  });

  it('starts over once a connection stayed up for the stable time', () => {
    let now = 0;
    const b = new Backoff(
      opts,
      () => now,
      () => 1,
    );
    b.next();
    b.next();
    b.next();
    b.connected();
    now += 5_000;
    expect(b.next()).toBe(100);
  });

  it('keeps backing off on a wall clock: failures with no connection between them, and a short-lived one', () => {
    // Date.now()-sized times: a clock starting at 0 hides arithmetic on a missing connection time.
    let now = Date.UTC(2026, 10, 24, 9);
    const b = new Backoff(
      opts,
      () => now,
      () => 1,
    );
    expect([b.next(), b.next(), b.next()]).toEqual([100, 200, 400]);
    b.connected();
    now += 3_000;
    expect(b.next()).toBe(800);
    b.connected();
    now += 5_000;
    expect(b.next()).toBe(100);
  });

  it('starts over after reset(), a success that proves the other side healthy', () => {
    const b = new Backoff(
      opts,
      () => 0,
      () => 1,
    );
    expect([b.next(), b.next(), b.next()]).toEqual([100, 200, 400]);
    b.reset();
    expect(b.attempts).toBe(0);
    expect(b.next()).toBe(100);
  });
});
