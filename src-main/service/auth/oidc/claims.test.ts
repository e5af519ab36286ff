/**
 * Who an ID token names (claims.ts): the username claim, the groups claim in the shapes providers
 * send, and the role the admin groups give.
 */
import { describe, expect, it } from 'vitest';
import { ClaimError, groupsOf, MAX_GROUPS, MAX_USERNAME, roleOf, sameGroups, usernameOf } from './claims';

describe('usernameOf', () => {
  it('is the claim, trimmed and lower-cased', () => {
    expect(usernameOf({ email: '  Alice@Example.COM ' }, 'email')).toBe('alice@example.com');
    expect(usernameOf({ preferred_username: 'Bob', email: 'x@y' }, 'preferred_username')).toBe('bob');
  });

  it('refuses a token without the claim, or with an empty or non-string one, naming the claim', () => {
    for (const claims of [{}, { email: '' }, { email: '   ' }, { email: 42 }, { email: ['a'] }]) {
      expect(() => usernameOf(claims, 'email')).toThrow(ClaimError);
    }
    expect(() => usernameOf({}, 'upn')).toThrow('the ID token has no "upn" claim to name the account by');
  });

  it('takes a name of exactly the longest length and refuses a longer one', () => {
    expect(usernameOf({ email: 'a'.repeat(MAX_USERNAME) }, 'email')).toHaveLength(MAX_USERNAME);
    expect(() => usernameOf({ email: 'a'.repeat(MAX_USERNAME + 1) }, 'email')).toThrow(
      `the ID token's "email" claim is longer than ${MAX_USERNAME} characters`,
    );
  });
});

describe('groupsOf', () => {
  it('is an array claim, sorted and unique', () => {
    expect(groupsOf({ groups: ['shop-devs', 'admins', 'shop-devs'] }, 'groups')).toEqual([
      'admins',
      'shop-devs',
    ]);
  });

  it('takes one string as one group, and anything else as none', () => {
    expect(groupsOf({ roles: 'ops' }, 'roles')).toEqual(['ops']);
    expect(groupsOf({}, 'groups')).toEqual([]);
    expect(groupsOf({ groups: 7 }, 'groups')).toEqual([]);
    expect(groupsOf({ groups: { a: 1 } }, 'groups')).toEqual([]);
  });

  it('drops entries that are not non-empty strings of a sane length', () => {
    expect(groupsOf({ groups: ['a', '', 3, null, 'x'.repeat(257), 'x'.repeat(256)] }, 'groups')).toEqual([
      'a',
      'x'.repeat(256),
    ]);
  });

  it('keeps at most MAX_GROUPS', () => {
    const many = Array.from({ length: MAX_GROUPS + 5 }, (_, i) => `g${String(i).padStart(4, '0')}`);
    const got = groupsOf({ groups: many }, 'groups');
    expect(got).toHaveLength(MAX_GROUPS);
    expect(got[0]).toBe('g0000');
  });
});

describe('roleOf', () => {
  it('leaves the role alone when no admin groups are configured', () => {
    expect(roleOf(['admins'], [])).toBeUndefined();
  });

  it('is admin for a member of any admin group, member otherwise', () => {
    expect(roleOf(['devs', 'admins'], ['admins', 'ops'])).toBe('admin');
    expect(roleOf(['devs'], ['admins'])).toBe('member');
    expect(roleOf([], ['admins'])).toBe('member');
  });
});

describe('sameGroups', () => {
  it('compares two sorted lists', () => {
    expect(sameGroups(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameGroups([], [])).toBe(true);
    expect(sameGroups(['a'], ['a', 'b'])).toBe(false);
    expect(sameGroups(['a', 'b'], ['a'])).toBe(false);
    expect(sameGroups(['a', 'b'], ['a', 'c'])).toBe(false);
  });
});
