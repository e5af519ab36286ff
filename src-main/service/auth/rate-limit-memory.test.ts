import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit';

/**
 * The rate limiter's memory stays bounded: it is in memory, fed by every client address and
 * username that tries, so what it holds per key and in all is a rule of its own. Nothing of this
 * shows in wait() (a stamp that left its window counts for nothing either way), so these tests
 * read what the limiter says it holds.
 */

/** The number of keys every sweep is held off until (rate-limit.ts). */
const SWEEP_AT = 10_000;

function limiter() {
  const clock = { t: 5_000_000 };
  const rl = new RateLimiter(() => clock.t);
  return { clock, rl, held: () => rl.held() };
}

describe('what the rate limiter holds', () => {
  it('a key holds no more stamps than its limit, however often it is hit', () => {
    const { clock, rl, held } = limiter();
    const rule = { limit: 3, windowMs: 60_000 };
    for (let i = 0; i < 7; i++) {
      clock.t += 10;
      rl.hit('k', rule);
    }
    expect(held().get('k')).toEqual([5_000_050, 5_000_060, 5_000_070]);
  });

  it(`past ${SWEEP_AT} keys, a hit drops every key whose stamps all left their window, and only those`, () => {
    const { clock, rl, held } = limiter();
    const brief = { limit: 2, windowMs: 1_000 };
    const long = { limit: 2, windowMs: 60_000 };
    const t0 = clock.t;
    rl.hit('mixed', long);
    clock.t = t0 + 59_000;
    for (let i = 0; i < SWEEP_AT - 4; i++) rl.hit(`old-${i}`, brief);
    clock.t = t0 + 59_500;
    rl.hit('mixed', long);
    rl.hit('edge', brief);
    clock.t = t0 + 60_000;
    rl.hit('live', long);
    expect(held().size).toBe(SWEEP_AT - 1);
    clock.t = t0 + 60_500;
    // The sweep would now drop the old keys (left their window), edge (its stamp exactly one window
    // old: no longer counted) and no other: mixed still has a stamp in its window.
    // The map reaches the limit, not past it: nothing is swept yet.
    rl.hit('at-limit', long);
    expect(held().size).toBe(SWEEP_AT);
    expect(held().has('old-0')).toBe(true);
    rl.hit('past-limit', long);
    expect([...held().keys()].sort()).toEqual(['at-limit', 'live', 'mixed', 'past-limit']);
    expect(rl.wait('mixed', long)).toBe(0);
    rl.hit('mixed', long);
    expect(rl.wait('mixed', long)).toBe(59_000);
  });
});
