import { describe, expect, it } from 'vitest';
import { type BackoffRule, FailureBackoff, failureSource } from './login-backoff';

/** The per-source backoff called directly: when a source waits, for how long, and what it forgets. */

const RULE: BackoffRule = { free: 3, baseMs: 1_000, maxMs: 10_000, forgetMs: 60_000 };
const START = 1_000_000;

function backoff() {
  const clock = { t: START };
  return { clock, b: new FailureBackoff(() => clock.t) };
}

/** Fails `key` n times at the current time. */
function fail(b: FailureBackoff, key: string, n: number, rule = RULE) {
  for (let i = 0; i < n; i++) b.failed(key, rule);
}

describe('the wait', () => {
  it('is none for a key that never failed, nor for its free failures', () => {
    const { b } = backoff();
    expect(b.wait('k', RULE)).toBe(0);
    for (let i = 0; i < RULE.free - 1; i++) {
      b.failed('k', RULE);
      expect(b.wait('k', RULE), `after ${i + 1}`).toBe(0);
    }
  });

  it('starts at the base after the last free failure and doubles with each failure up to the ceiling', () => {
    const { b } = backoff();
    fail(b, 'k', RULE.free);
    const waits = [b.wait('k', RULE)];
    for (let i = 0; i < 5; i++) {
      b.failed('k', RULE);
      waits.push(b.wait('k', RULE));
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  });

  it('counts down from the last failure, to exactly zero when it has run out', () => {
    const { clock, b } = backoff();
    fail(b, 'k', RULE.free + 1);
    clock.t += 1_500;
    expect(b.wait('k', RULE)).toBe(500);
    clock.t += 500;
    expect(b.wait('k', RULE)).toBe(0);
    clock.t += 5_000;
    expect(b.wait('k', RULE)).toBe(0);
    // The next failure is the third past the free ones: four times the base, from now.
    b.failed('k', RULE);
    expect(b.wait('k', RULE)).toBe(4_000);
  });

  it('with fewer free failures given, waits sooner; never before a first failure', () => {
    const { b } = backoff();
    expect(b.wait('k', RULE, 1)).toBe(0);
    expect(b.wait('k', RULE, 0)).toBe(0);
    b.failed('k', RULE);
    expect(b.wait('k', RULE)).toBe(0);
    expect(b.wait('k', RULE, 1)).toBe(1_000);
    expect(b.wait('k', RULE, 0)).toBe(1_000);
    b.failed('k', RULE);
    expect(b.wait('k', RULE, 1)).toBe(2_000);
    expect(b.wait('k', RULE, 2)).toBe(1_000);
  });

  it('keeps the ceiling however many failures come', () => {
    const { b } = backoff();
    fail(b, 'k', 200);
    expect(b.wait('k', RULE)).toBe(10_000);
    expect(b.held().get('k')).toBe(64);
  });
});

describe('what is forgotten', () => {
  it('a reset forgets one key only', () => {
    const { b } = backoff();
    fail(b, 'a', RULE.free);
    fail(b, 'b', RULE.free);
    b.reset('a');
    expect(b.wait('a', RULE)).toBe(0);
    expect(b.wait('b', RULE)).toBe(1_000);
    // Forgotten means counted from nothing again: the free failures are back.
    fail(b, 'a', RULE.free - 1);
    expect(b.wait('a', RULE)).toBe(0);
  });

  it('a key whose last failure is forgetMs old starts again, one a moment younger does not', () => {
    const { clock, b } = backoff();
    fail(b, 'k', RULE.free);
    clock.t += RULE.forgetMs - 1;
    b.failed('k', RULE);
    expect(b.held().get('k')).toBe(RULE.free + 1);
    clock.t += RULE.forgetMs - 1;
    expect(b.held().get('k')).toBe(RULE.free + 1);
    clock.t += 1;
    expect(b.wait('k', RULE)).toBe(0);
    expect(b.held().has('k')).toBe(false);
    b.failed('k', RULE);
    expect(b.held().get('k')).toBe(1);
  });

  it('past 10,000 keys, a failure drops every key forgotten by then, and only those', () => {
    const { clock, b } = backoff();
    for (let i = 0; i < 9_999; i++) b.failed(`old-${i}`, RULE);
    clock.t += RULE.forgetMs - 1;
    b.failed('young', RULE);
    clock.t += 1;
    expect(b.held().size).toBe(10_000);
    b.failed('new', RULE);
    expect([...b.held().keys()].sort()).toEqual(['new', 'young']);
  });

  it('no sweep runs at 10,000 keys', () => {
    const { clock, b } = backoff();
    for (let i = 0; i < 9_999; i++) b.failed(`old-${i}`, RULE);
    clock.t += RULE.forgetMs;
    b.failed('last', RULE);
    expect(b.held().size).toBe(10_000);
  });
});

describe('failureSource', () => {
  it('is an IPv4 address as it is, and the in-process caller’s own name', () => {
    expect(failureSource('203.0.113.9')).toBe('203.0.113.9');
    expect(failureSource(undefined)).toBe('in-process');
  });

  it('is an IPv6 address’s /64, however it is written', () => {
    expect(failureSource('2001:db8:0:7::1')).toBe('2001:db8:0:7::/64');
    expect(failureSource('2001:db8:0:7:ffff:1:2:3')).toBe('2001:db8:0:7::/64');
    expect(failureSource('2001:0db8:0000:0007::9')).toBe('2001:db8:0:7::/64');
    expect(failureSource('2001:db8:0:8::1')).toBe('2001:db8:0:8::/64');
    expect(failureSource('::1')).toBe('0:0:0:0::/64');
  });
});
