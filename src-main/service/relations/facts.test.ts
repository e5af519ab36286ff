/**
 * What relations keep of an object: read once per entry, safe on any JSON, and every field a pod
 * spec can name a ConfigMap, Secret or claim in (volume plugins' secret references included).
 */
import { describe, expect, it } from 'vitest';
import { resourceEntry } from '../cache/entries';
import { factsOf, factsOfObject } from './facts';
import { groupOf, num, objs, stringMap } from './json';
import { podSpecLinks } from './pod-refs';
import { labelSelector } from './selectors';

describe('factsOf', () => {
  it('parses an entry once and keeps what it read with it', () => {
    const entry = resourceEntry(
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'n', uid: 'u' } },
      'v1',
      'Pod',
    );
    const facts = factsOf(entry);
    expect(factsOf(entry)).toBe(facts);
    expect(facts).toMatchObject({
      group: '',
      kind: 'Pod',
      uid: 'u',
      status: 'Unknown',
      owners: [],
      targets: [],
    });
  });

  it('reads text that is no object, or no JSON, as an object of nothing', () => {
    for (const json of ['not json', '[1]', 'null', '"x"']) {
      const facts = factsOf({ key: 'k', namespace: '', name: 'k', labels: undefined, json });
      expect(facts).toEqual({ group: '', kind: '', owners: [], uses: [], targets: [] });
    }
  });

  it('keeps only well-formed ownerReferences, and which one is the controller', () => {
    const facts = factsOfObject({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true },
          { apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'u2', controller: 'yes' },
          { kind: 'X', name: 'x' },
          { kind: 'Y', uid: 'u3' },
          { name: 'z', uid: 'u4' },
          'junk',
        ],
      },
    });
    expect(facts.owners).toEqual([
      { group: 'apps', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true },
      { group: '', kind: 'Node', name: 'n', uid: 'u2', controller: false },
    ]);
  });

  it('reads a ConfigMap’s keys from data and binaryData, a stripped Secret’s from keys', () => {
    expect(
      factsOfObject({
        kind: 'ConfigMap',
        apiVersion: 'v1',
        data: { b: '1', a: '2' },
        binaryData: { c: 'x', a: 'y' },
      }).keys,
    ).toEqual(['a', 'b', 'c']);
    expect(
      factsOfObject({
        kind: 'Secret',
        apiVersion: 'v1',
        keys: [{ name: 'tls.key', bytes: 3 }, { bytes: 1 }, 'x'],
      }).keys,
    ).toEqual(['tls.key']);
    expect(factsOfObject({ kind: 'ConfigMap', apiVersion: 'v1' }).keys).toEqual([]);
    // Another group's ConfigMap is no ConfigMap.
    expect(
      factsOfObject({ kind: 'ConfigMap', apiVersion: 'x.io/v1', data: { a: '1' } }).keys,
    ).toBeUndefined();
  });

  it('reads selectors and targets of the kinds that have them, and nothing of malformed ones', () => {
    expect(
      factsOfObject({ kind: 'Service', apiVersion: 'v1', spec: { selector: { app: 'a', n: 1 } } })
        .podSelector,
    ).toEqual([{ key: 'app', op: '=', values: ['a'] }]);
    expect(
      factsOfObject({ kind: 'Service', apiVersion: 'v1', spec: { selector: { n: 1 } } }).podSelector,
    ).toBeUndefined();
    expect(factsOfObject({ kind: 'Service', apiVersion: 'v1' }).podSelector).toBeUndefined();
    expect(factsOfObject({ kind: 'NetworkPolicy', apiVersion: 'networking.k8s.io/v1' }).podSelector).toEqual(
      [],
    );
    expect(
      factsOfObject({
        kind: 'HorizontalPodAutoscaler',
        apiVersion: 'autoscaling/v2',
        spec: { scaleTargetRef: { name: 'x' } },
      }).targets,
    ).toEqual([]);
    expect(
      factsOfObject({
        kind: 'HorizontalPodAutoscaler',
        apiVersion: 'autoscaling/v1',
        spec: { scaleTargetRef: { kind: 'Rollout', apiVersion: 'argoproj.io/v1alpha1', name: 'r' } },
      }).targets,
    ).toEqual([{ group: 'argoproj.io', kind: 'Rollout', name: 'r', via: 'spec.scaleTargetRef' }]);
    expect(
      factsOfObject({
        kind: 'Ingress',
        apiVersion: 'networking.k8s.io/v1',
        spec: {
          defaultBackend: { resource: { kind: 'Bucket' } },
          rules: [{ http: { paths: [{ backend: {} }] } }],
        },
      }).targets,
    ).toEqual([]);
  });

  it('reads a claim’s and a volume’s references, and nothing where they name none', () => {
    expect(factsOfObject({ kind: 'PersistentVolumeClaim', apiVersion: 'v1', spec: {} }).uses).toEqual([]);
    expect(
      factsOfObject({ kind: 'PersistentVolume', apiVersion: 'v1', spec: { claimRef: { name: 'c' } } }).uses,
    ).toEqual([
      {
        target: { group: '', kind: 'PersistentVolumeClaim' },
        namespace: '',
        name: 'c',
        via: 'spec.claimRef',
        optional: false,
      },
    ]);
    expect(factsOfObject({ kind: 'Deployment', apiVersion: 'apps/v1', spec: {} }).uses).toEqual([]);
    expect(factsOfObject({ kind: 'Pod', apiVersion: 'v1' }).uses).toEqual([]);
    expect(
      factsOfObject({ kind: 'CronJob', apiVersion: 'batch/v1', spec: { jobTemplate: {} } }).uses,
    ).toEqual([]);
  });
});

describe('podSpecLinks', () => {
  it('finds the Secrets of volume plugins, the legacy serviceAccount field, and skips nameless references', () => {
    const links = podSpecLinks(
      {
        serviceAccount: 'legacy',
        volumes: [
          { name: 'csi', csi: { driver: 'x', nodePublishSecretRef: { name: 'csi-creds' } } },
          { name: 'ceph', cephfs: { secretRef: { name: 'ceph-creds' } } },
          { name: 'rbd', rbd: { secretRef: { name: 'rbd-creds' } } },
          { name: 'az', azureFile: { secretName: 'az-creds' } },
          { name: 'flex', flexVolume: { secretRef: {} } },
          { name: 'no-name', configMap: {} },
          { configMap: { name: 'nameless-volume' } },
          { name: 'eph', ephemeral: {} },
        ],
        containers: [{ env: [{ valueFrom: { secretKeyRef: { name: 's' } } }], envFrom: [{ prefix: 'X' }] }],
        imagePullSecrets: [{}, { name: 'pull' }],
      },
      'ns',
      'spec',
      'pod-1',
    );
    expect(links.map((l) => `${l.target.kind}/${l.name} ${l.via}${l.keys ? ` ${l.keys}` : ''}`)).toEqual([
      'Secret/csi-creds spec.volumes[csi]',
      'Secret/ceph-creds spec.volumes[ceph]',
      'Secret/rbd-creds spec.volumes[rbd]',
      'Secret/az-creds spec.volumes[az]',
      'ConfigMap/nameless-volume spec.volumes[]',
      'PersistentVolumeClaim/pod-1-eph spec.volumes[eph]',
      'Secret/s spec.containers[].env[]',
      'ServiceAccount/legacy spec.serviceAccountName',
      'Secret/pull spec.imagePullSecrets',
    ]);
    expect(links.every((l) => l.optional === false)).toBe(true);
    expect(links.find((l) => l.name === 'csi-creds')!.namespace).toBe('ns');
  });

  it('names a configMap volume’s projected keys, and only when it projects some', () => {
    const [withItems, without] = podSpecLinks(
      {
        volumes: [
          {
            name: 'a',
            configMap: { name: 'c', items: [{ key: 'k1' }, { path: 'p' }, { key: 'k2' }], optional: true },
          },
          { name: 'b', secret: { secretName: 's', items: [] } },
        ],
      },
      'ns',
      'spec',
    );
    expect(withItems).toMatchObject({ name: 'c', keys: ['k1', 'k2'], optional: true });
    expect(without!.keys).toBeUndefined();
  });
});

describe('json helpers', () => {
  it('read only what has the shape they expect', () => {
    expect(objs({})).toEqual([]);
    expect(objs([1, {}, null, [], { a: 1 }])).toEqual([{}, { a: 1 }]);
    expect(num(Number.NaN)).toBeUndefined();
    expect(num('1')).toBeUndefined();
    expect(num(0)).toBe(0);
    expect(stringMap([])).toBeUndefined();
    expect(stringMap({})).toBeUndefined();
    expect(groupOf(undefined)).toBe('');
    expect(groupOf('v1')).toBe('');
    expect(groupOf('apps/v1')).toBe('apps');
  });

  it('labelSelector turns expressions into requirements, and a bad one into none matching', () => {
    expect(
      labelSelector({
        matchLabels: { a: '1' },
        matchExpressions: [
          { key: 'b', operator: 'In', values: ['x', 2] },
          { key: 'c', operator: 'Exists' },
          { key: 'd', operator: 'DoesNotExist' },
          { key: 'e', operator: 'NotIn', values: ['y'] },
        ],
      }),
    ).toEqual([
      { key: 'a', op: '=', values: ['1'] },
      { key: 'b', op: 'in', values: ['x'] },
      { key: 'c', op: 'exists', values: [] },
      { key: 'd', op: '!exists', values: [] },
      { key: 'e', op: 'notin', values: ['y'] },
    ]);
    const bad = labelSelector({ matchExpressions: [{ operator: 'In', values: ['x'] }] });
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatchObject({ op: 'in', values: [] });
  });
});
