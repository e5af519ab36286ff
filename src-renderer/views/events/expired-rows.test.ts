import { describe, expect, it } from 'vitest';
import { expiredIds, parseExpiredRows } from './expired-rows';

describe('parseExpiredRows', () => {
  it('reads single rows and inclusive ranges', () => {
    expect([...parseExpiredRows('3,57-60', 100)].sort((a, b) => a - b)).toEqual([3, 57, 58, 59, 60]);
  });

  it('answers no rows for an absent or empty value', () => {
    expect(parseExpiredRows(undefined, 10).size).toBe(0);
    expect(parseExpiredRows('', 10).size).toBe(0);
  });

  it('ignores rows past the page and malformed or reversed parts', () => {
    const rows = parseExpiredRows('8-1000000000, x, 5-2, -3, 1', 10);
    expect([...rows].sort((a, b) => a - b)).toEqual([1, 8, 9]);
  });

  it('tolerates spaces around the parts', () => {
    expect([...parseExpiredRows(' 0 , 2 - 3 ', 5)].sort()).toEqual([0, 2, 3]);
  });
});

describe('expiredIds', () => {
  it('maps row positions to the events on the page', () => {
    const items = [{ eventId: 'c' }, { eventId: 'a' }, { eventId: 'b' }];
    expect([...expiredIds(items, '0,2')].sort()).toEqual(['b', 'c']);
  });
});
