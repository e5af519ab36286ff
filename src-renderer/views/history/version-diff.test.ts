import { describe, expect, it } from 'vitest';
import { comparePointers, formatValue, readablePath, versionDiff } from './version-diff';

/** The field-by-field diff of two recorded versions, as the History tab shows it. */

const deployment = (image: string, replicas: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'checkout',
    namespace: 'shop',
    resourceVersion: String(100 + replicas),
    labels: { app: 'checkout' },
    ...extra,
  },
  spec: {
    replicas,
    template: {
      spec: {
        containers: [
          { name: 'istio-proxy', image: 'proxy:1.20' },
          { name: 'app', image, env: [{ name: 'MODE', value: 'live' }] },
        ],
      },
    },
  },
});

describe('versionDiff', () => {
  it('names each changed field by its path, containers by their name, with both values', () => {
    expect(versionDiff(deployment('shop/checkout:1.4.1', 3), deployment('shop/checkout:1.4.2', 5))).toEqual([
      { path: 'spec.replicas', kind: 'changed', before: 3, after: 5 },
      {
        path: 'spec.template.spec.containers[app].image',
        kind: 'changed',
        before: 'shop/checkout:1.4.1',
        after: 'shop/checkout:1.4.2',
      },
    ]);
  });

  it('leaves out resourceVersion and managedFields, which every write moves', () => {
    const a = deployment('x:1', 1, { managedFields: [{ manager: 'kubectl' }] });
    const b = {
      ...a,
      metadata: { ...a.metadata, resourceVersion: '999', managedFields: [{ manager: 'helm' }] },
    };
    expect(versionDiff(a, b)).toEqual([]);
    const c = { ...b, metadata: { ...b.metadata, generation: 2 } };
    expect(versionDiff(a, c)).toEqual([{ path: 'metadata.generation', kind: 'added', after: 2 }]);
  });

  it('says what was added and what was removed, with the value it had', () => {
    const a = deployment('x:1', 1);
    const b = structuredClone(a) as ReturnType<typeof deployment> & {
      metadata: { annotations?: Record<string, string> };
    };
    b.metadata.annotations = { 'kubernetes.io/change-cause': 'rollout' };
    delete (b.metadata.labels as { app?: string }).app;
    expect(versionDiff(a, b)).toEqual([
      {
        path: 'metadata.annotations',
        kind: 'added',
        after: { 'kubernetes.io/change-cause': 'rollout' },
      },
      { path: 'metadata.labels.app', kind: 'removed', before: 'checkout' },
    ]);
  });

  it('comes in document order, array positions by number', () => {
    const before = { spec: { ports: Array.from({ length: 12 }, (_, i) => i) }, metadata: { a: 1 } };
    const after = {
      spec: { ports: Array.from({ length: 12 }, (_, i) => (i === 2 || i === 10 ? -i : i)) },
      metadata: { a: 2 },
    };
    expect(versionDiff(before, after).map((c) => c.path)).toEqual([
      'metadata.a',
      'spec.ports[2]',
      'spec.ports[10]',
    ]);
  });

  it('names a removed array element by its name in the older version', () => {
    const a = deployment('x:1', 1);
    const b = structuredClone(a);
    b.spec.template.spec.containers.pop();
    const [change] = versionDiff(a, b);
    expect(change).toMatchObject({ path: 'spec.template.spec.containers[app]', kind: 'removed' });
    expect((change!.before as { image: string }).image).toBe('x:1');
  });

  it('makes every field added when there was no earlier version, and removed when there is no later one', () => {
    const d = { kind: 'ConfigMap', data: { a: '1' } };
    expect(versionDiff(undefined, d)).toEqual([
      { path: 'data', kind: 'added', after: { a: '1' } },
      { path: 'kind', kind: 'added', after: 'ConfigMap' },
    ]);
    expect(versionDiff(d, undefined).map((c) => [c.path, c.kind])).toEqual([
      ['data', 'removed'],
      ['kind', 'removed'],
    ]);
  });
});

describe('readablePath', () => {
  it('quotes keys that are not plain names, and unescapes ~1 and ~0', () => {
    const doc = { metadata: { labels: { 'app.kubernetes.io/name': 'x', 'a~b': 'y' } } };
    expect(readablePath('/metadata/labels/app.kubernetes.io~1name', doc)).toBe(
      'metadata.labels["app.kubernetes.io/name"]',
    );
    expect(readablePath('/metadata/labels/a~0b', doc)).toBe('metadata.labels["a~b"]');
    expect(readablePath('/data/_under-score', {})).toBe('data._under-score');
  });

  it('names an element by position when it has no name, or its name is not a non-empty string', () => {
    const doc = { items: [{ name: '' }, { name: 7 }, 'plain', { name: 'web' }] };
    expect(['0', '1', '2', '3'].map((i) => readablePath(`/items/${i}`, doc))).toEqual([
      'items[0]',
      'items[1]',
      'items[2]',
      'items[web]',
    ]);
  });

  it('falls back to the other version where the path is not in the first', () => {
    const old = { spec: { containers: [{ name: 'a' }, { name: 'sidecar' }] } };
    expect(readablePath('/spec/containers/1/image', { spec: { containers: [{ name: 'a' }] } }, old)).toBe(
      'spec.containers[sidecar].image',
    );
    expect(readablePath('', old)).toBe('');
  });

  it('reads a segment that is not a whole number as a key, also in an array', () => {
    const doc = { items: [{ name: 'a' }, { name: 'b' }] };
    expect(readablePath('/items/x1', doc)).toBe('items.x1');
    expect(readablePath('/items/1x', doc)).toBe('items["1x"]');
  });

  it('walks through a null or a scalar as through nothing', () => {
    expect(readablePath('/spec/selector/app', { spec: { selector: null } })).toBe('spec.selector.app');
    expect(readablePath('/spec/replicas/x', { spec: { replicas: 3 } })).toBe('spec.replicas.x');
  });

  it('reads a numeric key of an object as a key, not a position', () => {
    expect(readablePath('/data/8080', { data: { '8080': 'http' } })).toBe('data["8080"]');
  });
});

describe('comparePointers', () => {
  it('orders positions by number, keys by text, and a parent before its fields', () => {
    const sorted = ['/a/10', '/a/2', '/a', '/a/b', '/a/x2', '/a/2x', '/b', '/a/2/c'].sort(comparePointers);
    expect(sorted).toEqual(['/a', '/a/2', '/a/2/c', '/a/10', '/a/2x', '/a/b', '/a/x2', '/b']);
    expect(comparePointers('/a/10', '/a/2')).toBeGreaterThan(0);
    expect(comparePointers('/a/10', '/a/b')).toBeLessThan(0);
    expect(comparePointers('/a/x2', '/a/10')).toBeGreaterThan(0);
    expect(comparePointers('/a/10', '/a/x2')).toBeLessThan(0);
    expect(comparePointers('/a/2x', '/a/10')).toBeGreaterThan(0);
    expect(comparePointers('/a/10', '/a/2x')).toBeLessThan(0);
    expect(comparePointers('/a', '/a/b')).toBeLessThan(0);
    expect(comparePointers('/a/b', '/a')).toBeGreaterThan(0);
    expect(comparePointers('/a/b', '/a/b')).toBe(0);
  });
});

describe('formatValue', () => {
  it('shows a plain string as it is, and quotes one that would read as something else', () => {
    expect(formatValue('shop/checkout:1.4.2')).toBe('shop/checkout:1.4.2');
    expect(['', ' padded', 'two\nlines', '42', 'true', 'false', 'null'].map(formatValue)).toEqual([
      '""',
      '" padded"',
      '"two\\nlines"',
      '"42"',
      '"true"',
      '"false"',
      '"null"',
    ]);
  });

  it('shows scalars on one line and objects as YAML', () => {
    expect([formatValue(5), formatValue(false), formatValue(null), formatValue(undefined)]).toEqual([
      '5',
      'false',
      'null',
      '',
    ]);
    expect(formatValue({ a: 1, b: ['x', 'y'] })).toBe('a: 1\nb:\n  - x\n  - y');
    // A long value stays on its line, as in the YAML tab.
    const long = 'word '.repeat(30).trim();
    expect(formatValue({ message: long })).toBe(`message: ${long}`);
  });
});
