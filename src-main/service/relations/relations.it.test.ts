/**
 * `…/relations/…`, `…/counts` and `…/search` over real HTTP and IPC against the simulator: the
 * demo's broken pods' missing ConfigMap and Secret; every relation rule on objects this test puts
 * in the simulator (owners, dependents, uses, usedBy, selects, selectedBy); how names resolve and
 * are refused; counts from a running cache and from one `limit=1` list; palette search.
 */
import { join } from 'node:path';
import type { KubeObject } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  KindCount,
  RelationRef,
  Relations,
  SearchHit,
} from '../../../src-shared/contract/relations-operations';
import type { Principal } from '../context';
import { captureFixture, startOpenStack } from '../snapshots/snapshot-open.test-support';
import { eventually } from '../test-support/eventually.test-support';
import { CLUSTER_ID, type Stack, startStack } from '../test-support/harness.test-support';

let stack: Stack;
/** A second service that nothing but the counts and search tests read: which caches run is known. */
let fresh: Stack;
let principal: Principal;
const NS = 'rel';

beforeAll(async () => {
  [stack, fresh] = await Promise.all([startStack(), startStack()]);
  seed(fresh);
  const found = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
  if (!found) throw new Error('the admin session has no principal');
  principal = found;
  seed(stack);
});
afterAll(async () => {
  await Promise.all([stack?.close(), fresh?.close()]);
});

const put = (o: Record<string, unknown>) => stack.sim.store.upsert(o as unknown as KubeObject);
const owner = (o: KubeObject) => ({
  ownerReferences: [
    { apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, uid: o.metadata.uid, controller: true },
  ],
});

/** A small world in namespace `rel`, written out of the order the answers list it. */
function seed(s: Stack) {
  const upsert = (o: Record<string, unknown>) => s.sim.store.upsert(o as unknown as KubeObject);
  upsert({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  const spec = (nodeName?: string) => ({
    ...(nodeName ? { nodeName } : {}),
    serviceAccountName: 'web',
    priorityClassName: 'rel-high',
    imagePullSecrets: [{ name: 'rel-pull' }],
    volumes: [
      { name: 'conf', configMap: { name: 'web-conf' } },
      { name: 'gone', configMap: { name: 'web-gone' } },
      { name: 'data', persistentVolumeClaim: { claimName: 'web-data' } },
    ],
    containers: [
      {
        name: 'web',
        image: 'nginx',
        env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'web-secret', key: 'token' } } }],
      },
    ],
  });
  const deploy = upsert({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: NS, labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: spec() },
    },
  });
  const rs = upsert({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web-6c9', namespace: NS, labels: { app: 'web' }, ...owner(deploy) },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { spec: spec() } },
  });
  for (const name of ['web-6c9-z', 'web-6c9-a'])
    upsert({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: NS, labels: { app: 'web' }, ...owner(rs) },
      spec: spec('worker-1'),
      status: { phase: 'Running' },
    });
  upsert({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'web-conf', namespace: NS },
    data: { a: '1' },
  });
  upsert({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'web-secret', namespace: NS },
    type: 'Opaque',
    data: { other: 'eA==' },
  });
  upsert({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'rel-pull', namespace: NS },
    type: 'kubernetes.io/dockerconfigjson',
    data: {},
  });
  upsert({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'web', namespace: NS } });
  upsert({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'web-data', namespace: NS },
    spec: { volumeName: 'rel-pv', storageClassName: 'gp3' },
    status: { phase: 'Bound' },
  });
  upsert({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'rel-pv' },
    spec: { storageClassName: 'gp3' },
    status: { phase: 'Bound' },
  });
  upsert({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: NS },
    spec: { selector: { app: 'web' } },
  });
  upsert({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: NS },
    spec: { selector: { matchLabels: { app: 'web' } } },
  });
  upsert({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'all', namespace: NS },
    spec: { podSelector: {} },
  });
  upsert({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: NS },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
  });
  upsert({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'web', namespace: NS },
    spec: {
      rules: [
        {
          http: {
            paths: [
              { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } },
              {
                path: '/old',
                pathType: 'Prefix',
                backend: { service: { name: 'web-old', port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
  });
}

const rel = (path: string) => stack.get<Relations>(`${stack.cluster}/relations/${path}`);
const refs = (list: readonly RelationRef[]) =>
  list.map(
    (r) => `${r.resourceType}/${r.namespace ? `${r.namespace}/` : ''}${r.name}${r.missing ? ' missing' : ''}`,
  );

function ctx() {
  return { principal, client: { via: 'ipc' as const }, signal: new AbortController().signal };
}
const cluster = { workspaceId: 'default', clusterId: CLUSTER_ID };

describe('relations', () => {
  it('show the demo’s FailedMount and CreateContainerConfigError pods what they miss', async () => {
    const mount = await rel('namespaces/demo-broken/deployment/failedmount');
    expect(mount.status).toBe(200);
    const [set] = mount.body.dependents;
    expect(set).toMatchObject({ resourceType: 'replicaset', namespace: 'demo-broken' });
    const pod = set!.children![0]!;
    expect(pod.resourceType).toBe('pod');
    const fromPod = await rel(`namespaces/demo-broken/pod/${pod.name}`);
    expect(refs(fromPod.body.owners)).toEqual([
      `replicaset/demo-broken/${set!.name}`,
      'deployment/demo-broken/failedmount',
    ]);
    expect(fromPod.body.uses).toContainEqual({
      resourceType: 'configmap',
      namespace: 'demo-broken',
      name: 'app-config',
      missing: true,
      via: ['spec.volumes[config]'],
    });
    expect(fromPod.body.uses.find((r) => r.resourceType === 'node')).toMatchObject({
      name: 'worker-1',
      status: 'Ready',
    });
    const config = await rel('namespaces/demo-broken/deployment/configerror');
    expect(config.body.uses).toContainEqual(
      expect.objectContaining({ resourceType: 'secret', name: 'db-credentials', missing: true }),
    );
  });

  it('climb owners and walk dependents, ordered', async () => {
    const pod = await rel(`namespaces/${NS}/pod/web-6c9-z`);
    expect(pod.status).toBe(200);
    expect(pod.headers.get('x-stale-since')).toBeNull();
    expect(pod.body.object).toMatchObject({
      resourceType: 'pod',
      namespace: NS,
      name: 'web-6c9-z',
      status: 'Running',
    });
    expect(refs(pod.body.owners)).toEqual([`replicaset/${NS}/web-6c9`, `deployment/${NS}/web`]);
    const deploy = await rel(`namespaces/${NS}/deployment/web`);
    expect(deploy.body.dependents).toEqual([
      expect.objectContaining({
        resourceType: 'replicaset',
        name: 'web-6c9',
        children: [
          expect.objectContaining({ resourceType: 'pod', name: 'web-6c9-a' }),
          expect.objectContaining({ resourceType: 'pod', name: 'web-6c9-z' }),
        ],
      }),
    ]);
    expect(deploy.body.truncated).toBeUndefined();
  });

  it('list what a pod and a template use, missing objects and keys marked, and what uses an object', async () => {
    const pod = (await rel(`namespaces/${NS}/pod/web-6c9-a`)).body;
    expect(refs(pod.uses)).toEqual([
      `configmap/${NS}/web-conf`,
      `configmap/${NS}/web-gone missing`,
      'node/worker-1',
      'persistentvolume/rel-pv',
      `persistentvolumeclaim/${NS}/web-data`,
      'priorityclass/rel-high missing',
      `secret/${NS}/rel-pull`,
      `secret/${NS}/web-secret`,
      `serviceaccount/${NS}/web`,
      'storageclass/gp3',
    ]);
    expect(pod.uses.find((r) => r.name === 'web-secret')).toMatchObject({
      missingKeys: ['token'],
      via: ['spec.containers[web].env[TOKEN]'],
    });
    const deploy = (await rel(`namespaces/${NS}/deployment/web`)).body;
    expect(deploy.uses.find((r) => r.name === 'web-gone')).toMatchObject({
      missing: true,
      via: ['spec.template.spec.volumes[gone]'],
    });
    const usedBy = (await rel(`namespaces/${NS}/configmap/web-conf`)).body.usedBy;
    expect(refs(usedBy)).toEqual([`deployment/${NS}/web`, `pod/${NS}/web-6c9-a`, `pod/${NS}/web-6c9-z`]);
    const claim = (await rel(`namespaces/${NS}/persistentvolumeclaim/web-data`)).body;
    expect(refs(claim.uses)).toEqual(['persistentvolume/rel-pv', 'storageclass/gp3']);
    const sc = (await rel('storageclass/gp3')).body;
    expect(refs(sc.usedBy)).toEqual(
      expect.arrayContaining(['persistentvolume/rel-pv', `persistentvolumeclaim/${NS}/web-data`]),
    );
  });

  it('list what a Service, PDB, NetworkPolicy, HPA and Ingress select, and the inverse', async () => {
    const selects = async (path: string) => refs((await rel(`namespaces/${NS}/${path}`)).body.selects);
    const pods = [`pod/${NS}/web-6c9-a`, `pod/${NS}/web-6c9-z`];
    expect(await selects('service/web')).toEqual(pods);
    expect(await selects('poddisruptionbudget/web')).toEqual(pods);
    expect(await selects('networkpolicy/all')).toEqual(pods);
    expect(await selects('horizontalpodautoscaler/web')).toEqual([`deployment/${NS}/web`]);
    expect(await selects('ingress/web')).toEqual([`service/${NS}/web`, `service/${NS}/web-old missing`]);
    const by = async (path: string) => refs((await rel(`namespaces/${NS}/${path}`)).body.selectedBy);
    expect(await by('pod/web-6c9-a')).toEqual([
      `networkpolicy/${NS}/all`,
      `poddisruptionbudget/${NS}/web`,
      `service/${NS}/web`,
    ]);
    expect(await by('deployment/web')).toEqual([`horizontalpodautoscaler/${NS}/web`]);
    expect(await by('service/web')).toEqual([`ingress/${NS}/web`]);
  });

  it('follow the cluster as it changes', async () => {
    put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-gone', namespace: NS }, data: {} });
    await eventually(async () => {
      const uses = (await rel(`namespaces/${NS}/pod/web-6c9-a`)).body.uses;
      expect(uses.find((r) => r.name === 'web-gone')?.missing).toBeUndefined();
    }, 10_000);
    stack.sim.store.remove('configmaps', NS, 'web-gone');
    await eventually(async () => {
      const uses = (await rel(`namespaces/${NS}/pod/web-6c9-a`)).body.uses;
      expect(uses.find((r) => r.name === 'web-gone')?.missing).toBe(true);
    }, 10_000);
  });

  it('find a namespaced object named without a namespace, or say 404 and 409', async () => {
    const one = await rel('deployment/web');
    expect(one.status).toBe(200);
    expect(one.body.object).toMatchObject({ namespace: NS, name: 'web' });
    const cluster = await rel('node/worker-1');
    expect(cluster.body.object).toEqual(expect.objectContaining({ resourceType: 'node', name: 'worker-1' }));
    expect(cluster.body.object).not.toHaveProperty('namespace');
    const none = await rel(`namespaces/${NS}/pod/nope`);
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: 'resource_not_found' });
    const several = await rel('serviceaccount/default');
    expect(several.status).toBe(409);
    expect(several.body).toMatchObject({
      code: 'conflict',
      namespaces: expect.arrayContaining(['default', 'kube-system']),
    });
  });

  it('resolve kinds as every endpoint does: qualified and any case accepted, plurals and scope refused', async () => {
    const qualified = await rel(`namespaces/${NS}/Deployment.Apps/web`);
    expect(qualified.status).toBe(200);
    expect(qualified.body.object.resourceType).toBe('deployment');
    const plural = await rel(`namespaces/${NS}/deployments/web`);
    expect(plural.status).toBe(400);
    expect(plural.body).toMatchObject({ code: 'invalid_resource_type', hint: 'did you mean deployment?' });
    const scoped = await rel(`namespaces/${NS}/node/worker-1`);
    expect(scoped.status).toBe(400);
    expect(scoped.body).toMatchObject({ code: 'invalid_resource_type' });
    const events = await rel(`namespaces/${NS}/event/x`);
    expect(events.status).toBe(400);
    expect((await rel(`namespaces/${NS}/pod/${'a'.repeat(254)}`)).status).toBe(400);
    expect((await rel(`namespaces/Bad_NS/pod/x`)).status).toBe(400);
    expect((await rel(`namespaces/${NS}/po*d/x`)).status).toBe(400);
  });

  it('answer the same over IPC', async () => {
    const http = await rel(`namespaces/${NS}/pod/web-6c9-a`);
    const reply = await stack.service.invoke(
      'getNamespacedRelations',
      {
        params: { ...cluster, namespace: NS, resourceType: 'pod', resourceName: 'web-6c9-a' },
        query: {},
        body: undefined,
      },
      ctx(),
    );
    expect(reply.data).toEqual(http.body);
    const plain = await stack.service.invoke(
      'getRelations',
      { params: { ...cluster, resourceType: 'deployment', resourceName: 'web' }, query: {}, body: undefined },
      ctx(),
    );
    expect(plain.data).toEqual((await rel('deployment/web')).body);
    await expect(
      stack.service.invoke(
        'getRelations',
        { params: { ...cluster, resourceType: 'pods', resourceName: 'x' }, query: {}, body: undefined },
        ctx(),
      ),
    ).rejects.toMatchObject({ code: 'invalid_resource_type' });
  });
});

const counts = (query: string) => stack.get<KindCount[]>(`${stack.cluster}/counts?${query}`);

describe('counts', () => {
  it('count every listable kind, from a running cache or one limit=1 list, ordered by resourceType', async () => {
    // Nothing has started the fresh service's ConfigMap cache.
    {
      const res = await fresh.get<KindCount[]>(`${fresh.cluster}/counts?limit=1000`);
      expect(res.status).toBe(200);
      const types = res.body.map((c) => c.resourceType);
      expect(types).toEqual([...types].sort());
      expect(types).not.toContain('event');
      const byType = new Map(res.body.map((c) => [c.resourceType, c]));
      const direct = fresh.sim.store.count('configmaps');
      expect(byType.get('configmap')).toEqual({
        resourceType: 'configmap',
        count: direct,
        exact: true,
        source: 'list',
      });
      expect(byType.get('namespace')).toMatchObject({
        count: fresh.sim.store.count('namespaces'),
        source: 'list',
      });
      // Listing the pods starts their cache; then pods count from it.
      await fresh.get(`${fresh.cluster}/kubernetes-proxy/pod?limit=1`);
      const again = await fresh.get<KindCount[]>(`${fresh.cluster}/counts?resourceTypes=pod,configmap`);
      expect(again.body).toEqual([
        { resourceType: 'configmap', count: direct, exact: true, source: 'list' },
        {
          resourceType: 'pod',
          count: fresh.sim.store.count('pods'),
          exact: true,
          source: 'cache',
        },
      ]);
    }
  });

  it('count in a namespace the namespaced kinds only', async () => {
    const res = await counts(`namespace=${NS}&limit=1000`);
    expect(res.status).toBe(200);
    const byType = new Map(res.body.map((c) => [c.resourceType, c.count]));
    expect(byType.get('pod')).toBe(2);
    expect(byType.get('secret')).toBe(2);
    expect(byType.has('node')).toBe(false);
    expect(byType.has('storageclass')).toBe(false);
    expect((await counts(`namespace=${NS}&resourceTypes=node`)).status).toBe(400);
    const bad = await counts('resourceTypes=pods');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_resource_type', hint: 'did you mean pod?' });
  });

  it('are paged, and answer the same over IPC', async () => {
    const all = (await counts('limit=1000')).body;
    const page = await counts('limit=3&offset=2');
    expect(page.body.map((c) => c.resourceType)).toEqual(all.slice(2, 5).map((c) => c.resourceType));
    expect(page.headers.get('x-total')).toBe(String(all.length));
    const reply = await stack.service.invoke(
      'listCounts',
      { params: cluster, query: { namespace: NS, resourceTypes: 'pod,secret' }, body: undefined },
      ctx(),
    );
    expect(reply.data).toEqual((await counts(`namespace=${NS}&resourceTypes=secret,pod`)).body);
  });
});

const search = (query: string) => stack.get<SearchHit[]>(`${stack.cluster}/search?${query}`);

describe('search', () => {
  it('finds objects of the common kinds by name prefix, exact names first', async () => {
    // The fresh service runs no cache but the pods' (the counts test listed them).
    const res = await fresh.get<SearchHit[]>(`${fresh.cluster}/search?q=web&namespace=${NS}&limit=100`);
    expect(res.status).toBe(200);
    expect(res.body.map((h) => `${h.resourceType}/${h.name}`)).toEqual([
      'deployment/web',
      'ingress/web',
      'service/web',
      'pod/web-6c9-a',
      'pod/web-6c9-z',
      'configmap/web-conf',
      'persistentvolumeclaim/web-data',
      'secret/web-secret',
    ]);
    expect(res.body[0]).toEqual({
      resourceType: 'deployment',
      namespace: NS,
      name: 'web',
      uid: expect.any(String),
      status: '0/2',
    });
  });

  it('reads the kinds named, or every running one, and pages', async () => {
    const named = await search(`q=web&namespace=${NS}&resourceTypes=serviceaccount,horizontalpodautoscaler`);
    expect(named.body.map((h) => h.resourceType)).toEqual(['horizontalpodautoscaler', 'serviceaccount']);
    const page = await search('q=WEB-6C9&limit=1&offset=1');
    expect(page.body.map((h) => h.name)).toEqual(['web-6c9-a']);
    expect(page.headers.get('x-total')).toBe('3');
    expect((await search('q=')).status).toBe(400);
    expect((await search('q=x&resourceTypes=pods')).status).toBe(400);
    const reply = await stack.service.invoke(
      'searchObjects',
      { params: cluster, query: { q: 'web-6c9', namespace: NS }, body: undefined },
      ctx(),
    );
    expect(reply.data).toEqual((await search(`q=web-6c9&namespace=${NS}`)).body);
  });
});

describe('a snapshot cluster', () => {
  it('counts from its file, relates and searches what its file holds', async () => {
    const open = await startOpenStack();
    try {
      const file = join(open.dir, 'cluster.skiff');
      const captured = await captureFixture(file);
      const { clusterId } = await open.service.snapshots.open(file);
      const base = `/v1/workspaces/default/observability/${clusterId}`;
      const all = await open.call<KindCount[]>('GET', `${base}/counts?limit=1000`);
      expect(all.status).toBe(200);
      // Counting every namespace started no cache: the file's rows were counted.
      const connection = open.service.registry.byId(clusterId)!;
      expect(all.body.map((c) => c.resourceType)).toContain('service');
      expect(connection.runningKinds().map((k) => k.resourceType)).not.toContain('service');
      const pods = all.body.find((c) => c.resourceType === 'pod');
      expect(pods).toEqual({
        resourceType: 'pod',
        count: captured.pods.length,
        exact: true,
        source: 'snapshot',
      });
      const inShop = captured.pods.filter((p) => p.metadata.namespace === 'shop').length;
      const shop = await open.call<KindCount[]>('GET', `${base}/counts?namespace=shop&resourceTypes=pod`);
      expect(shop.body).toEqual([{ resourceType: 'pod', count: inShop, exact: true, source: 'snapshot' }]);
      // A kind whose cache nothing has started: all namespaces from the file's rows, one
      // namespace from the cache that reads the file; both agree with the list of it.
      const services = all.body.find((c) => c.resourceType === 'service');
      const shopServices = await open.call<KindCount[]>(
        'GET',
        `${base}/counts?namespace=shop&resourceTypes=service`,
      );
      const listed = await open.call('GET', `${base}/kubernetes-proxy/service?limit=1`);
      const listedShop = await open.call('GET', `${base}/kubernetes-proxy/namespaces/shop/service?limit=1`);
      expect(services).toEqual({
        resourceType: 'service',
        count: Number(listed.headers.get('x-total')),
        exact: true,
        source: 'snapshot',
      });
      expect(shopServices.body).toEqual([
        {
          resourceType: 'service',
          count: Number(listedShop.headers.get('x-total')),
          exact: true,
          source: 'snapshot',
        },
      ]);
      expect(shopServices.body[0]!.count).toBeLessThan(services!.count!);

      const [pod] = captured.pods.filter(
        (p) => p.metadata.namespace === 'shop' && p.metadata.name.startsWith('checkout'),
      );
      const rel = await open.call<Relations>(
        'GET',
        `${base}/relations/namespaces/shop/pod/${pod!.metadata.name}`,
      );
      expect(rel.status).toBe(200);
      expect(rel.body.object).toMatchObject({
        resourceType: 'pod',
        name: pod!.metadata.name,
        uid: pod!.metadata.uid,
      });
      expect(rel.body.selectedBy.map((r) => `${r.resourceType}/${r.name}`)).toContain('service/checkout');
      const hits = await open.call<SearchHit[]>('GET', `${base}/search?q=${pod!.metadata.name}`);
      expect(hits.body).toEqual([expect.objectContaining({ resourceType: 'pod', name: pod!.metadata.name })]);
    } finally {
      await open.close();
    }
  });
});
