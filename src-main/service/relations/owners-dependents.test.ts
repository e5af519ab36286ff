/**
 * Owners up the controller chain and the dependents tree, over real Collections: chains of any
 * kind, owners missing or recreated, unreadable or unserved kinds, cycles, and the tree's order,
 * depth and size bounds. Fixtures are added out of the answer's order.
 */
import { describe, expect, it } from 'vitest';
import type { DependentRef } from '../../../src-shared/contract/relations-operations';
import { MAX_DEPTH } from './dependents';
import { FixtureSource, forbidden, KINDS, obj, ownedBy } from './fixtures.test-support';
import { MAX_CHAIN } from './owners';
import { MAX_REFS } from './refs';
import { relationsOf } from './relations';

const kind = (t: string) => KINDS.find((k) => k.resourceType === t)!;

function workload() {
  const deploy = obj('apps/v1', 'Deployment', 'web', 'shop', {
    spec: { replicas: 2 },
    status: { readyReplicas: 1 },
  });
  const rs = obj(
    'apps/v1',
    'ReplicaSet',
    'web-7d9',
    'shop',
    { spec: { replicas: 2 }, status: { readyReplicas: 1 } },
    ownedBy(deploy),
  );
  const oldRs = obj('apps/v1', 'ReplicaSet', 'web-5c4', 'shop', { spec: { replicas: 0 } }, ownedBy(deploy));
  const podB = obj('v1', 'Pod', 'web-7d9-b', 'shop', { status: { phase: 'Running' } }, ownedBy(rs));
  const podA = obj('v1', 'Pod', 'web-7d9-a', 'shop', { status: { phase: 'Pending' } }, ownedBy(rs));
  return { deploy, rs, oldRs, podA, podB };
}

describe('owners', () => {
  it('climb the controller ownerReferences to the root, nearest first', async () => {
    const w = workload();
    const src = new FixtureSource([w.podB, w.podA, w.deploy, w.oldRs, w.rs]);
    const { relations } = await relationsOf(src, kind('pod'), 'shop', 'web-7d9-a');
    expect(relations.object).toEqual({
      resourceType: 'pod',
      namespace: 'shop',
      name: 'web-7d9-a',
      uid: w.podA.metadata.uid,
      status: 'Pending',
    });
    expect(relations.owners).toEqual([
      {
        resourceType: 'replicaset',
        namespace: 'shop',
        name: 'web-7d9',
        uid: w.rs.metadata.uid,
        status: '1/2',
      },
      {
        resourceType: 'deployment',
        namespace: 'shop',
        name: 'web',
        uid: w.deploy.metadata.uid,
        status: '1/2',
      },
    ]);
  });

  it('follow Pod → Job → CronJob, and a cluster-scoped owner of a namespaced object', async () => {
    const cron = obj('batch/v1', 'CronJob', 'nightly', 'ops', { spec: { schedule: '0 0 * * *' } });
    const job = obj('batch/v1', 'Job', 'nightly-29000', 'ops', {}, ownedBy(cron));
    const pod = obj('v1', 'Pod', 'nightly-29000-x', 'ops', {}, ownedBy(job));
    const node = obj('v1', 'Node', 'node-1', undefined);
    const mirror = obj('v1', 'Pod', 'kube-apiserver-node-1', 'kube-system', {}, ownedBy(node));
    const src = new FixtureSource([pod, mirror, node, job, cron]);
    const chain = (await relationsOf(src, kind('pod'), 'ops', pod.metadata.name)).relations.owners;
    expect(chain.map((r) => `${r.resourceType}/${r.name}`)).toEqual(['job/nightly-29000', 'cronjob/nightly']);
    const up = (await relationsOf(src, kind('pod'), 'kube-system', mirror.metadata.name)).relations.owners;
    expect(up).toEqual([{ resourceType: 'node', name: 'node-1', uid: node.metadata.uid, status: 'Unknown' }]);
  });

  it('take only the controller reference, and any kind (a custom resource owning a Secret)', async () => {
    const cert = obj('cert-manager.io/v1', 'Certificate', 'shop-tls', 'shop', {
      status: { conditions: [{ type: 'Ready', status: 'False' }] },
    });
    const other = obj('v1', 'ConfigMap', 'other', 'shop');
    const secret = obj(
      'v1',
      'Secret',
      'shop-tls',
      'shop',
      {},
      {
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: other.metadata.uid },
          {
            apiVersion: 'cert-manager.io/v1',
            kind: 'Certificate',
            name: 'shop-tls',
            uid: cert.metadata.uid,
            controller: true,
          },
        ],
      },
    );
    const src = new FixtureSource([secret, other, cert]);
    const { relations } = await relationsOf(src, kind('secret'), 'shop', 'shop-tls');
    expect(relations.owners).toEqual([
      {
        resourceType: 'certificate',
        namespace: 'shop',
        name: 'shop-tls',
        uid: cert.metadata.uid,
        status: 'NotReady',
      },
    ]);
  });

  it('end at a missing owner, marked missing with the uid its reference names', async () => {
    const w = workload();
    const src = new FixtureSource([w.podA, w.rs]);
    const { relations } = await relationsOf(src, kind('pod'), 'shop', 'web-7d9-a');
    expect(relations.owners).toEqual([
      expect.objectContaining({ resourceType: 'replicaset', name: 'web-7d9' }),
      {
        resourceType: 'deployment',
        namespace: 'shop',
        name: 'web',
        uid: w.deploy.metadata.uid,
        missing: true,
      },
    ]);
  });

  it('count an owner recreated under the same name (another uid) as missing', async () => {
    const w = workload();
    const again = obj('apps/v1', 'ReplicaSet', 'web-7d9', 'shop');
    const src = new FixtureSource([w.podA, again]);
    const { relations } = await relationsOf(src, kind('pod'), 'shop', 'web-7d9-a');
    expect(relations.owners).toEqual([
      {
        resourceType: 'replicaset',
        namespace: 'shop',
        name: 'web-7d9',
        uid: w.rs.metadata.uid,
        missing: true,
      },
    ]);
  });

  it('end unmarked at an owner whose kind cannot be read, naming the kind in gaps', async () => {
    const w = workload();
    const src = new FixtureSource([w.podA, w.rs, w.deploy]);
    src.failing.set('replicaset', forbidden('replicasets'));
    const { relations } = await relationsOf(src, kind('pod'), 'shop', 'web-7d9-a');
    expect(relations.owners).toEqual([
      { resourceType: 'replicaset', namespace: 'shop', name: 'web-7d9', uid: w.rs.metadata.uid },
    ]);
    expect(relations.gaps).toEqual([
      {
        resourceType: 'replicaset',
        detail: 'cluster_unauthorized: the cluster refused to list replicasets (403)',
      },
    ]);
  });

  it('name an owner of a kind the cluster does not serve by Kind and group, unmarked', async () => {
    const pod = obj(
      'v1',
      'Pod',
      'p',
      'shop',
      {},
      {
        ownerReferences: [
          { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u-w', controller: true },
        ],
      },
    );
    const node = obj(
      'v1',
      'Node',
      'n',
      undefined,
      {},
      {
        ownerReferences: [
          { apiVersion: 'v1alpha1', kind: 'Gadget', name: 'g', uid: 'u-g', controller: true },
        ],
      },
    );
    const src = new FixtureSource([pod, node]);
    const { relations } = await relationsOf(src, kind('pod'), 'shop', 'p');
    expect(relations.owners).toEqual([
      { resourceType: 'widget.example.com', namespace: 'shop', name: 'w', uid: 'u-w' },
    ]);
    expect(relations.gaps).toEqual([
      { resourceType: 'widget.example.com', detail: 'the cluster does not serve Widget (example.com)' },
    ]);
    const fromNode = await relationsOf(src, kind('node'), undefined, 'n');
    expect(fromNode.relations.owners).toEqual([{ resourceType: 'gadget', name: 'g', uid: 'u-g' }]);
    expect(fromNode.relations.gaps).toEqual([
      { resourceType: 'gadget', detail: 'the cluster does not serve Gadget' },
    ]);
  });

  it('stop at a cycle and after MAX_CHAIN owners', async () => {
    const a = obj('v1', 'ConfigMap', 'a', 'x');
    const b = obj('v1', 'ConfigMap', 'b', 'x', {}, ownedBy(a));
    Object.assign(a.metadata, ownedBy(b));
    const src = new FixtureSource([a, b]);
    const cycle = (await relationsOf(src, kind('configmap'), 'x', 'a')).relations.owners;
    expect(cycle.map((r) => r.name)).toEqual(['b']);

    const chain = [obj('v1', 'ConfigMap', 'c0', 'x')];
    for (let i = 1; i <= MAX_CHAIN + 3; i++)
      chain.push(obj('v1', 'ConfigMap', `c${i}`, 'x', {}, ownedBy(chain[i - 1]!)));
    const long = new FixtureSource(chain);
    const last = chain.at(-1)!.metadata.name;
    const owners = (await relationsOf(long, kind('configmap'), 'x', last)).relations.owners;
    expect(owners).toHaveLength(MAX_CHAIN);
    expect(owners[0]!.name).toBe(`c${MAX_CHAIN + 2}`);
  });
});

const shape = (nodes: readonly DependentRef[] | undefined): unknown =>
  nodes?.map((n) => ({
    [`${n.resourceType}/${n.name}`]: shape(n.children) ?? null,
    ...(n.truncated ? { truncated: true } : {}),
  }));

describe('dependents', () => {
  it('are the tree of ownerReferences, each level ordered by resourceType, namespace, name', async () => {
    const w = workload();
    const stray = obj('v1', 'Pod', 'stray', 'shop', {}, ownedBy(w.oldRs, false));
    const src = new FixtureSource([w.podB, stray, w.podA, w.oldRs, w.deploy, w.rs]);
    const { relations } = await relationsOf(src, kind('deployment'), 'shop', 'web');
    expect(shape(relations.dependents)).toEqual([
      { 'replicaset/web-5c4': [{ 'pod/stray': null }] },
      { 'replicaset/web-7d9': [{ 'pod/web-7d9-a': null }, { 'pod/web-7d9-b': null }] },
    ]);
    expect(relations.dependents[1]).toMatchObject({
      namespace: 'shop',
      uid: w.rs.metadata.uid,
      status: '1/2',
    });
    expect(relations.truncated).toBeUndefined();
    // The owner's view from below.
    const fromPod = await relationsOf(src, kind('pod'), 'shop', 'web-7d9-a');
    expect(fromPod.relations.dependents).toEqual([]);
  });

  it('search the kinds the built-in controller makes: a StatefulSet’s pods, revisions and claims', async () => {
    const sts = obj('apps/v1', 'StatefulSet', 'db', 'shop');
    const rev = obj('apps/v1', 'ControllerRevision', 'db-1', 'shop', {}, ownedBy(sts));
    const pod = obj('v1', 'Pod', 'db-0', 'shop', {}, ownedBy(sts));
    const claim = obj('v1', 'PersistentVolumeClaim', 'data-db-0', 'shop', {}, ownedBy(sts));
    // A ConfigMap is no kind a StatefulSet makes: not searched.
    const cm = obj('v1', 'ConfigMap', 'db-conf', 'shop', {}, ownedBy(sts));
    const src = new FixtureSource([cm, claim, pod, rev, sts]);
    const { relations } = await relationsOf(src, kind('statefulset'), 'shop', 'db');
    expect(shape(relations.dependents)).toEqual([
      { 'controllerrevision/db-1': null },
      { 'persistentvolumeclaim/data-db-0': null },
      { 'pod/db-0': null },
    ]);
    expect(src.reads).not.toContain('configmap');
  });

  it('of a custom resource are searched in the common kinds and its own group', async () => {
    const cert = obj('cert-manager.io/v1', 'Certificate', 'shop-tls', 'shop');
    const req = obj('cert-manager.io/v1', 'CertificateRequest', 'shop-tls-1', 'shop', {}, ownedBy(cert));
    const secret = obj('v1', 'Secret', 'shop-tls', 'shop', {}, ownedBy(cert));
    const src = new FixtureSource([secret, req, cert]);
    const { relations } = await relationsOf(src, kind('certificate'), 'shop', 'shop-tls');
    expect(shape(relations.dependents)).toEqual([
      { 'certificaterequest/shop-tls-1': null },
      { 'secret/shop-tls': null },
    ]);
  });

  it('skip kinds the cluster does not serve, and name the ones that cannot be read as gaps', async () => {
    const sts = obj('apps/v1', 'StatefulSet', 'db', 'shop');
    const pod = obj('v1', 'Pod', 'db-0', 'shop', {}, ownedBy(sts));
    const served = KINDS.filter((k) => k.resourceType !== 'controllerrevision');
    const src = new FixtureSource([pod, sts], served);
    src.failing.set('persistentvolumeclaim', forbidden('persistentvolumeclaims'));
    const { relations } = await relationsOf(src, kind('statefulset'), 'shop', 'db');
    expect(shape(relations.dependents)).toEqual([{ 'pod/db-0': null }]);
    expect(relations.gaps?.map((g) => g.resourceType)).toEqual(['persistentvolumeclaim']);
  });

  it(`stop at depth ${MAX_DEPTH}, marking the nodes whose dependents are left out`, async () => {
    const chain = [obj('batch/v1', 'CronJob', 'c', 'x')];
    const kinds: [string, string][] = [
      ['batch/v1', 'Job'],
      ['v1', 'Pod'],
      ['v1', 'PersistentVolumeClaim'],
    ];
    // CronJob → Job → Pod → (ephemeral) claim: three levels, each kind found by its owner's table.
    for (const [apiVersion, k] of kinds)
      chain.push(obj(apiVersion, k, `${k.toLowerCase()}-1`, 'x', {}, ownedBy(chain.at(-1)!)));
    const src = new FixtureSource(chain);
    const three = await relationsOf(src, kind('cronjob'), 'x', 'c');
    expect(shape(three.relations.dependents)).toEqual([
      { 'job/job-1': [{ 'pod/pod-1': [{ 'persistentvolumeclaim/persistentvolumeclaim-1': null }] }] },
    ]);

    const certs = [obj('cert-manager.io/v1', 'Certificate', 'c0', 'x')];
    for (let i = 1; i <= MAX_DEPTH + 1; i++)
      certs.push(obj('cert-manager.io/v1', 'Certificate', `c${i}`, 'x', {}, ownedBy(certs[i - 1]!)));
    // A chain of custom resources (searched in their own group) deeper than the bound.
    const deep = await relationsOf(new FixtureSource(certs), kind('certificate'), 'x', 'c0');
    expect(shape(deep.relations.dependents)).toEqual([
      {
        'certificate/c1': [
          { 'certificate/c2': [{ 'certificate/c3': [{ 'certificate/c4': null, truncated: true }] }] },
        ],
      },
    ]);
    expect(deep.relations.truncated).toBe(true);
    // One level less deep: nothing is cut.
    const fits = await relationsOf(
      new FixtureSource(certs.slice(0, MAX_DEPTH + 1)),
      kind('certificate'),
      'x',
      'c0',
    );
    expect(fits.relations.truncated).toBeUndefined();
  });

  it(`stop at ${MAX_REFS} refs, breadth first, marking where`, async () => {
    const rs = obj('apps/v1', 'ReplicaSet', 'big', 'x');
    const pods = Array.from({ length: MAX_REFS + 5 }, (_, i) =>
      obj('v1', 'Pod', `big-${String(MAX_REFS + 5 - i).padStart(5, '0')}`, 'x', {}, ownedBy(rs)),
    );
    const top = await relationsOf(new FixtureSource([rs, ...pods]), kind('replicaset'), 'x', 'big');
    expect(top.relations.dependents).toHaveLength(MAX_REFS);
    expect(top.relations.dependents[0]!.name).toBe('big-00001');
    expect(top.relations.truncated).toBe(true);

    const deploy = obj('apps/v1', 'Deployment', 'big', 'x');
    Object.assign(rs.metadata, ownedBy(deploy));
    const nested = await relationsOf(
      new FixtureSource([deploy, rs, ...pods]),
      kind('deployment'),
      'x',
      'big',
    );
    const [set] = nested.relations.dependents;
    expect(set).toMatchObject({ name: 'big', truncated: true });
    expect(set!.children).toHaveLength(MAX_REFS - 1);
    expect(nested.relations.truncated).toBe(true);

    const exact = await relationsOf(
      new FixtureSource([rs, ...pods.slice(0, MAX_REFS)]),
      kind('replicaset'),
      'x',
      'big',
    );
    expect(exact.relations.truncated).toBeUndefined();
  });

  it('are none for an object without a uid, and leave out a dependent without one', async () => {
    const rs = obj('apps/v1', 'ReplicaSet', 'rs', 'x', {}, { uid: undefined });
    expect(
      (await relationsOf(new FixtureSource([rs]), kind('replicaset'), 'x', 'rs')).relations.dependents,
    ).toEqual([]);
    const owner = obj('apps/v1', 'ReplicaSet', 'owner', 'x');
    const anon = obj('v1', 'Pod', 'anon', 'x', {}, { ...ownedBy(owner), uid: undefined });
    const named = obj('v1', 'Pod', 'named', 'x', {}, ownedBy(owner));
    const src = new FixtureSource([anon, named, owner]);
    const { relations } = await relationsOf(src, kind('replicaset'), 'x', 'owner');
    expect(shape(relations.dependents)).toEqual([{ 'pod/named': null }]);
  });

  it('show an object owned twice in the tree once, and never loop', async () => {
    const a = obj('cert-manager.io/v1', 'Certificate', 'a', 'x');
    const b = obj('cert-manager.io/v1', 'Certificate', 'b', 'x', {}, ownedBy(a));
    const both = obj(
      'v1',
      'Secret',
      's',
      'x',
      {},
      {
        ownerReferences: [
          { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', name: 'a', uid: a.metadata.uid },
          { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', name: 'b', uid: b.metadata.uid },
        ],
      },
    );
    Object.assign(a.metadata, ownedBy(b));
    const src = new FixtureSource([both, b, a]);
    const { relations } = await relationsOf(src, kind('certificate'), 'x', 'a');
    expect(shape(relations.dependents)).toEqual([{ 'certificate/b': null }, { 'secret/s': null }]);
  });
});
