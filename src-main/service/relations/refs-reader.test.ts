/**
 * The small parts relations are built from, each called directly: refs (shape, order, merge,
 * bounds), the per-answer reader (one read per kind, one index sync, first kind wins, the
 * stalest time), which kinds dependents are searched in, and facts of malformed or bare objects.
 */
import { describe, expect, it } from 'vitest';
import type { RelationRef } from '../../../src-shared/contract/relations-operations';
import { resourceEntry } from '../cache/entries';
import { COMMON, dependentKinds } from './dependents';
import { factsOfObject } from './facts';
import { FixtureSource, forbidden, KINDS, obj } from './fixtures.test-support';
import { num, str } from './json';
import type { KindRef } from './model';
import { podSpecLinks } from './pod-refs';
import { RelationReader } from './reader';
import { absentRef, bounded, compareRefs, compareText, entryRef, MAX_REFS, mergeRefs } from './refs';
import { labelSelector } from './selectors';

const kind = (t: string) => KINDS.find((k) => k.resourceType === t)!;

describe('refs', () => {
  it('compare text by code units, and refs by resourceType, namespace, name', () => {
    expect(compareText('a', 'b')).toBe(-1);
    expect(compareText('b', 'a')).toBe(1);
    expect(compareText('a', 'a')).toBe(0);
    expect(compareText('B', 'a')).toBe(-1);
    const r = (resourceType: string, name: string, namespace?: string) => ({
      resourceType,
      name,
      ...(namespace ? { namespace } : {}),
    });
    const sorted = [
      r('pod', 'b', 'y'),
      r('node', 'z'),
      r('pod', 'a', 'y'),
      r('pod', 'c', 'x'),
      r('node', 'a'),
    ].sort(compareRefs);
    expect(sorted.map((x) => `${x.resourceType}/${x.namespace ?? ''}/${x.name}`)).toEqual([
      'node//a',
      'node//z',
      'pod/x/c',
      'pod/y/a',
      'pod/y/b',
    ]);
  });

  it('carry a namespace only for a namespaced kind, a uid and status only when known', () => {
    const cm = resourceEntry(obj('v1', 'ConfigMap', 'c', 'ns'), 'v1', 'ConfigMap');
    expect(entryRef(kind('configmap'), cm)).toStrictEqual({
      resourceType: 'configmap',
      namespace: 'ns',
      name: 'c',
      uid: expect.any(String),
    });
    const bare = resourceEntry({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } }, 'v1', 'Node');
    expect(entryRef(kind('node'), bare)).toStrictEqual({
      resourceType: 'node',
      name: 'n',
      status: 'Unknown',
    });
    expect(absentRef('node', undefined, 'n', false)).toStrictEqual({ resourceType: 'node', name: 'n' });
    expect(absentRef('secret', 'ns', 's', true)).toStrictEqual({
      resourceType: 'secret',
      namespace: 'ns',
      name: 's',
      missing: true,
    });
  });

  it('merge refs to one object: via and missing keys joined, optional only when all are', () => {
    const a: RelationRef = { resourceType: 'secret', namespace: 'n', name: 's', via: ['x'], optional: true };
    const b: RelationRef = {
      resourceType: 'secret',
      namespace: 'n',
      name: 's',
      via: ['y', 'x'],
      optional: true,
      missingKeys: ['k'],
    };
    const c: RelationRef = { resourceType: 'secret', namespace: 'n', name: 's', missingKeys: ['j', 'k'] };
    const other: RelationRef = { resourceType: 'secret', namespace: 'm', name: 's', via: ['z'] };
    const cluster: RelationRef = { resourceType: 'secret', name: 's' };
    expect(mergeRefs([a, b, other, cluster])).toStrictEqual([
      {
        resourceType: 'secret',
        namespace: 'n',
        name: 's',
        via: ['x', 'y'],
        optional: true,
        missingKeys: ['k'],
      },
      other,
      cluster,
    ]);
    expect(mergeRefs([a, c])).toStrictEqual([
      { resourceType: 'secret', namespace: 'n', name: 's', via: ['x'], missingKeys: ['j', 'k'] },
    ]);
    expect(mergeRefs([c, { ...c, missingKeys: undefined } as RelationRef])).toStrictEqual([
      { resourceType: 'secret', namespace: 'n', name: 's', missingKeys: ['j', 'k'] },
    ]);
  });

  it(`are bounded at ${MAX_REFS}, ordered, with what was left off`, () => {
    const many = Array.from({ length: MAX_REFS + 2 }, (_, i) => ({
      resourceType: 'pod',
      name: `p-${String(MAX_REFS + 2 - i).padStart(5, '0')}`,
    }));
    const cut = bounded(many);
    expect(cut.refs).toHaveLength(MAX_REFS);
    expect(cut.refs[0]!.name).toBe('p-00001');
    expect(cut.leftOff).toBe(2);
    const exact = bounded(many.slice(0, MAX_REFS));
    expect(exact.refs).toHaveLength(MAX_REFS);
    expect(exact.leftOff).toBe(0);
  });
});

describe('the reader', () => {
  it('reads each kind once per answer and syncs each index once', async () => {
    const src = new FixtureSource([obj('v1', 'Pod', 'p', 'ns')]);
    const reader = await RelationReader.open(src);
    const [a, b] = await Promise.all([reader.cache(kind('pod')), reader.cache(kind('pod'))]);
    expect(a).toBe(b);
    expect(await reader.cache(kind('pod'))).toBe(a);
    expect(src.reads).toEqual(['pod']);
    let calls = 0;
    const keys = () => {
      calls++;
      return [];
    };
    expect(reader.index(a!, keys)).toBe(reader.index(a!, keys));
    await reader.index(a!, keys);
    src.upsert(obj('v1', 'Pod', 'q', 'ns'));
    await reader.index(a!, keys);
    // The answer's read of the cache is its snapshot: one entry, read once.
    expect(calls).toBe(1);
  });

  it('answers a kind’s problem on require, and a gap on cache', async () => {
    const src = new FixtureSource();
    const problem = forbidden('pods');
    src.failing.set('pod', problem);
    const reader = await RelationReader.open(src);
    await expect(reader.require(kind('pod'))).rejects.toBe(problem);
    expect(await reader.cache(kind('pod'))).toBeUndefined();
    expect([...reader.gaps]).toEqual([
      ['pod', 'cluster_unauthorized: the cluster refused to list pods (403)'],
    ]);
    expect(await reader.require(kind('node'))).toMatchObject({ kind: kind('node') });
    expect(await reader.cacheOf({ group: 'x.io', kind: 'Nope' })).toBeUndefined();
    expect(reader.gaps.get('nope.x.io')).toBe('the cluster does not serve Nope (x.io)');
  });

  it('takes the first of two served kinds with one group and Kind', async () => {
    const first: KindRef = { resourceType: 'widget', kind: 'Widget', group: 'x.io', namespaced: true };
    const second: KindRef = { resourceType: 'widget2', kind: 'Widget', group: 'x.io', namespaced: false };
    const reader = await RelationReader.open(new FixtureSource([], [...KINDS, first, second]));
    expect(reader.kindOf({ group: 'x.io', kind: 'Widget' })).toBe(first);
    expect(reader.kindOf({ group: 'x.io', kind: 'Other' })).toBeUndefined();
  });

  it('is as stale as its stalest read, in whatever order the reads come', async () => {
    for (const [p, s, expected] of [
      ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z'],
      ['2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
      ['2026-01-01T00:00:00Z', undefined, '2026-01-01T00:00:00Z'],
      [undefined, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
      [undefined, undefined, undefined],
    ] as const) {
      const src = new FixtureSource();
      if (p) src.stale.set('pod', p);
      if (s) src.stale.set('service', s);
      const reader = await RelationReader.open(src);
      await reader.cache(kind('pod'));
      await reader.cache(kind('service'));
      expect(reader.staleSince, `${p} ${s}`).toBe(expected);
    }
  });
});

describe('dependentKinds', () => {
  it('are a built-in kind’s controller’s, none for other built-in kinds, common and own group for others', () => {
    const names = (k: KindRef) => dependentKinds(k, KINDS).map((g) => `${g.group}/${g.kind}`);
    expect(names(kind('deployment'))).toEqual(['apps/ReplicaSet']);
    expect(names(kind('cronjob'))).toEqual(['batch/Job']);
    expect(names(kind('configmap'))).toEqual([]);
    expect(names(kind('networkpolicy'))).toEqual([]);
    expect(names(kind('horizontalpodautoscaler'))).toEqual([]);
    expect(names(kind('certificate'))).toEqual([
      ...COMMON.map((g) => `${g.group}/${g.kind}`),
      'cert-manager.io/Certificate',
      'cert-manager.io/CertificateRequest',
      'cert-manager.io/ClusterIssuer',
    ]);
  });
});

describe('facts of bare and malformed objects', () => {
  it('read kinds without a spec, or with parts missing, as naming nothing', () => {
    for (const [apiVersion, kind] of [
      ['v1', 'PersistentVolumeClaim'],
      ['v1', 'PersistentVolume'],
      ['v1', 'ServiceAccount'],
      ['autoscaling/v2', 'HorizontalPodAutoscaler'],
      ['networking.k8s.io/v1', 'Ingress'],
      ['policy/v1', 'PodDisruptionBudget'],
      ['v1', 'Service'],
    ])
      expect(factsOfObject({ apiVersion, kind }), kind).toMatchObject({ uses: [], targets: [] });
    expect(
      factsOfObject({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        spec: { rules: [{ host: 'a' }, { http: {} }], tls: [{}] },
      }),
    ).toMatchObject({ uses: [], targets: [] });
    expect(
      factsOfObject({ apiVersion: 'v1', kind: 'PersistentVolume', spec: { claimRef: {} } }).uses,
    ).toEqual([]);
    expect(
      factsOfObject({ apiVersion: 'v1', kind: 'PersistentVolume', spec: { claimRef: { name: 'c' } } })
        .uses[0],
    ).toMatchObject({ namespace: '' });
  });

  it('name where each kind’s references come from', () => {
    const uses = (o: Record<string, unknown>) =>
      factsOfObject(o).uses.map((u) => `${u.target.kind}/${u.namespace ?? '-'}/${u.name} ${u.via}`);
    expect(
      uses({
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { namespace: 'ns' },
        secrets: [{ name: 'token' }, {}],
        imagePullSecrets: [{ name: 'pull' }],
      }),
    ).toEqual(['Secret/ns/token secrets', 'Secret/ns/pull imagePullSecrets']);
    expect(
      uses({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { namespace: 'ns' },
        spec: { ingressClassName: 'nginx', tls: [{ secretName: 'tls' }] },
      }),
    ).toEqual(['Secret/ns/tls spec.tls', 'IngressClass/-/nginx spec.ingressClassName']);
    expect(
      uses({
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        spec: { storageClassName: 'gp3', claimRef: { namespace: 'a', name: 'c' } },
      }),
    ).toEqual(['StorageClass/-/gp3 spec.storageClassName', 'PersistentVolumeClaim/a/c spec.claimRef']);
    expect(
      uses({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        spec: { volumeName: 'v', storageClassName: 's' },
      }),
    ).toEqual(['PersistentVolume/-/v spec.volumeName', 'StorageClass/-/s spec.storageClassName']);
    // A pod with no metadata has no name for its ephemeral claims, and no namespace but ''.
    expect(
      uses({
        apiVersion: 'v1',
        kind: 'Pod',
        spec: { volumes: [{ name: 'e', ephemeral: {} }], serviceAccountName: 'sa' },
      }),
    ).toEqual(['ServiceAccount//sa spec.serviceAccountName']);
  });

  it('keep uid and status undefined, not left out, when the object has none', () => {
    const facts = factsOfObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(facts).toHaveProperty('uid', undefined);
    expect(facts).toHaveProperty('status', undefined);
  });

  it('read strings and numbers only when they are ones', () => {
    expect(str('a')).toBe('a');
    expect(str('')).toBeUndefined();
    expect(str(1)).toBeUndefined();
    expect(str(['a'])).toBeUndefined();
    expect(num(2)).toBe(2);
    expect(num(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(num('2')).toBeUndefined();
  });

  it('read an expression without an operator as selecting nothing', () => {
    const [req] = labelSelector({ matchExpressions: [{ key: 'a' }] });
    expect(req).toMatchObject({ op: 'in', values: [] });
  });

  it('find the Secrets of every volume plugin that names one, and every container list', () => {
    const links = podSpecLinks(
      {
        volumes: ['cephfs', 'rbd', 'iscsi', 'flexVolume', 'scaleIO', 'storageos'].map((plugin) => ({
          name: plugin,
          [plugin]: { secretRef: { name: `${plugin}-creds` } },
        })),
        initContainers: [{ name: 'i', envFrom: [{ configMapRef: { name: 'init' } }] }],
        containers: [{ name: 'c', envFrom: [{ configMapRef: { name: 'main' } }] }],
        ephemeralContainers: [{ name: 'e', envFrom: [{ configMapRef: { name: 'debug' } }] }],
        priorityClassName: 'high',
      },
      'ns',
      'spec',
    );
    expect(links.map((l) => `${l.name} ${l.via}`)).toEqual([
      'cephfs-creds spec.volumes[cephfs]',
      'rbd-creds spec.volumes[rbd]',
      'iscsi-creds spec.volumes[iscsi]',
      'flexVolume-creds spec.volumes[flexVolume]',
      'scaleIO-creds spec.volumes[scaleIO]',
      'storageos-creds spec.volumes[storageos]',
      'init spec.initContainers[i].envFrom',
      'main spec.containers[c].envFrom',
      'debug spec.ephemeralContainers[e].envFrom',
      'default spec.serviceAccountName',
      'high spec.priorityClassName',
    ]);
    expect(links.find((l) => l.name === 'high')).toMatchObject({ namespace: undefined });
  });
});
