/**
 * Legacy (non-aggregated) discovery: core version, preferred group versions, resource lists
 * (legacy.ts).
 */
import { apiGroupList, apiVersions, resourceList, SimKinds } from '@skiff/kube-simulator';
import { describe, expect, it } from 'vitest';
import { coreVersion, parseResourceList, preferredGroupVersions } from './legacy';

const kinds = new SimKinds();

describe('coreVersion', () => {
  it('is the first version /api names', () => {
    expect(coreVersion(apiVersions('127.0.0.1:6443'))).toBe('v1');
    expect(coreVersion({ kind: 'APIVersions', versions: ['v2', 'v1'] })).toBe('v2');
  });

  it('is undefined for any other document', () => {
    expect(coreVersion({ kind: 'APIGroupList', versions: ['v1'] })).toBeUndefined();
    expect(coreVersion({ kind: 'APIVersions', versions: [''] })).toBeUndefined();
    expect(coreVersion({ kind: 'APIVersions' })).toBeUndefined();
    expect(coreVersion({ kind: 'APIVersions', versions: [] })).toBeUndefined();
  });
});

describe('preferredGroupVersions', () => {
  it('reads each group of /apis at its preferred version', () => {
    const groups = preferredGroupVersions(apiGroupList(kinds, true));
    expect(groups).toContainEqual({ group: 'autoscaling', version: 'v2' });
    expect(groups).toContainEqual({ group: 'metrics.k8s.io', version: 'v1beta1' });
    expect(groups?.filter((g) => g.group === 'autoscaling')).toHaveLength(1);
  });

  it('takes the first version of a group that names no preferred one, and skips a group it cannot read', () => {
    const doc = {
      kind: 'APIGroupList',
      groups: [
        { name: 'b.dev', versions: [{ version: 'v2' }, { version: 'v1' }] },
        {
          name: 'a.dev',
          versions: [{ version: 'v1' }, { version: 'v3' }],
          preferredVersion: { version: 'v3' },
        },
        { name: 'noversions.dev', versions: [] },
        { name: '', versions: [{ version: 'v1' }] },
        { versions: [{ version: 'v1' }] },
        'not a group',
      ],
    };
    expect(preferredGroupVersions(doc)).toEqual([
      { group: 'b.dev', version: 'v2' },
      { group: 'a.dev', version: 'v3' },
    ]);
  });

  it('is undefined for any other document', () => {
    expect(preferredGroupVersions({ kind: 'APIVersions', groups: [] })).toBeUndefined();
    expect(preferredGroupVersions({ kind: 'APIGroupList' })).toBeUndefined();
    expect(preferredGroupVersions(null)).toBeUndefined();
  });
});

describe('parseResourceList', () => {
  it('reads the resources of a group version, subresources left out', () => {
    const apps = parseResourceList(resourceList(kinds, 'apps', 'v1'), 'apps', 'v1');
    expect(apps?.map((r) => r.resource)).toEqual([
      'controllerrevisions',
      'daemonsets',
      'deployments',
      'replicasets',
      'statefulsets',
    ]);
    expect(apps?.find((r) => r.resource === 'deployments')).toEqual({
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
      singular: 'deployment',
      kind: 'Deployment',
      namespaced: true,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['deploy'],
      categories: ['all'],
    });
  });

  it('falls back to the lower-cased kind without a singular name, and to no short names or categories', () => {
    const metrics = parseResourceList(
      resourceList(kinds, 'metrics.k8s.io', 'v1beta1'),
      'metrics.k8s.io',
      'v1beta1',
    );
    expect(metrics?.[0]).toEqual({
      group: 'metrics.k8s.io',
      version: 'v1beta1',
      resource: 'nodes',
      singular: 'nodemetrics',
      kind: 'NodeMetrics',
      namespaced: false,
      verbs: ['get', 'list'],
      shortNames: [],
      categories: [],
    });
  });

  it('skips an entry it cannot read, never the list, and is undefined for another document', () => {
    const doc = {
      resources: [
        { name: 'ok', namespaced: true, kind: 'Ok', verbs: ['list'] },
        { name: 'nokind', namespaced: true, verbs: ['list'] },
        { name: 'noscope', kind: 'NoScope', verbs: ['list'] },
        { name: '', namespaced: true, kind: 'Empty', verbs: ['list'] },
        { name: 'noverbs', namespaced: false, kind: 'NoVerbs' },
        7,
      ],
    };
    expect(parseResourceList(doc, 'x.dev', 'v1')?.map((r) => r.resource)).toEqual(['ok']);
    expect(parseResourceList({ kind: 'Status' }, 'x.dev', 'v1')).toBeUndefined();
  });
});
