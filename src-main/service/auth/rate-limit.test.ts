import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  it('slides its window and tells how long to wait', () => {
    let t = 0;
    const rl = new RateLimiter(() => t);
    const rule = { limit: 2, windowMs: 10_000 };
    rl.hit('k', rule);
    t = 4_000;
    rl.hit('k', rule);
    expect(rl.wait('k', rule)).toBe(6_000);
    expect(rl.wait('other', rule)).toBe(0);
    t = 10_001;
    expect(rl.wait('k', rule)).toBe(0);
    rl.hit('k', rule);
    expect(rl.wait('k', rule)).toBe(3_999);
    rl.reset('k');
    expect(rl.wait('k', rule)).toBe(0);
  });

  it('refuses with 429 and a whole-second Retry-After', () => {
    const rl = new RateLimiter(() => 0);
    const rule = { limit: 1, windowMs: 1_500 };
    rl.hit('k', rule);
    try {
      rl.enforce('k', rule, 'things');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ProblemError);
      expect((err as ProblemError).status).toBe(429);
      expect((err as ProblemError).headers).toEqual({ 'Retry-After': '2' });
    }
  });
});
