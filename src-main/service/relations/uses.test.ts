/**
 * `uses` and `usedBy` over real Collections: every place a pod spec names a ConfigMap, Secret or
 * claim, the claim's volume and StorageClass, the ServiceAccount, Node, PriorityClass and pull
 * secrets; missing objects and keys; templates of workloads and CronJobs; the inverse through the
 * kept index, workloads only at the top; the bound on a long list. Fixtures out of answer order.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import type { RelationRef } from '../../../src-shared/contract/relations-operations';
import { FixtureSource, forbidden, KINDS, obj, ownedBy } from './fixtures.test-support';
import { MAX_REFS } from './refs';
import { relationsOf } from './relations';

const kind = (t: string) => KINDS.find((k) => k.resourceType === t)!;
const secret = (name: string, keys: string[]) =>
  obj('v1', 'Secret', name, 'shop', { type: 'Opaque', keys: keys.map((k) => ({ name: k, bytes: 4 })) });

function podSpec(): Record<string, unknown> {
  return {
    volumes: [
      { name: 'config', configMap: { name: 'app-config' } },
      {
        name: 'creds',
        secret: { secretName: 'postgres-credentials', items: [{ key: 'password', path: 'pw' }] },
      },
      { name: 'data', persistentVolumeClaim: { claimName: 'data-postgres-0' } },
      { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } },
      {
        name: 'bundle',
        projected: {
          sources: [
            { configMap: { name: 'kube-root-ca.crt' } },
            { secret: { name: 'projected-secret', optional: true } },
            { serviceAccountToken: { path: 'token' } },
          ],
        },
      },
    ],
    initContainers: [{ name: 'migrate', envFrom: [{ secretRef: { name: 'postgres-credentials' } }] }],
    containers: [
      {
        name: 'app',
        envFrom: [{ configMapRef: { name: 'checkout-config' } }],
        env: [
          { name: 'PLAIN', value: 'x' },
          { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db-credentials', key: 'password' } } },
          { name: 'API_KEY', valueFrom: { secretKeyRef: { name: 'postgres-credentials', key: 'api-key' } } },
          {
            name: 'MODE',
            valueFrom: { configMapKeyRef: { name: 'checkout-config', key: 'mode', optional: true } },
          },
        ],
      },
    ],
    serviceAccountName: 'checkout',
    priorityClassName: 'high',
    imagePullSecrets: [{ name: 'regcred' }],
  };
}

function world() {
  const cm = obj('v1', 'ConfigMap', 'checkout-config', 'shop', { data: { LOG_LEVEL: 'info' } });
  const root = obj('v1', 'ConfigMap', 'kube-root-ca.crt', 'shop', { data: { 'ca.crt': 'x' } });
  const creds = secret('postgres-credentials', ['username', 'password']);
  const regcred = secret('regcred', ['.dockerconfigjson']);
  const sc = obj('storage.k8s.io/v1', 'StorageClass', 'gp3', undefined, { provisioner: 'ebs' });
  const pv = obj('v1', 'PersistentVolume', 'pv-1', undefined, {
    spec: { storageClassName: 'gp3', claimRef: { namespace: 'shop', name: 'data-postgres-0' } },
    status: { phase: 'Bound' },
  });
  const claim = obj('v1', 'PersistentVolumeClaim', 'data-postgres-0', 'shop', {
    spec: { volumeName: 'pv-1', storageClassName: 'gp3' },
    status: { phase: 'Bound' },
  });
  const sa = obj('v1', 'ServiceAccount', 'checkout', 'shop', { imagePullSecrets: [{ name: 'regcred' }] });
  const node = obj('v1', 'Node', 'node-1', undefined, {
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  });
  const deploy = obj('apps/v1', 'Deployment', 'checkout', 'shop', {
    spec: { template: { spec: podSpec() } },
  });
  const rs = obj(
    'apps/v1',
    'ReplicaSet',
    'checkout-5f',
    'shop',
    { spec: { template: { spec: podSpec() } } },
    ownedBy(deploy),
  );
  const pod = obj(
    'v1',
    'Pod',
    'checkout-1',
    'shop',
    { spec: { ...podSpec(), nodeName: 'node-1' } },
    ownedBy(rs),
  );
  const objects: KubeObject[] = [pod, node, sa, claim, pv, sc, regcred, creds, root, cm, rs, deploy];
  return { objects, cm, creds, pv, claim, sa, node, deploy, rs, pod, sc };
}

const brief = (r: RelationRef) =>
  [
    `${r.resourceType}/${r.namespace ? `${r.namespace}/` : ''}${r.name}`,
    r.missing ? 'missing' : r.uid ? 'found' : 'unknown',
    ...(r.optional ? ['optional'] : []),
    ...(r.missingKeys ? [`lacks ${r.missingKeys.join(',')}`] : []),
  ].join(' ');

describe('uses', () => {
  it('of a pod: volumes, projected sources, env, envFrom, claims with their volume and class, SA, node, priority, pull secrets', async () => {
    const w = world();
    const { relations } = await relationsOf(new FixtureSource(w.objects), kind('pod'), 'shop', 'checkout-1');
    expect(relations.uses.map(brief)).toEqual([
      'configmap/shop/app-config missing',
      'configmap/shop/checkout-config found',
      'configmap/shop/kube-root-ca.crt found',
      'node/node-1 found',
      'persistentvolume/pv-1 found',
      'persistentvolumeclaim/shop/checkout-1-scratch missing',
      'persistentvolumeclaim/shop/data-postgres-0 found',
      'priorityclass/high missing',
      'secret/shop/db-credentials missing',
      'secret/shop/postgres-credentials found lacks api-key',
      'secret/shop/projected-secret missing optional',
      'secret/shop/regcred found',
      'serviceaccount/shop/checkout found',
      'storageclass/gp3 found',
    ]);
    const by = (name: string) => relations.uses.find((r) => r.name === name)!;
    expect(by('postgres-credentials').via).toEqual([
      'spec.volumes[creds]',
      'spec.initContainers[migrate].envFrom',
      'spec.containers[app].env[API_KEY]',
    ]);
    expect(by('checkout-config').via).toEqual([
      'spec.containers[app].envFrom',
      'spec.containers[app].env[MODE]',
    ]);
    // Optional in one reference, required in another: not optional.
    expect(by('checkout-config').optional).toBeUndefined();
    expect(by('pv-1')).toEqual({
      resourceType: 'persistentvolume',
      name: 'pv-1',
      uid: w.pv.metadata.uid,
      status: 'Bound',
      via: ['persistentvolumeclaim/data-postgres-0: spec.volumeName'],
    });
    expect(by('gp3').via).toEqual(['persistentvolumeclaim/data-postgres-0: spec.storageClassName']);
    expect(by('node-1')).toMatchObject({ status: 'Ready', via: ['spec.nodeName'] });
    expect(by('regcred').via).toEqual(['spec.imagePullSecrets']);
    expect(by('app-config')).toEqual({
      resourceType: 'configmap',
      namespace: 'shop',
      name: 'app-config',
      missing: true,
      via: ['spec.volumes[config]'],
    });
  });

  it('of a workload are its pod template’s, with template paths; a CronJob’s go through its job template', async () => {
    const w = world();
    const cron = obj('batch/v1', 'CronJob', 'report', 'shop', {
      spec: {
        jobTemplate: {
          spec: {
            template: {
              spec: { containers: [{ name: 'r', envFrom: [{ configMapRef: { name: 'checkout-config' } }] }] },
            },
          },
        },
      },
    });
    const src = new FixtureSource([...w.objects, cron]);
    const deploy = (await relationsOf(src, kind('deployment'), 'shop', 'checkout')).relations;
    expect(deploy.uses.map(brief)).toContain('configmap/shop/app-config missing');
    // A template has no node and no pod name (no ephemeral claim yet).
    expect(deploy.uses.some((r) => r.resourceType === 'node')).toBe(false);
    expect(deploy.uses.some((r) => r.name.includes('scratch'))).toBe(false);
    expect(deploy.uses.find((r) => r.name === 'app-config')!.via).toEqual([
      'spec.template.spec.volumes[config]',
    ]);
    expect(deploy.uses.find((r) => r.name === 'checkout')!.via).toEqual([
      'spec.template.spec.serviceAccountName',
    ]);
    const report = (await relationsOf(src, kind('cronjob'), 'shop', 'report')).relations;
    expect(report.uses.map((r) => `${brief(r)} ${r.via?.join(';')}`)).toEqual([
      'configmap/shop/checkout-config found spec.jobTemplate.spec.template.spec.containers[r].envFrom',
      'serviceaccount/shop/default missing spec.jobTemplate.spec.template.spec.serviceAccountName',
    ]);
  });

  it('of a claim, a volume, an Ingress and a ServiceAccount', async () => {
    const w = world();
    const cls = obj('networking.k8s.io/v1', 'IngressClass', 'nginx', undefined);
    const ing = obj('networking.k8s.io/v1', 'Ingress', 'shop', 'shop', {
      spec: { ingressClassName: 'nginx', tls: [{ secretName: 'shop-tls' }, { hosts: ['a'] }] },
    });
    const src = new FixtureSource([...w.objects, ing, cls]);
    const names = async (t: string, ns: string | undefined, name: string) =>
      (await relationsOf(src, kind(t), ns, name)).relations.uses.map(brief);
    expect(await names('persistentvolumeclaim', 'shop', 'data-postgres-0')).toEqual([
      'persistentvolume/pv-1 found',
      'storageclass/gp3 found',
    ]);
    expect(await names('persistentvolume', undefined, 'pv-1')).toEqual([
      'persistentvolumeclaim/shop/data-postgres-0 found',
      'storageclass/gp3 found',
    ]);
    expect(await names('ingress', 'shop', 'shop')).toEqual([
      'ingressclass/nginx found',
      'secret/shop/shop-tls missing',
    ]);
    expect(await names('serviceaccount', 'shop', 'checkout')).toEqual(['secret/shop/regcred found']);
    expect(await names('configmap', 'shop', 'checkout-config')).toEqual([]);
  });

  it('of a kind that cannot be read are neither found nor missing, and the kind is a gap', async () => {
    const w = world();
    const src = new FixtureSource(w.objects);
    src.failing.set('secret', forbidden('secrets'));
    const { relations } = await relationsOf(src, kind('pod'), 'shop', 'checkout-1');
    expect(relations.uses.filter((r) => r.resourceType === 'secret').map(brief)).toEqual([
      'secret/shop/db-credentials unknown',
      'secret/shop/postgres-credentials unknown',
      'secret/shop/projected-secret unknown optional',
      'secret/shop/regcred unknown',
    ]);
    expect(relations.gaps).toEqual([
      { resourceType: 'secret', detail: 'cluster_unauthorized: the cluster refused to list secrets (403)' },
    ]);
    const unserved = new FixtureSource(
      w.objects.filter((o) => o.kind !== 'StorageClass'),
      KINDS.filter((k) => k.kind !== 'StorageClass' && k.kind !== 'PriorityClass'),
    );
    const r2 = (await relationsOf(unserved, kind('pod'), 'shop', 'checkout-1')).relations;
    expect(r2.uses.filter((r) => r.resourceType.includes('class')).map(brief)).toEqual([
      'priorityclass.scheduling.k8s.io/high unknown',
      'storageclass.storage.k8s.io/gp3 unknown',
    ]);
  });
});

describe('uses and usedBy, told apart', () => {
  it('look up only claims as claims, and give each use its own fields', async () => {
    const w = world();
    const pod = obj('v1', 'Pod', 'p', 'shop', {
      spec: {
        volumes: [
          { name: 'a', configMap: { name: 'data-postgres-0' } },
          { name: 'b', secret: { secretName: 'data-postgres-0' } },
        ],
      },
    });
    const cm = obj('v1', 'ConfigMap', 'data-postgres-0', 'shop');
    const src = new FixtureSource([...w.objects, pod, cm]);
    const uses = (await relationsOf(src, kind('pod'), 'shop', 'p')).relations.uses;
    // A ConfigMap and a Secret named like a claim bring no volume or StorageClass.
    expect(uses.map(brief)).toEqual([
      'configmap/shop/data-postgres-0 found',
      'secret/shop/data-postgres-0 missing',
      'serviceaccount/shop/default missing',
    ]);
    const usedBy = (await relationsOf(src, kind('configmap'), 'shop', 'data-postgres-0')).relations.usedBy;
    expect(usedBy).toEqual([expect.objectContaining({ name: 'p', via: ['spec.volumes[a]'] })]);
  });

  it(`cut a pod’s uses at ${MAX_REFS}, saying how many it left off`, async () => {
    const volumes = Array.from({ length: MAX_REFS + 1 }, (_, i) => ({
      name: `v${i}`,
      configMap: { name: `c${i}` },
    }));
    const pod = obj('v1', 'Pod', 'p', 'shop', { spec: { volumes } });
    const { relations } = await relationsOf(new FixtureSource([pod]), kind('pod'), 'shop', 'p');
    expect(relations.uses).toHaveLength(MAX_REFS);
    expect(relations.leftOff).toEqual({ uses: 2 });
    expect(relations.truncated).toBe(true);
  });

  it('read the users that can be read: unserved kinds skipped, failing ones gaps', async () => {
    const w = world();
    const served = KINDS.filter(
      (k) => k.resourceType !== 'replicationcontroller' && k.resourceType !== 'cronjob',
    );
    const src = new FixtureSource(w.objects, served);
    src.failing.set('job', forbidden('jobs'));
    const { relations } = await relationsOf(src, kind('configmap'), 'shop', 'checkout-config');
    expect(relations.usedBy.map((r) => `${r.resourceType}/${r.name}`)).toEqual([
      'deployment/checkout',
      'pod/checkout-1',
    ]);
    expect(relations.gaps).toEqual([{ resourceType: 'job', detail: expect.stringContaining('jobs') }]);
  });
});

describe('usedBy', () => {
  it('lists the pods and the top workloads (not their ReplicaSets) whose specs name the object', async () => {
    const w = world();
    const other = obj('v1', 'Pod', 'checkout-0', 'shop', {
      spec: { volumes: [{ name: 'c', configMap: { name: 'checkout-config' } }] },
    });
    const elsewhere = obj('v1', 'Pod', 'checkout-9', 'other', {
      spec: { volumes: [{ name: 'c', configMap: { name: 'checkout-config' } }] },
    });
    const src = new FixtureSource([elsewhere, ...w.objects, other]);
    const { relations } = await relationsOf(src, kind('configmap'), 'shop', 'checkout-config');
    expect(relations.usedBy.map((r) => `${r.resourceType}/${r.name} ${r.via?.join(';')}`)).toEqual([
      'deployment/checkout spec.template.spec.containers[app].envFrom;spec.template.spec.containers[app].env[MODE]',
      'pod/checkout-0 spec.volumes[c]',
      'pod/checkout-1 spec.containers[app].envFrom;spec.containers[app].env[MODE]',
    ]);
  });

  it('of a Secret, claim, volume, class, ServiceAccount, node and IngressClass', async () => {
    const w = world();
    const ing = obj('networking.k8s.io/v1', 'Ingress', 'shop', 'shop', {
      spec: { ingressClassName: 'nginx', tls: [{ secretName: 'regcred' }] },
    });
    const cls = obj('networking.k8s.io/v1', 'IngressClass', 'nginx', undefined);
    const src = new FixtureSource([...w.objects, cls, ing]);
    const users = async (t: string, ns: string | undefined, name: string) =>
      (await relationsOf(src, kind(t), ns, name)).relations.usedBy.map((r) => `${r.resourceType}/${r.name}`);
    expect(await users('secret', 'shop', 'regcred')).toEqual([
      'deployment/checkout',
      'ingress/shop',
      'pod/checkout-1',
      'serviceaccount/checkout',
    ]);
    expect(await users('persistentvolumeclaim', 'shop', 'data-postgres-0')).toEqual([
      'deployment/checkout',
      'persistentvolume/pv-1',
      'pod/checkout-1',
    ]);
    expect(await users('persistentvolume', undefined, 'pv-1')).toEqual([
      'persistentvolumeclaim/data-postgres-0',
    ]);
    expect(await users('storageclass', undefined, 'gp3')).toEqual([
      'persistentvolume/pv-1',
      'persistentvolumeclaim/data-postgres-0',
    ]);
    expect(await users('serviceaccount', 'shop', 'checkout')).toEqual([
      'deployment/checkout',
      'pod/checkout-1',
    ]);
    expect(await users('node', undefined, 'node-1')).toEqual(['pod/checkout-1']);
    expect(await users('ingressclass', undefined, 'nginx')).toEqual(['ingress/shop']);
    expect(await users('deployment', 'shop', 'checkout')).toEqual([]);
  });

  it('follows the caches as they change, without a rebuild of what did not', async () => {
    const w = world();
    const src = new FixtureSource(w.objects);
    const users = async () =>
      (await relationsOf(src, kind('node'), undefined, 'node-1')).relations.usedBy.map((r) => r.name);
    expect(await users()).toEqual(['checkout-1']);
    const moved = { ...w.pod, spec: { ...(w.pod.spec ?? {}), nodeName: 'node-2' } } as KubeObject;
    src.upsert(moved);
    src.upsert(obj('v1', 'Pod', 'a-new', 'shop', { spec: { nodeName: 'node-1' } }));
    expect(await users()).toEqual(['a-new']);
    src.delete(moved);
    src.upsert({
      ...moved,
      metadata: { ...moved.metadata, name: 'zz' },
      spec: { nodeName: 'node-1' },
    } as KubeObject);
    expect(await users()).toEqual(['a-new', 'zz']);
  });

  it(`is cut at ${MAX_REFS} refs, saying how many it left off`, async () => {
    const pods = Array.from({ length: MAX_REFS + 3 }, (_, i) =>
      obj('v1', 'Pod', `p-${String(MAX_REFS + 3 - i).padStart(5, '0')}`, 'shop', { spec: {} }),
    );
    const sa = obj('v1', 'ServiceAccount', 'default', 'shop');
    const deploy = obj('apps/v1', 'Deployment', 'a', 'shop', { spec: { template: { spec: {} } } });
    const { relations } = await relationsOf(
      new FixtureSource([...pods, sa, deploy]),
      kind('serviceaccount'),
      'shop',
      'default',
    );
    expect(relations.usedBy).toHaveLength(MAX_REFS);
    expect(relations.usedBy[0]).toMatchObject({ resourceType: 'deployment', name: 'a' });
    expect(relations.usedBy[1]).toMatchObject({
      resourceType: 'pod',
      name: 'p-00001',
      via: ['spec.serviceAccountName'],
    });
    expect(relations.leftOff).toEqual({ usedBy: 4 });
    expect(relations.truncated).toBe(true);
  });
});
