import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { RateLimiter } from './rate-limit';

/** The rate limiter's sliding window, called directly: when a hit stops counting, and what a refusal says. */

const START = 1_000_000;

function limiter() {
  const clock = { t: START };
  return { clock, rl: new RateLimiter(() => clock.t) };
}

/** The problem enforce refuses with, or undefined when it lets the hit through. */
function refusal(rl: RateLimiter, key: string, rule: { limit: number; windowMs: number }) {
  try {
    rl.enforce(key, rule, 'attempts');
    return undefined;
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
}

describe('the sliding window', () => {
  it('a hit counts for exactly its window: up to its last millisecond, not at the window’s length', () => {
    const { clock, rl } = limiter();
    const rule = { limit: 1, windowMs: 10_000 };
    rl.hit('k', rule);
    clock.t += 9_999;
    expect(rl.wait('k', rule)).toBe(1);
    clock.t += 1;
    expect(rl.wait('k', rule)).toBe(0);
  });

  it('below the limit nothing waits; at it, the wait is until the oldest counted hit leaves the window', () => {
    const { clock, rl } = limiter();
    const rule = { limit: 3, windowMs: 10_000 };
    for (const step of [0, 1_000, 2_000]) {
      clock.t += step;
      expect(rl.wait('k', rule)).toBe(0);
      rl.hit('k', rule);
    }
    // Hits at +0, +1 s, +3 s; now +3 s: the first leaves at +10 s.
    expect(rl.wait('k', rule)).toBe(7_000);
    // More hits than the limit: only the last `limit` of them matter (+1 s, +3 s, +4 s).
    clock.t += 1_000;
    rl.hit('k', rule);
    expect(rl.wait('k', rule)).toBe(7_000);
    clock.t += 7_000;
    expect(rl.wait('k', rule)).toBe(0);
  });

  it('keys and their rules are independent, and a reset forgets one key only', () => {
    const { rl } = limiter();
    const one = { limit: 1, windowMs: 5_000 };
    rl.hit('a', one);
    rl.hit('b', one);
    expect(rl.wait('a', one)).toBe(5_000);
    expect(rl.wait('c', one)).toBe(0);
    rl.reset('a');
    expect(rl.wait('a', one)).toBe(0);
    expect(rl.wait('b', one)).toBe(5_000);
  });

  it('many keys at once do not make a key forget hits still inside its window', () => {
    const { clock, rl } = limiter();
    const rule = { limit: 2, windowMs: 60_000 };
    rl.hit('kept', rule);
    rl.hit('kept', rule);
    clock.t += 30_000;
    const brief = { limit: 1, windowMs: 1_000 };
    for (let i = 0; i < 10_050; i++) rl.hit(`other-${i}`, brief);
    expect(rl.wait('kept', rule)).toBe(30_000);
    expect(rl.wait('other-10049', brief)).toBe(1_000);
    clock.t += 1_000;
    rl.hit('late', brief);
    expect(rl.wait('kept', rule)).toBe(29_000);
    expect(rl.wait('other-0', brief)).toBe(0);
  });
});

describe('a refusal', () => {
  it('lets hits through while the key is under its limit', () => {
    const { rl } = limiter();
    const rule = { limit: 2, windowMs: 60_000 };
    expect(refusal(rl, 'k', rule)).toBeUndefined();
    rl.hit('k', rule);
    expect(refusal(rl, 'k', rule)).toBeUndefined();
    rl.hit('k', rule);
    expect(refusal(rl, 'k', rule)?.code).toBe('rate_limited');
  });

  it('is 429 with the wait rounded up to whole seconds, in Retry-After and the problem', () => {
    const { clock, rl } = limiter();
    const rule = { limit: 1, windowMs: 10_000 };
    rl.hit('k', rule);
    for (const [elapsed, seconds] of [
      [0, 10],
      [8_800, 2],
      [9_000, 1],
      [9_999, 1],
    ] as const) {
      clock.t = START + elapsed;
      const p = refusal(rl, 'k', rule);
      expect(p?.status, `after ${elapsed} ms`).toBe(429);
      expect(p?.headers).toEqual({ 'Retry-After': String(seconds) });
      expect(p?.extensions).toEqual({ retryAfterSeconds: seconds });
      expect(p?.message).toContain(`${seconds} s`);
      expect(p?.message).toContain('attempts');
    }
  });
});
