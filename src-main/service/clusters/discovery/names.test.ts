/**
 * Naming discovered kinds (names.ts): singulars, groups, and names shared between groups.
 */
import { describe, expect, it } from 'vitest';
import type { ServedResource } from './model';
import { compareText, isListable, nameKinds } from './names';

const LW = ['get', 'list', 'watch'];
const r = (group: string, resource: string, singular: string, verbs = LW): ServedResource => ({
  group,
  version: 'v1',
  resource,
  singular,
  kind: singular,
  namespaced: true,
  verbs,
  shortNames: [],
  categories: [],
});

describe('nameKinds', () => {
  it('keeps only what can be listed and watched', () => {
    expect(isListable({ verbs: ['list', 'watch'] })).toBe(true);
    expect(isListable({ verbs: ['get', 'list'] })).toBe(false);
    expect(isListable({ verbs: ['watch'] })).toBe(false);
    const named = nameKinds([
      r('', 'bindings', 'binding', ['create']),
      r('', 'componentstatuses', 'componentstatus', ['get', 'list']),
      r('', 'pods', 'pod'),
    ]);
    expect(named.map((k) => k.resourceType)).toEqual(['pod']);
  });

  it('orders by resourceType then group, whatever order the cluster sent', () => {
    const named = nameKinds([
      r('zeta.dev', 'widgets', 'widget'),
      r('', 'services', 'service'),
      r('alpha.dev', 'widgets', 'widget'),
      r('apps', 'deployments', 'deployment'),
      r('b.dev', 'anvils', 'anvil'),
    ]);
    expect(named.map((k) => k.resourceType)).toEqual([
      'anvil',
      'deployment',
      'service',
      'widget.alpha.dev',
      'widget.zeta.dev',
    ]);
  });

  it('qualifies a singular two groups share, leaving the core group bare', () => {
    const named = nameKinds([
      r('events.k8s.io', 'events', 'event'),
      r('', 'events', 'event'),
      r('', 'pods', 'pod'),
    ]);
    expect(named.map((k) => [k.resourceType, k.group])).toEqual([
      ['event', ''],
      ['event.events.k8s.io', 'events.k8s.io'],
      ['pod', ''],
    ]);
  });

  it("keeps a tailored kind's bare name when another group shares its singular", () => {
    const named = nameKinds([
      r('example.dev', 'deployments', 'deployment'),
      r('apps', 'deployments', 'deployment'),
      r('example.dev', 'jobs', 'job'),
      r('batch', 'jobs', 'job'),
      r('example.dev', 'pods', 'pod'),
      r('', 'pods', 'pod'),
    ]);
    expect(named.map((k) => [k.resourceType, k.group])).toEqual([
      ['deployment', 'apps'],
      ['deployment.example.dev', 'example.dev'],
      ['job', 'batch'],
      ['job.example.dev', 'example.dev'],
      ['pod', ''],
      ['pod.example.dev', 'example.dev'],
    ]);
  });

  it("a tailored kind's singular held by the core group: the core group keeps the bare name", () => {
    const named = nameKinds([r('apps', 'deployments', 'deployment'), r('', 'deployments', 'deployment')]);
    expect(named.map((k) => [k.resourceType, k.group])).toEqual([
      ['deployment', ''],
      ['deployment.apps', 'apps'],
    ]);
  });

  it('does not count a kind that cannot be listed as a second holder of a singular', () => {
    const named = nameKinds([r('', 'tokens', 'token', ['create']), r('auth.dev', 'tokens', 'token')]);
    expect(named.map((k) => k.resourceType)).toEqual(['token']);
  });

  it('keeps one kind per group and resource, the first (the preferred version)', () => {
    const named = nameKinds([
      { ...r('autoscaling', 'hpas', 'hpa'), version: 'v2' },
      { ...r('autoscaling', 'hpas', 'hpa'), version: 'v1' },
    ]);
    expect(named.map((k) => [k.resourceType, k.version])).toEqual([['hpa', 'v2']]);
  });

  it('lower-cases what the cluster wrote', () => {
    expect(
      nameKinds([r('Example.DEV', 'things', 'Thing'), r('', 'things', 'thing')]).map((k) => k.resourceType),
    ).toEqual(['thing', 'thing.example.dev']);
  });

  it('compares text by code units', () => {
    expect(compareText('a', 'b')).toBe(-1);
    expect(compareText('b', 'a')).toBe(1);
    expect(compareText('a', 'a')).toBe(0);
    expect(compareText('Z', 'a')).toBe(-1);
  });
});
