/** Resource entries: their keys, what they keep of an object, their order and label index keys. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import {
  cleanObject,
  compareResources,
  keyOf,
  labelKeys,
  type ResourceEntry,
  resourceEntry,
} from './entries';

const pod = (meta: Record<string, unknown>, rest: Record<string, unknown> = {}) =>
  ({ metadata: meta, ...rest }) as unknown as KubeObject;

describe('object keys', () => {
  it('keys a namespaced object namespace/name, a cluster-scoped one /name', () => {
    expect(keyOf({ metadata: { namespace: 'shop', name: 'web' } })).toBe('shop/web');
    expect(keyOf({ metadata: { name: 'node-a' } })).toBe('/node-a');
    expect(keyOf({})).toBe('/');
  });
});

describe('resource entries', () => {
  it('keeps key, namespace, name and labels of the object', () => {
    const e = resourceEntry(pod({ name: 'web', namespace: 'shop', labels: { app: 'web' } }), 'v1', 'Pod');
    expect({ key: e.key, namespace: e.namespace, name: e.name, labels: e.labels }).toEqual({
      key: 'shop/web',
      namespace: 'shop',
      name: 'web',
      labels: { app: 'web' },
    });
  });

  it('gives a cluster-scoped object the empty namespace', () => {
    const e = resourceEntry(pod({ name: 'node-a' }), 'v1', 'Node');
    expect(e.namespace).toBe('');
    expect(e.key).toBe('/node-a');
    expect(e.labels).toBeUndefined();
  });

  it("keeps the object's own apiVersion and kind over the kind's defaults, and every other field", () => {
    const obj = pod(
      { name: 'd', namespace: 'n', managedFields: [{ manager: 'kubectl' }], annotations: { a: 'b' } },
      { apiVersion: 'apps/v1beta2', kind: 'Deployment', spec: { replicas: 2 } },
    );
    const clean = cleanObject(obj, 'apps/v1', 'Other');
    expect(clean).toEqual({
      apiVersion: 'apps/v1beta2',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'n', annotations: { a: 'b' } },
      spec: { replicas: 2 },
    });
    // The object it came from is left as it was.
    expect(obj.metadata.managedFields).toEqual([{ manager: 'kubectl' }]);
  });

  it('fills in the apiVersion and kind of the collection when the object carries none', () => {
    const e = resourceEntry(pod({ name: 'a', namespace: 'n', managedFields: [] }), 'batch/v1', 'Job');
    expect(JSON.parse(e.json)).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'a', namespace: 'n' },
    });
  });

  it('makes one index key per label, label=value, and none for an object without labels', () => {
    const e = resourceEntry(
      pod({ name: 'a', namespace: 'n', labels: { app: 'web', tier: '' } }),
      'v1',
      'Pod',
    );
    expect(labelKeys(e)).toEqual(['app=web', 'tier=']);
    expect(labelKeys(resourceEntry(pod({ name: 'b', namespace: 'n' }), 'v1', 'Pod'))).toBeUndefined();
    expect(labelKeys(resourceEntry(pod({ name: 'c', namespace: 'n', labels: {} }), 'v1', 'Pod'))).toEqual([]);
  });

  it('orders resources by namespace first, then name', () => {
    const entries: ResourceEntry[] = [
      ['shop', 'b'],
      ['', 'z'],
      ['batch', 'z'],
      ['shop', 'a'],
      ['batch', 'a'],
      ['', 'a'],
    ].map(([namespace, name]) => resourceEntry(pod({ namespace, name }), 'v1', 'Pod'));
    expect(entries.sort(compareResources).map((e) => e.key)).toEqual([
      '/a',
      '/z',
      'batch/a',
      'batch/z',
      'shop/a',
      'shop/b',
    ]);
    const a = resourceEntry(pod({ namespace: 'x', name: 'same' }), 'v1', 'Pod');
    expect(compareResources(a, { ...a })).toBe(0);
    expect(compareResources(resourceEntry(pod({ namespace: 'b', name: 'a' }), 'v1', 'Pod'), a)).toBe(-1);
    expect(compareResources(a, resourceEntry(pod({ namespace: 'b', name: 'z' }), 'v1', 'Pod'))).toBe(1);
  });
});
