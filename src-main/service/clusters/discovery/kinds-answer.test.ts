/**
 * The /kinds answer's rows, for a live cluster and for a snapshot (kinds-answer.ts).
 */
import { describe, expect, it } from 'vitest';
import { crdEntry } from './crds';
import { kindRows, SNAPSHOT_VERBS, snapshotKindRows } from './kinds-answer';
import { nameKinds } from './names';

describe('kindRows', () => {
  it('gives each kind its row, with columns only where a CRD defines the kind', () => {
    const kinds = nameKinds([
      {
        group: 'example.dev',
        version: 'v2',
        resource: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        namespaced: false,
        verbs: ['list', 'watch'],
        shortNames: ['wd'],
        categories: ['toys'],
      },
      {
        group: '',
        version: 'v1',
        resource: 'pods',
        singular: 'pod',
        kind: 'Pod',
        namespaced: true,
        verbs: ['list', 'watch'],
        shortNames: [],
        categories: [],
      },
    ]);
    const crds = [
      crdEntry({
        metadata: { name: 'widgets.example.dev' },
        spec: {
          group: 'example.dev',
          names: { plural: 'widgets' },
          versions: [
            { name: 'v1', additionalPrinterColumns: [{ name: 'Old', type: 'string', jsonPath: '.o' }] },
            { name: 'v2', additionalPrinterColumns: [{ name: 'New', type: 'string', jsonPath: '.n' }] },
          ],
        },
      }),
    ];
    expect(kindRows({ kinds, gaps: [], crds, readAt: 0 })).toEqual([
      {
        resourceType: 'pod',
        plural: 'pods',
        kind: 'Pod',
        group: '',
        version: 'v1',
        namespaced: true,
        shortNames: [],
        categories: [],
        verbs: ['list', 'watch'],
      },
      {
        resourceType: 'widget',
        plural: 'widgets',
        kind: 'Widget',
        group: 'example.dev',
        version: 'v2',
        namespaced: false,
        shortNames: ['wd'],
        categories: ['toys'],
        verbs: ['list', 'watch'],
        columns: [{ name: 'New', type: 'string', jsonPath: '.n', priority: 0 }],
      },
    ]);
  });
});

describe('snapshotKindRows', () => {
  it('answers the nine kinds of a snapshot, ordered, read-only, `all` for the namespaced ones', () => {
    const rows = snapshotKindRows();
    expect(rows.map((r) => r.resourceType)).toEqual([
      'cronjob',
      'daemonset',
      'deployment',
      'job',
      'namespace',
      'node',
      'pod',
      'service',
      'statefulset',
    ]);
    expect(SNAPSHOT_VERBS).toEqual(['get', 'list', 'watch']);
    expect(rows.find((r) => r.resourceType === 'pod')).toEqual({
      resourceType: 'pod',
      plural: 'pods',
      kind: 'Pod',
      group: '',
      version: 'v1',
      namespaced: true,
      shortNames: ['po'],
      categories: ['all'],
      verbs: ['get', 'list', 'watch'],
    });
    expect(rows.find((r) => r.resourceType === 'namespace')).toMatchObject({
      namespaced: false,
      categories: [],
      shortNames: ['ns'],
    });
    expect(rows.every((r) => !('columns' in r))).toBe(true);
  });
});
