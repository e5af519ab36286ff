import jsonpatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import type { Json, Operation } from './diff';
import { at, imageChange, MAX_PATHS, readablePath, type SummaryInput, summarize } from './summary';

/** An update's summary, its patch computed from the two versions as the recorder does. */
const updated = (kindKey: string, prev: Json, next: Json, patch?: Operation[]) =>
  summarize({ change: 'updated', kindKey, prev, next, patch: patch ?? jsonpatch.compare(prev, next) });

const pod = (containers: Json[], extra: Json = {}) => ({ spec: { containers, ...extra } });
const deploy = (containers: Json[], replicas = 1) => ({
  metadata: { generation: 1 },
  spec: { replicas, template: { spec: { containers } } },
});

describe('summarize', () => {
  it('says created, deleted and first seen for those changes, whatever the patch', () => {
    const base: Omit<SummaryInput, 'change'> = {
      kindKey: 'apps/deployments',
      patch: [{ op: 'add', path: '/x', value: 1 }],
    };
    expect(summarize({ ...base, change: 'created' })).toBe('created');
    expect(summarize({ ...base, change: 'deleted' })).toBe('deleted');
    expect(summarize({ ...base, change: 'seen' })).toBe('first seen');
  });

  it('names an image change by container, the tag alone when the repository stayed', () => {
    expect(
      updated(
        'apps/deployments',
        deploy([{ name: 'app', image: 'shop/app:1.4.1' }]),
        deploy([{ name: 'app', image: 'shop/app:1.4.2' }]),
      ),
    ).toBe('image app: 1.4.1 → 1.4.2');
    expect(
      updated('/pods', pod([{ name: 'web', image: 'nginx' }]), pod([{ name: 'web', image: 'nginx:1.27' }])),
    ).toBe('image web: latest → 1.27');
  });

  it('names the images of init containers and of a CronJob template, each container once', () => {
    const cron = (img: string, init: string) => ({
      spec: {
        jobTemplate: {
          spec: {
            template: {
              spec: {
                containers: [{ name: 'job', image: img }],
                initContainers: [{ name: 'setup', image: init }],
              },
            },
          },
        },
      },
    });
    expect(updated('batch/cronjobs', cron('a:1', 'i:1'), cron('a:2', 'i:2'))).toBe(
      'image job: 1 → 2; image setup: 1 → 2',
    );
    expect(
      updated(
        '/pods',
        { spec: { initContainers: [{ name: 'init', image: 'busybox:1' }], containers: [] } },
        { spec: { initContainers: [{ name: 'init', image: 'busybox:2' }], containers: [] } },
      ),
    ).toBe('image init: 1 → 2');
  });

  it('a container added is a path, not an image change; its env a path below the named container', () => {
    const a = deploy([{ name: 'app', image: 'a:1' }]);
    const b = deploy([
      { name: 'app', image: 'a:1' },
      { name: 'sidecar', image: 's:1' },
    ]);
    expect(updated('apps/deployments', a, b)).toBe('spec.template.spec.containers[sidecar]');
    const env = deploy([{ name: 'app', image: 'a:1', env: [{ name: 'MODE', value: 'x' }] }]);
    expect(updated('apps/deployments', a, env)).toBe('spec.template.spec.containers[app].env');
  });

  it('says replicas a → b, and HPA bounds and decisions by name', () => {
    expect(updated('apps/deployments', deploy([], 3), deploy([], 5))).toBe('replicas 3 → 5');
    const hpa = (min: number, max: number, desired: number) => ({
      spec: { minReplicas: min, maxReplicas: max },
      status: { desiredReplicas: desired },
    });
    expect(updated('autoscaling/horizontalpodautoscalers', hpa(1, 5, 4), hpa(2, 6, 2))).toBe(
      'minReplicas 1 → 2; maxReplicas 5 → 6; desired replicas 4 → 2',
    );
    // Another kind's status.desiredReplicas is just a path.
    expect(
      updated('apps/replicasets', { status: { desiredReplicas: 1 } }, { status: { desiredReplicas: 2 } }),
    ).toBe('status.desiredReplicas');
    expect(updated('apps/deployments', { spec: {} }, { spec: { replicas: 2 } })).toBe('replicas unset → 2');
    expect(updated('apps/deployments', { spec: { replicas: 2 } }, { spec: {} })).toBe('replicas 2 → unset');
  });

  it('lists the ConfigMap keys whose values changed, were added or removed, sorted; binaryData too', () => {
    expect(
      updated(
        '/configmaps',
        { data: { b: '1', a: '1', same: 's' } },
        { data: { a: '2', same: 's', c: '3' } },
      ),
    ).toBe('data changed: a, b, c');
    expect(updated('/configmaps', { binaryData: { blob: 'AA==' } }, { binaryData: { blob: 'AQ==' } })).toBe(
      'data changed: blob',
    );
    expect(updated('/configmaps', {}, { data: { k: 'v' } })).toBe('data changed: k');
    // A label change of a ConfigMap is a path, not data.
    expect(
      updated('/configmaps', { metadata: { labels: { a: '1' } } }, { metadata: { labels: { a: '2' } } }),
    ).toBe('metadata.labels');
  });

  it('a Secret says `data changed`, with the keys whose size changed or that came or went, never a value', () => {
    const s = (keys: { name: string; bytes: number }[]) => ({ type: 'Opaque', keys });
    expect(updated('/secrets', s([{ name: 'p', bytes: 8 }]), s([{ name: 'p', bytes: 8 }]), [])).toBe(
      'data changed',
    );
    expect(
      updated(
        '/secrets',
        s([{ name: 'p', bytes: 8 }]),
        s([
          { name: 'p', bytes: 9 },
          { name: 'u', bytes: 3 },
        ]),
      ),
    ).toBe('data changed: p, u');
    // A label moved without a size: the label is named, not the data (it cannot be told).
    expect(
      updated(
        '/secrets',
        { ...s([{ name: 'p', bytes: 8 }]), metadata: { labels: { a: '1' } } },
        { ...s([{ name: 'p', bytes: 8 }]), metadata: { labels: { a: '2' } } },
      ),
    ).toBe('metadata.labels');
    // Keys appearing whole, and junk among them (neither a record nor named), read as no key.
    expect(updated('/secrets', { type: 'Opaque' }, s([{ name: 'p', bytes: 1 }]))).toBe('data changed: p');
    expect(
      updated(
        '/secrets',
        { keys: ['junk', { bytes: 3 }] },
        { keys: ['junk', { bytes: 4 }, { name: 'k', bytes: 1 }] },
      ),
    ).toBe('data changed: k');
    // Another kind's `keys` is just a field.
    expect(
      updated('example.com/things', { keys: [{ name: 'a', bytes: 1 }] }, { keys: [{ name: 'a', bytes: 2 }] }),
    ).toBe('keys[a].bytes');
    expect(
      updated('/secrets', { metadata: { labels: { a: '1' } } }, { metadata: { labels: { a: '2' } } }),
    ).toBe('metadata.labels');
    expect(updated('/secrets', s([]), { ...s([]), type: 'kubernetes.io/tls' })).toBe('type');
  });

  it('names each piece beside the other paths: a ConfigMap, a condition, an image', () => {
    expect(
      updated(
        '/configmaps',
        { data: { k: '1' }, metadata: { labels: { a: '1' } } },
        { data: { k: '2' }, metadata: { labels: { a: '2' } } },
      ),
    ).toBe('data changed: k; metadata.labels');
    expect(
      updated(
        '/configmaps',
        { metadata: { labels: { a: '1' } } },
        { binaryData: { b: 'AA==' }, metadata: { labels: { a: '2' } } },
      ),
    ).toBe('data changed: b; metadata.labels');
    expect(
      updated('/configmaps', { binaryData: { b: 'AA==' } }, { binaryData: { b: 'AQ==' }, immutable: true }),
    ).toBe('data changed: b; immutable');
    const node = (ready: string, label: string) => ({
      metadata: { labels: { l: label } },
      status: { conditions: [{ type: 'Ready', status: ready }] },
    });
    expect(updated('/nodes', node('True', 'a'), node('False', 'b'))).toBe(
      'condition Ready True → False; metadata.labels',
    );
    // An array where a map belongs is no map: it is named as the path it is.
    expect(updated('/configmaps', { data: ['x'] }, { data: {} })).toBe('data');
  });

  it('an image set where there was none, or removed, is a path; junk among containers is skipped', () => {
    const d = (c: object) => ({
      spec: { template: { spec: { containers: ['junk', { image: 'x:1' }, c] } } },
    });
    expect(updated('apps/deployments', d({ name: 'app' }), d({ name: 'app', image: 'a:1' }))).toBe(
      'spec.template.spec.containers[app].image',
    );
    expect(updated('apps/deployments', d({ name: 'app', image: 'a:1' }), d({ name: 'app' }))).toBe(
      'spec.template.spec.containers[app].image',
    );
    expect(updated('apps/deployments', d({ name: 'app', image: 'a:1' }), d({ name: 'app', image: 7 }))).toBe(
      'spec.template.spec.containers[app].image',
    );
  });

  it('says condition T a → b for a condition whose status moved, and covers its other fields', () => {
    const node = (ready: string, reason: string) => ({
      status: {
        conditions: [
          { type: 'MemoryPressure', status: 'False' },
          { type: 'Ready', status: ready, reason },
        ],
      },
    });
    expect(updated('/nodes', node('True', 'KubeletReady'), node('False', 'KubeletNotReady'))).toBe(
      'condition Ready True → False',
    );
    // Only a reason moved: the condition is named as a path.
    expect(updated('/nodes', node('True', 'A'), node('True', 'B'))).toBe('status.conditions[Ready].reason');
    // Junk among conditions is skipped.
    expect(
      updated(
        '/nodes',
        { status: { conditions: ['junk', { status: 'True' }, { type: 'Ready', status: 'True' }] } },
        { status: { conditions: ['junk', { status: 'False' }, { type: 'Ready', status: 'False' }] } },
      ),
    ).toBe('condition Ready True → False');
    // A condition that appears is not a change of status.
    expect(updated('/nodes', { status: { conditions: [] } }, node('True', 'A'))).toBe(
      'status.conditions[MemoryPressure]; status.conditions[Ready]',
    );
  });

  it('lists at most MAX_PATHS paths, saying how many more; generation alone is never listed', () => {
    const prev: Json = { metadata: { generation: 1 }, spec: {} };
    const next: Json = { metadata: { generation: 2 }, spec: { a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1 } };
    expect(updated('x/ys', prev, next)).toBe(`spec.a; spec.b; spec.c; spec.d; spec.e; … (+2 more)`);
    const five: Json = { spec: { a: 1, b: 1, c: 1, d: 1, e: 1 } };
    expect(updated('x/ys', { spec: {} }, five).split('; ')).toHaveLength(MAX_PATHS);
    expect(updated('x/ys', { metadata: { generation: 1 } }, { metadata: { generation: 2 } })).toBe('updated');
    // The same path twice is listed once.
    expect(
      summarize({
        change: 'updated',
        kindKey: 'x/ys',
        prev: {},
        next: {},
        patch: [
          { op: 'add', path: '/spec/x', value: 1 },
          { op: 'add', path: '/spec/x', value: 2 },
        ],
      }),
    ).toBe('spec.x');
  });

  it('puts recognised pieces first, then the other paths', () => {
    expect(
      updated(
        'apps/deployments',
        { ...deploy([{ name: 'app', image: 'a:1' }], 1), metadata: { labels: { v: '1' } } },
        { ...deploy([{ name: 'app', image: 'a:2' }], 2), metadata: { labels: { v: '2' } } },
      ),
    ).toBe('image app: 1 → 2; replicas 1 → 2; metadata.labels');
  });
});

describe('imageChange', () => {
  it('shows tags when the repository is the same, whole references otherwise, digests as tags', () => {
    expect(imageChange('reg:5000/app:1', 'reg:5000/app:2')).toBe('1 → 2');
    expect(imageChange('reg:5000/app', 'reg:5000/app:2')).toBe('latest → 2');
    expect(imageChange('app@sha256:aa', 'app@sha256:bb')).toBe('sha256:aa → sha256:bb');
    expect(imageChange('a/app:1', 'b/app:1')).toBe('a/app:1 → b/app:1');
  });
});

describe('readablePath and at', () => {
  const obj = {
    spec: { containers: [{ name: 'app', ports: [{ containerPort: 80 }] }], list: [1, 2], 'a/b': { '~c': 1 } },
    status: { conditions: [{ type: 'Ready' }] },
  };
  it('names elements by name or type, stops below a named one and at data maps', () => {
    expect(readablePath('/spec/containers/0/ports/0/containerPort', obj, obj)).toBe(
      'spec.containers[app].ports',
    );
    expect(readablePath('/status/conditions/0/status', obj, obj)).toBe('status.conditions[Ready].status');
    expect(readablePath('/spec/list/1', obj, obj)).toBe('spec.list[1]');
    expect(readablePath('/metadata/annotations/x~1y', {}, {})).toBe('metadata.annotations');
    expect(readablePath('/spec/template/spec/nodeSelector/zone', {}, {})).toBe(
      'spec.template.spec.nodeSelector',
    );
    expect(readablePath('/spec/a~1b/~0c', obj, obj)).toBe('spec.a/b.~c');
    // An element removed is named from the previous version.
    expect(readablePath('/spec/containers/0', obj, { spec: { containers: [] } })).toBe(
      'spec.containers[app]',
    );
    expect(readablePath('/spec/list/-', obj, obj)).toBe('spec.list[-]');
    const long = {
      spec: { list: Array.from({ length: 13 }, (_, i) => (i === 1 ? { type: 5, a: { b: 1 } } : i)) },
    };
    expect(readablePath('/spec/list/12', long, long)).toBe('spec.list[12]');
    // An element named by neither a string name nor type is its index, and the path goes on below it.
    expect(readablePath('/spec/list/1/a/b', long, long)).toBe('spec.list[1].a.b');
    // A numeric key of a map is a key.
    expect(readablePath('/spec/ports/12/x', { spec: { ports: { '12': { x: 1 } } } }, {})).toBe(
      'spec.ports.12.x',
    );
  });
  it('reads a value by JSON Pointer, undefined past a leaf', () => {
    expect(at(obj, '')).toBe(obj);
    expect(at(obj, '/spec/list/1')).toBe(2);
    expect(at(obj, '/spec/a~1b/~0c')).toBe(1);
    expect(at(obj, '/spec/list/1/x')).toBeUndefined();
  });
});
