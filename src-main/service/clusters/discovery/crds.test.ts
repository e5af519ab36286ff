/**
 * CRDs and APIServices as discovered kinds and their printer columns (crds.ts).
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src-shared/contract/models';
import { apiServiceEntry, columnsOf, crdEntry, crdIndex } from './crds';

const crd = (versions: unknown[], name = 'widgets.example.dev'): KubeObject => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name },
  spec: { group: 'example.dev', names: { plural: 'widgets', kind: 'Widget' }, scope: 'Namespaced', versions },
});

describe('crdEntry', () => {
  it('keeps each version’s printer columns, priority 0 unless given, description only when given', () => {
    const e = crdEntry(
      crd([
        {
          name: 'v1',
          additionalPrinterColumns: [
            { name: 'Ready', type: 'string', jsonPath: '.status.ready' },
            {
              name: 'Owner',
              type: 'string',
              jsonPath: '.spec.owner',
              priority: 1,
              description: 'Who owns it',
            },
            { name: 'Empty', type: 'string', jsonPath: '.spec.e', description: '' },
          ],
        },
        { name: 'v1beta1' },
      ]),
    );
    expect(e.key).toBe('widgets.example.dev');
    expect(e.group).toBe('example.dev');
    expect(e.plural).toBe('widgets');
    expect(e.columns.get('v1')).toEqual([
      { name: 'Ready', type: 'string', jsonPath: '.status.ready', priority: 0 },
      { name: 'Owner', type: 'string', jsonPath: '.spec.owner', priority: 1, description: 'Who owns it' },
      { name: 'Empty', type: 'string', jsonPath: '.spec.e', priority: 0 },
    ]);
    expect(e.columns.get('v1beta1')).toEqual([]);
  });

  it('skips a column of another shape, never the CRD', () => {
    const e = crdEntry(
      crd([
        {
          name: 'v1',
          additionalPrinterColumns: [
            { name: 'NoType', jsonPath: '.a' },
            { name: 'NoPath', type: 'string' },
            { type: 'string', jsonPath: '.b' },
            { name: 'Fraction', type: 'string', jsonPath: '.c', priority: 0.5 },
            { name: 'Kept', type: 'integer', jsonPath: '.d' },
          ],
        },
      ]),
    );
    expect(e.columns.get('v1')?.map((c) => c.name)).toEqual(['Kept']);
  });

  it('refuses a CRD with no group, plural or versions (the cache skips it)', () => {
    expect(() =>
      crdEntry({ metadata: { name: 'x' }, spec: { names: { plural: 'xs' }, versions: [] } }),
    ).toThrow();
    expect(() =>
      crdEntry({ metadata: { name: 'x' }, spec: { group: 'g', names: {}, versions: [] } }),
    ).toThrow();
    expect(() =>
      crdEntry({ metadata: { name: 'x' }, spec: { group: 'g', names: { plural: 'xs' } } }),
    ).toThrow();
  });

  it('fingerprints what discovery reads of it: a change of columns is a change, a label is not', () => {
    const a = crdEntry(
      crd([{ name: 'v1', additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: '.a' }] }]),
    );
    const b = crdEntry(
      crd([{ name: 'v1', additionalPrinterColumns: [{ name: 'B', type: 'string', jsonPath: '.a' }] }]),
    );
    const labelled = crdEntry({
      ...crd([{ name: 'v1', additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: '.a' }] }]),
      metadata: { name: 'widgets.example.dev', labels: { x: 'y' } },
    });
    expect(a.fingerprint).not.toBe(b.fingerprint);
    expect(labelled.fingerprint).toBe(a.fingerprint);
  });
});

describe('columnsOf', () => {
  it('answers a CRD kind’s columns at a version, [] for a version without, undefined for other kinds', () => {
    const index = crdIndex([
      crdEntry(
        crd([{ name: 'v1', additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: '.a' }] }]),
      ),
    ]);
    expect(columnsOf(index, 'example.dev', 'widgets', 'v1')).toEqual([
      { name: 'A', type: 'string', jsonPath: '.a', priority: 0 },
    ]);
    expect(columnsOf(index, 'example.dev', 'widgets', 'v9')).toEqual([]);
    expect(columnsOf(index, 'example.dev', 'gadgets', 'v1')).toBeUndefined();
    expect(columnsOf(index, 'other.dev', 'widgets', 'v1')).toBeUndefined();
  });
});

describe('apiServiceEntry', () => {
  it('changes with the spec or the status, by name', () => {
    const svc = (status: string): KubeObject => ({
      metadata: { name: 'v1beta1.metrics.k8s.io', resourceVersion: status },
      spec: { group: 'metrics.k8s.io' },
      status: { conditions: [{ type: 'Available', status }] },
    });
    expect(apiServiceEntry(svc('True')).key).toBe('v1beta1.metrics.k8s.io');
    expect(apiServiceEntry(svc('True')).fingerprint).not.toBe(apiServiceEntry(svc('False')).fingerprint);
    const bare = apiServiceEntry({ metadata: { name: 'v1.' } });
    expect(bare.fingerprint).toBe('[null,null]');
    expect(apiServiceEntry({ metadata: { name: 'v1.' }, spec: { version: 'v1' } }).fingerprint).not.toBe(
      bare.fingerprint,
    );
  });
});
