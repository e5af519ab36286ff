/**
 * PageBoundaries: which known point of a list a page is read from (head, tail, or where a page of
 * the same walk began or ended), and the bounds on what it remembers. The reads that use it are
 * tested on real databases (events/history/store-keyset.test.ts, changes/reads-feed.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { PageBoundaries } from './keyset';

describe('PageBoundaries.plan', () => {
  it('reads a page in the first half forward from the head, skipping the offset', () => {
    const b = new PageBoundaries<string>();
    expect(b.plan(undefined, 0, 10, 100)).toEqual({ direction: 'forward', skip: 0, take: 10 });
    expect(b.plan('w', 40, 10, 100)).toEqual({ direction: 'forward', skip: 40, take: 10 });
  });

  it('reads a page in the second half backward from the tail, skipping only the rows after it', () => {
    const b = new PageBoundaries<string>();
    expect(b.plan(undefined, 90, 10, 100)).toEqual({ direction: 'backward', skip: 0, take: 10 });
    expect(b.plan(undefined, 60, 10, 100)).toEqual({ direction: 'backward', skip: 30, take: 10 });
    // A last page shorter than the limit takes what is there.
    expect(b.plan(undefined, 95, 10, 100)).toEqual({ direction: 'backward', skip: 0, take: 5 });
  });

  it('prefers the head on a tie', () => {
    expect(new PageBoundaries<string>().plan(undefined, 45, 10, 100)).toEqual({
      direction: 'forward',
      skip: 45,
      take: 10,
    });
  });

  it('starts the next page of a walk at the last row of the one before', () => {
    const b = new PageBoundaries<string>();
    b.remember('w', 40, 10, 'k40', 'k49');
    expect(b.plan('w', 50, 10, 1000)).toEqual({ direction: 'forward', from: 'k49', skip: 1, take: 10 });
  });

  it('answers a page asked again from its own first row', () => {
    const b = new PageBoundaries<string>();
    b.remember('w', 400, 10, 'k400', 'k409');
    expect(b.plan('w', 400, 10, 1000)).toEqual({ direction: 'forward', from: 'k400', skip: 0, take: 10 });
  });

  it('reads backward from a known row after the page', () => {
    const b = new PageBoundaries<string>();
    b.remember('w', 300, 10, 'k300', 'k309');
    expect(b.plan('w', 290, 10, 1000)).toEqual({ direction: 'backward', from: 'k300', skip: 1, take: 10 });
    // Ending exactly on the known row: nothing to skip.
    expect(b.plan('w', 300, 10, 1000)).toEqual({ direction: 'forward', from: 'k300', skip: 0, take: 10 });
    expect(b.plan('w', 280, 20, 1000)).toEqual({ direction: 'backward', from: 'k300', skip: 1, take: 20 });
  });

  it('reads backward from a known row that is the page’s last, skipping nothing', () => {
    const b = new PageBoundaries<string>();
    b.remember('w', 500, 1, 'k500', 'k500');
    expect(b.plan('w', 491, 10, 1000)).toEqual({ direction: 'backward', from: 'k500', skip: 0, take: 10 });
  });

  it('never reads from a known row inside the page', () => {
    const b = new PageBoundaries<string>();
    b.remember('w', 400, 10, 'k400', 'k409');
    expect(b.plan('w', 395, 10, 1000)).toEqual({ direction: 'backward', from: 'k409', skip: 5, take: 10 });
  });

  it('keeps nothing for a plan without a walk', () => {
    const b = new PageBoundaries<string>();
    b.plan(undefined, 400, 10, 1000);
    expect(b.size).toBe(0);
  });

  it('uses a walk’s rows only in that walk', () => {
    const b = new PageBoundaries<string>();
    b.remember('a', 400, 10, 'k400', 'k409');
    expect(b.plan('b', 400, 10, 1000)).toEqual({ direction: 'forward', skip: 400, take: 10 });
    expect(b.plan(undefined, 400, 10, 1000)).toEqual({ direction: 'forward', skip: 400, take: 10 });
  });

  it('never reads from a known row that lies past the list’s end', () => {
    const b = new PageBoundaries<string>();
    b.remember('w', 995, 5, 'k995', 'k999');
    // The list shrank to 500 rows: the rows at 995-999 are no anchor for its tail.
    expect(b.plan('w', 480, 20, 500)).toEqual({ direction: 'backward', skip: 0, take: 20 });
  });

  it('keeps the cheaper of a known row and the ends', () => {
    const b = new PageBoundaries<string>();
    b.remember('w', 10, 10, 'k10', 'k19');
    // Offset 500 of 1000: the known row at 19 is 481 rows away, the tail 490, the head 500.
    expect(b.plan('w', 500, 10, 1000)).toEqual({ direction: 'forward', from: 'k19', skip: 481, take: 10 });
  });
});

describe('PageBoundaries.remember', () => {
  it('keeps nothing of an empty page or of a read without a walk', () => {
    const b = new PageBoundaries<string>();
    b.remember('w', 400, 0, 'x', 'y');
    b.remember(undefined, 400, 10, 'x', 'y');
    expect(b.size).toBe(0);
    expect(b.plan('w', 400, 10, 1000)).toEqual({ direction: 'forward', skip: 400, take: 10 });
  });

  it('keeps the first known key of a position', () => {
    const b = new PageBoundaries<string>();
    b.remember('w', 500, 1, 'first', 'first');
    b.remember('w', 500, 1, 'second', 'second');
    expect(b.plan('w', 500, 1, 1000).from).toBe('first');
  });

  it('holds at most maxWalks walks, dropping the least recently used', () => {
    const b = new PageBoundaries<string>(2, 8);
    b.remember('a', 400, 1, 'a', 'a');
    b.remember('b', 400, 1, 'b', 'b');
    b.plan('a', 400, 1, 1000);
    b.remember('c', 400, 1, 'c', 'c');
    expect(b.size).toBe(2);
    expect(b.plan('a', 400, 1, 1000).from).toBe('a');
    expect(b.plan('b', 400, 1, 1000).from).toBe(undefined);
  });

  it('holds at most maxAnchors rows per walk, dropping the oldest', () => {
    const b = new PageBoundaries<string>(4, 3);
    b.remember('w', 100, 1, 'p100', 'p100');
    b.remember('w', 200, 1, 'p200', 'p200');
    b.remember('w', 300, 1, 'p300', 'p300');
    b.remember('w', 400, 1, 'p400', 'p400');
    expect(b.plan('w', 100, 1, 1000).from).toBe(undefined);
    expect(b.plan('w', 200, 1, 1000).from).toBe('p200');
    expect(b.plan('w', 400, 1, 1000).from).toBe('p400');
  });
});
