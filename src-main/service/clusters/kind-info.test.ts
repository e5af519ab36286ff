/**
 * KindInfo (kind-info.ts): the nine tailored kinds and discovered ones described alike.
 */
import { describe, expect, it } from 'vitest';
import { RESOURCE_KINDS, RESOURCE_TYPES } from '../../../src-shared/kube/kinds';
import type { DiscoveredKind } from './discovery/names';
import {
  apiVersionOf,
  isEventKind,
  isSecretKind,
  kindKey,
  kindOfDiscovered,
  TAILORED_KINDS,
} from './kind-info';

const discovered = (over: Partial<DiscoveredKind>): DiscoveredKind => ({
  resourceType: 'certificate',
  group: 'cert-manager.io',
  version: 'v1',
  resource: 'certificates',
  singular: 'certificate',
  kind: 'Certificate',
  namespaced: true,
  verbs: ['get', 'list', 'watch'],
  shortNames: ['cert', 'certs'],
  categories: ['cert-manager'],
  ...over,
});

describe('KindInfo', () => {
  it('the nine are their tailored rows, in the tree order', () => {
    expect(TAILORED_KINDS.map((k) => k.resourceType)).toEqual([...RESOURCE_TYPES]);
    for (const k of TAILORED_KINDS) expect(k).toBe(RESOURCE_KINDS[k.resourceType as 'pod']);
    expect(RESOURCE_KINDS.pod.categories).toEqual(['all']);
    expect(RESOURCE_KINDS.node.categories).toEqual([]);
  });

  it('a discovered kind of a named group', () => {
    expect(kindOfDiscovered(discovered({}))).toEqual({
      resourceType: 'certificate',
      singular: 'certificate',
      plural: 'certificates',
      kind: 'Certificate',
      group: 'cert-manager.io',
      version: 'v1',
      apiPath: '/apis/cert-manager.io/v1',
      namespaced: true,
      shortNames: ['cert', 'certs'],
      categories: ['cert-manager'],
    });
  });

  it('a discovered kind of the core group, its singular in lower case', () => {
    const k = kindOfDiscovered(
      discovered({
        resourceType: 'configmap',
        group: '',
        resource: 'configmaps',
        singular: 'ConfigMap',
        kind: 'ConfigMap',
        namespaced: false,
      }),
    );
    expect(k).toMatchObject({ apiPath: '/api/v1', singular: 'configmap', namespaced: false, group: '' });
  });

  it('a discovered tailored kind is its tailored row, whatever version discovery prefers', () => {
    const d = discovered({
      resourceType: 'deployment',
      group: 'apps',
      resource: 'deployments',
      version: 'v2',
    });
    expect(kindOfDiscovered(d)).toBe(RESOURCE_KINDS.deployment);
    const pods = discovered({ resourceType: 'pod', group: '', resource: 'pods' });
    expect(kindOfDiscovered(pods)).toBe(RESOURCE_KINDS.pod);
    // The same plural in another group is not the tailored kind.
    const other = discovered({ resourceType: 'pod.example.dev', group: 'example.dev', resource: 'pods' });
    expect(kindOfDiscovered(other).apiPath).toBe('/apis/example.dev/v1');
  });

  it('is identified by group and plural; its apiVersion names the group only when it has one', () => {
    expect(kindKey(RESOURCE_KINDS.pod)).toBe('/pods');
    expect(kindKey(RESOURCE_KINDS.deployment)).toBe('apps/deployments');
    expect(apiVersionOf(RESOURCE_KINDS.pod)).toBe('v1');
    expect(apiVersionOf(RESOURCE_KINDS.cronjob)).toBe('batch/v1');
  });

  it('Secrets are the core group’s secrets only', () => {
    expect(isSecretKind({ group: '', plural: 'secrets' })).toBe(true);
    expect(isSecretKind({ group: 'example.dev', plural: 'secrets' })).toBe(false);
    expect(isSecretKind({ group: '', plural: 'configmaps' })).toBe(false);
  });

  it('Events are the core group’s and events.k8s.io’s', () => {
    expect(isEventKind({ group: '', plural: 'events' })).toBe(true);
    expect(isEventKind({ group: 'events.k8s.io', plural: 'events' })).toBe(true);
    expect(isEventKind({ group: 'audit.example', plural: 'events' })).toBe(false);
    expect(isEventKind({ group: '', plural: 'eventrecords' })).toBe(false);
    expect(isEventKind({ group: 'events.k8s.io', plural: 'things' })).toBe(false);
  });
});
