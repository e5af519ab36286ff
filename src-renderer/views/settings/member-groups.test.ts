import { describe, expect, it } from 'vitest';
import { groupsChanged, groupsText, parseGroups } from './member-groups';

/** A workspace's member groups typed as one text: what is saved, and when it counts as a change. */
describe('member groups text', () => {
  it('splits on commas and new lines, trims, drops empties and repeats, keeps case and order', () => {
    expect(parseGroups(' shop-devs, Shop-Devs ,,\nops ,shop-devs\n')).toEqual([
      'shop-devs',
      'Shop-Devs',
      'ops',
    ]);
    expect(parseGroups('')).toEqual([]);
    expect(parseGroups(' , \n ')).toEqual([]);
    expect(parseGroups('cn=devs ou=x')).toEqual(['cn=devs ou=x']);
  });

  it('shows held groups comma-separated, and reads back the same', () => {
    expect(groupsText(['a', 'b c'])).toBe('a, b c');
    expect(groupsText([])).toBe('');
    expect(parseGroups(groupsText(['a', 'b c']))).toEqual(['a', 'b c']);
  });

  it('counts a change only when the names differ, not their order or spacing', () => {
    expect(groupsChanged(['a', 'b'], 'b ,a')).toBe(false);
    expect(groupsChanged(['a', 'b'], 'a, b, a')).toBe(false);
    expect(groupsChanged(['a', 'b'], 'a')).toBe(true);
    expect(groupsChanged(['a'], 'a, c')).toBe(true);
    expect(groupsChanged(['a'], 'b')).toBe(true);
    expect(groupsChanged([], '')).toBe(false);
    expect(groupsChanged(['a'], '')).toBe(true);
  });
});
