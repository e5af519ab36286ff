import { describe, expect, it } from 'vitest';
import {
  groupOf,
  isOwnGroup,
  mergeChecks,
  messageChecks,
  podUses,
  refKey,
  refOf,
  refsInMessage,
  usedObjectChecks,
} from './refs';

describe('podUses', () => {
  it('names every ConfigMap, Secret and claim of volumes, projected sources, env and envFrom, in spec order', () => {
    const uses = podUses('shop', {
      volumes: [
        { name: 'config', configMap: { name: 'app-config' } },
        { name: 'tls', secret: { secretName: 'app-tls' } },
        { name: 'data', persistentVolumeClaim: { claimName: 'data-0' } },
        {
          name: 'bundle',
          projected: { sources: [{ configMap: { name: 'ca' } }, { secret: { name: 'token' } }] },
        },
        { name: 'scratch' },
      ],
      initContainers: [{ name: 'migrate', envFrom: [{ secretRef: { name: 'db' } }] }],
      containers: [
        {
          name: 'app',
          env: [
            { name: 'PLAIN' },
            { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'flags' } } },
            { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'db-credentials' } } },
          ],
          envFrom: [{ configMapRef: { name: 'env' } }],
        },
      ],
    });
    expect(uses.map((u) => [u.kind, u.ref.name, u.via])).toEqual([
      ['ConfigMap', 'app-config', 'volume "config"'],
      ['Secret', 'app-tls', 'volume "tls"'],
      ['PersistentVolumeClaim', 'data-0', 'volume "data"'],
      ['ConfigMap', 'ca', 'volume "bundle"'],
      ['Secret', 'token', 'volume "bundle"'],
      ['Secret', 'db', 'envFrom of container migrate'],
      ['ConfigMap', 'flags', 'env MODE of container app'],
      ['Secret', 'db-credentials', 'env PASSWORD of container app'],
      ['ConfigMap', 'env', 'envFrom of container app'],
    ]);
    expect(uses[0]?.ref).toEqual({ resourceType: 'configmap', namespace: 'shop', name: 'app-config' });
    expect(uses[1]?.ref.resourceType).toBe('secret');
    expect(uses[2]?.ref.resourceType).toBe('persistentvolumeclaim');
    expect(uses.every((u) => !u.optional)).toBe(true);
  });

  it('lists an object once, at its first use; optional only while every use is', () => {
    const uses = podUses('ns', {
      volumes: [
        { name: 'a', configMap: { name: 'shared', optional: true } },
        { name: 'b', secret: { secretName: 'opt', optional: true } },
      ],
      containers: [
        {
          name: 'c',
          envFrom: [{ configMapRef: { name: 'shared' } }, { secretRef: { name: 'opt', optional: true } }],
        },
      ],
    });
    expect(uses.map((u) => [u.ref.name, u.via, u.optional])).toEqual([
      ['shared', 'volume "a"', false],
      ['opt', 'volume "b"', true],
    ]);
  });

  it('a ConfigMap and a Secret of the same name are two objects', () => {
    const uses = podUses('ns', {
      volumes: [
        { name: 'a', configMap: { name: 'same' } },
        { name: 'b', secret: { secretName: 'same' } },
      ],
    });
    expect(uses.map((u) => u.kind)).toEqual(['ConfigMap', 'Secret']);
  });

  it('skips sources without a name, and sets no namespace when the pod has none', () => {
    const uses = podUses(undefined, {
      volumes: [
        { name: 'a', configMap: {} },
        { name: 'b', secret: {} },
        { name: 'c', persistentVolumeClaim: {} },
        { name: 'd', configMap: { name: 'x' } },
      ],
    });
    expect(uses.map((u) => u.ref)).toStrictEqual([{ resourceType: 'configmap', name: 'x' }]);
    expect(podUses('ns', null)).toEqual([]);
    expect(podUses('ns', {})).toEqual([]);
  });
});

describe('refsInMessage', () => {
  it('reads the objects kubelet, controllers and admission name as not found, in message order', () => {
    const named = refsInMessage(
      'secret "db" not found; configmap "app-config" not found, persistentvolumeclaim "data" not found',
      'shop',
    );
    expect(named).toEqual([
      { kind: 'Secret', ref: { resourceType: 'secret', namespace: 'shop', name: 'db' } },
      { kind: 'ConfigMap', ref: { resourceType: 'configmap', namespace: 'shop', name: 'app-config' } },
      {
        kind: 'PersistentVolumeClaim',
        ref: { resourceType: 'persistentvolumeclaim', namespace: 'shop', name: 'data' },
      },
    ]);
  });

  it.each([
    ['configmaps "a" not found', 'configmap', 'a'],
    ['Secrets "b" not found', 'secret', 'b'],
    ['persistentvolumeclaims "c" not found', 'persistentvolumeclaim', 'c'],
    ['error looking up service account ns/x: serviceaccount "x" not found', 'serviceaccount', 'x'],
    ['serviceaccounts "y" not found', 'serviceaccount', 'y'],
    ['services "web" not found', 'service', 'web'],
    ['service "api" not found', 'service', 'api'],
  ])('%s names a %s in the namespace', (message, resourceType, name) => {
    expect(refsInMessage(message, 'ns').map((n) => n.ref)).toEqual([{ resourceType, namespace: 'ns', name }]);
  });

  it.each([
    'storageclass.storage.k8s.io "fast" not found',
    'storageclasses.storage.k8s.io "fast" not found',
    'storageclass "fast" not found',
  ])('%s names a cluster-scoped StorageClass', (message) => {
    expect(refsInMessage(`Failed to provision volume with StorageClass "fast": ${message}`, 'ns')).toEqual([
      { kind: 'StorageClass', ref: { resourceType: 'storageclass', name: 'fast' } },
    ]);
  });

  it('reads the quota a refusal names, up to the comma', () => {
    const msg =
      'Error creating: pods "q-1" is forbidden: exceeded quota: compute-quota, requested: limits.memory=2Gi';
    expect(refsInMessage(msg, 'demo')).toEqual([
      {
        kind: 'ResourceQuota',
        ref: { resourceType: 'resourcequota', namespace: 'demo', name: 'compute-quota' },
      },
    ]);
    expect(refsInMessage('exceeded quota: q', 'demo').map((n) => n.ref.name)).toEqual(['q']);
  });

  it('names each object once, and no namespace when the object has none', () => {
    const named = refsInMessage('secret "s" not found ... secret "s" not found', undefined);
    expect(named).toEqual([{ kind: 'Secret', ref: { resourceType: 'secret', name: 's' } }]);
  });

  it('needs the kind as a word and "not found" after the name', () => {
    expect(refsInMessage('mysecret "s" not found', 'ns')).toEqual([]);
    expect(refsInMessage('secret "s" exists', 'ns')).toEqual([]);
    expect(refsInMessage('Pulling image "nginx"', 'ns')).toEqual([]);
  });
});

describe('check steps', () => {
  it('a message step per named object', () => {
    expect(messageChecks('secret "db" not found', 'ns')).toEqual([
      {
        text: 'Secret db is named in the message.',
        ref: { resourceType: 'secret', namespace: 'ns', name: 'db' },
      },
    ]);
    expect(messageChecks(undefined, 'ns')).toEqual([]);
  });

  it('a step per object the pod needs; optional ones are left out', () => {
    const uses = podUses('ns', {
      volumes: [
        { name: 'a', configMap: { name: 'needed' } },
        { name: 'b', configMap: { name: 'maybe', optional: true } },
      ],
    });
    expect(usedObjectChecks(uses)).toEqual([
      {
        text: 'ConfigMap needed, used by volume "a".',
        ref: { resourceType: 'configmap', namespace: 'ns', name: 'needed' },
      },
    ]);
  });

  it('merging keeps each object once, the first step naming it, and every step without a ref', () => {
    const a = { resourceType: 'secret', namespace: 'ns', name: 'a' };
    const merged = mergeChecks(
      [{ text: 'first', ref: a }, { text: 'plain' }],
      [{ text: 'second', ref: { ...a } }, { text: 'plain' }, { text: 'other', ref: { ...a, name: 'b' } }],
    );
    expect(merged.map((c) => c.text)).toEqual(['first', 'plain', 'plain', 'other']);
  });
});

describe('refOf and refKey', () => {
  it('Kubernetes’ own groups go by the bare singular, any other group is qualified', () => {
    expect(refOf('apps/v1', 'Deployment', 'web', 'shop')).toEqual({
      resourceType: 'deployment',
      namespace: 'shop',
      name: 'web',
    });
    expect(refOf('v1', 'Pod', 'p').resourceType).toBe('pod');
    expect(refOf(undefined, 'Pod', 'p')).toStrictEqual({ resourceType: 'pod', name: 'p' });
    expect(refOf('networking.k8s.io/v1', 'Ingress', 'i').resourceType).toBe('ingress');
    expect(refOf('argoproj.io/v1alpha1', 'Rollout', 'r', 'ns').resourceType).toBe('rollout.argoproj.io');
    expect(refOf('cert-manager.io/v1', 'Certificate', 'c').resourceType).toBe('certificate.cert-manager.io');
  });

  it('a key tells apart kind, namespace and name', () => {
    const keys = [
      refKey({ resourceType: 'secret', namespace: 'a', name: 'b' }),
      refKey({ resourceType: 'configmap', namespace: 'a', name: 'b' }),
      refKey({ resourceType: 'secret', namespace: 'x', name: 'b' }),
      refKey({ resourceType: 'secret', name: 'b' }),
      refKey({ resourceType: 'secret', namespace: 'a', name: 'c' }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(refKey({ resourceType: 'secret', namespace: 'a', name: 'b' })).toBe(
      refKey({ resourceType: 'secret', namespace: 'a', name: 'b', missing: true }),
    );
  });
});

describe('groupOf and isOwnGroup', () => {
  it('the group is what comes before the slash; the core group has none', () => {
    expect(groupOf('apps/v1')).toBe('apps');
    expect(groupOf('cert-manager.io/v1')).toBe('cert-manager.io');
    expect(groupOf('v1')).toBe('');
    expect(groupOf(undefined)).toBe('');
  });

  it('Kubernetes’ own groups are the dotless ones and *.k8s.io', () => {
    expect(['', 'apps', 'batch', 'networking.k8s.io', 'storage.k8s.io'].map(isOwnGroup)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['cert-manager.io', 'k8s.io.example.com', 'fluxcd.io'].map(isOwnGroup)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
