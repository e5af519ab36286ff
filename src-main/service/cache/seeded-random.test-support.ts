/**
 * Seeded pseudo-random inputs for tests that check a fast path against a brute-force one: the same
 * sequence every run (a linear congruential generator), so a failure can be replayed. Not for
 * anything but test data.
 */

/** A deterministic sequence in [0, 1) from `seed`. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** One of `items`, chosen by `random`. */
export const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;
