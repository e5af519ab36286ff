/**
 * The decision cache on its own clock: kept for the TTL and not a millisecond longer, one review
 * for identical concurrent questions, failures never kept, the least recently used pushed out.
 */
import { describe, expect, it } from 'vitest';
import { DECISION_MAX_ENTRIES, DECISION_TTL_MS, DecisionCache } from './decisions';

function setup(maxEntries = 10, ttlMs = 1000) {
  let clock = 0;
  const cache = new DecisionCache({ ttlMs, maxEntries, now: () => clock });
  const asked: string[] = [];
  const ask = (key: string, allowed = true) =>
    cache.decide(key, async () => {
      asked.push(key);
      return allowed;
    });
  return { cache, asked, ask, tick: (ms: number) => (clock += ms) };
}

describe('DecisionCache', () => {
  it('keeps 30 s and 50,000 decisions by default', () => {
    expect(DECISION_TTL_MS).toBe(30_000);
    expect(DECISION_MAX_ENTRIES).toBe(50_000);
  });

  it('answers a kept decision without asking again until its TTL has passed', async () => {
    const { ask, asked, tick } = setup();
    expect(await ask('a', false)).toBe(false);
    tick(999);
    expect(await ask('a', true)).toBe(false);
    expect(asked).toEqual(['a']);
    tick(1);
    expect(await ask('a', true)).toBe(true);
    expect(asked).toEqual(['a', 'a']);
  });

  it('times the TTL from when the answer arrived', async () => {
    let clock = 0;
    const cache = new DecisionCache({ ttlMs: 100, maxEntries: 10, now: () => clock });
    let calls = 0;
    await cache.decide('k', async () => {
      calls++;
      clock = 50;
      return true;
    });
    clock = 149;
    await cache.decide('k', async () => ++calls > 0);
    expect(calls).toBe(1);
    clock = 150;
    await cache.decide('k', async () => ++calls > 0);
    expect(calls).toBe(2);
  });

  it('shares one review among identical concurrent questions, not among different ones', async () => {
    const { cache } = setup();
    let release: (v: boolean) => void = () => {};
    let reviews = 0;
    const review = () => {
      reviews++;
      return new Promise<boolean>((r) => {
        release = r;
      });
    };
    const a = cache.decide('k', review);
    const b = cache.decide('k', review);
    expect(reviews).toBe(1);
    release(true);
    expect(await Promise.all([a, b])).toEqual([true, true]);
    await cache.decide('other', async () => {
      reviews++;
      return false;
    });
    expect(reviews).toBe(2);
  });

  it('fails every waiter of a failed review and keeps nothing, so the next question asks again', async () => {
    const { cache, ask, asked } = setup();
    const boom = () => Promise.reject(new Error('down'));
    const [a, b] = [cache.decide('k', boom), cache.decide('k', boom)];
    await expect(a).rejects.toThrow('down');
    await expect(b).rejects.toThrow('down');
    expect(cache.size).toBe(0);
    expect(await ask('k', true)).toBe(true);
    expect(asked).toEqual(['k']);
  });

  it('pushes out the least recently used decision past the bound', async () => {
    const { cache, ask, asked } = setup(2);
    await ask('a');
    await ask('b');
    await ask('a'); // a is now the most recently used
    await ask('c'); // pushes out b
    expect(cache.size).toBe(2);
    asked.length = 0;
    await ask('a');
    await ask('c');
    expect(asked).toEqual([]);
    await ask('b');
    expect(asked).toEqual(['b']);
  });

  it('drops an expired decision when it is asked for', async () => {
    const { cache, ask, tick } = setup(10, 10);
    await ask('a');
    tick(10);
    let settled = false;
    const pending = cache.decide('a', () => new Promise<boolean>(() => {}));
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(cache.size).toBe(0);
  });
});
