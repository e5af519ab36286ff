/** Principal → Kubernetes subject: the prefixes, the groups, system:authenticated, and nobody. */
import { describe, expect, it } from 'vitest';
import { AUTHENTICATED_GROUP, DEFAULT_LOCAL_PREFIX, DEFAULT_OIDC_PREFIX, subjectOf } from './subject';

const prefixes = { localPrefix: 'skiff:', oidcPrefix: 'oidc:' };

describe('subjectOf', () => {
  it('defaults: local accounts under skiff:, OIDC names as the provider gives them', () => {
    expect(DEFAULT_LOCAL_PREFIX).toBe('skiff:');
    expect(DEFAULT_OIDC_PREFIX).toBe('');
    expect(AUTHENTICATED_GROUP).toBe('system:authenticated');
  });

  it('names a local account with the local prefix, in system:authenticated only', () => {
    expect(subjectOf({ username: 'alice', source: 'local', groups: ['ignored'] }, prefixes)).toEqual({
      user: 'skiff:alice',
      groups: ['system:authenticated'],
    });
  });

  it('names an OIDC account and each of its groups with the OIDC prefix', () => {
    expect(
      subjectOf({ username: 'alice@example.com', source: 'oidc', groups: ['shop-devs', 'b'] }, prefixes),
    ).toEqual({
      user: 'oidc:alice@example.com',
      groups: ['oidc:shop-devs', 'oidc:b', 'system:authenticated'],
    });
  });

  it('never gives a provider name a reserved one: system: users and groups, the local prefix', () => {
    const none = { localPrefix: 'skiff:', oidcPrefix: '' };
    const oidc = (username: string, groups: string[] = []) => ({ username, source: 'oidc' as const, groups });
    expect(subjectOf(oidc('skiff:admin'), none)).toBeUndefined();
    expect(subjectOf(oidc('system:admin'), none)).toBeUndefined();
    expect(subjectOf(oidc('system:serviceaccount:kube-system:default'), none)).toBeUndefined();
    expect(subjectOf(oidc('mallory', ['system:masters', 'shop-devs', 'system:nodes']), none)).toEqual({
      user: 'mallory',
      groups: ['shop-devs', 'system:authenticated'],
    });
    // Under a prefix the same names are the prefix's, harmless.
    expect(subjectOf(oidc('system:admin', ['system:masters']), prefixes)).toEqual({
      user: 'oidc:system:admin',
      groups: ['oidc:system:masters', 'system:authenticated'],
    });
  });

  it('is nobody without an identity or with an empty username', () => {
    expect(subjectOf(undefined, prefixes)).toBeUndefined();
    expect(subjectOf({ username: '', source: 'local', groups: [] }, prefixes)).toBeUndefined();
  });
});
