import { AppsV1Api, BatchV1Api, CoreV1Api, type KubeConfig, VersionApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, authHeaders, harness, statusOf } from './harness.test-support';
import { DEMO_PODS, type Simulator } from './index';

let sim: Simulator;
let kc: KubeConfig;
let core: CoreV1Api;

beforeAll(async () => {
  ({ sim, kc } = await harness());
  core = kc.makeApiClient(CoreV1Api);
});
afterAll(() => sim.close());

describe('discovery', () => {
  it('answers /version, /api, /apis and group versions', async () => {
    const version = await kc.makeApiClient(VersionApi).getCode();
    expect(version.gitVersion).toMatch(/^v1\.\d+\.\d+$/);
    const get = async (path: string) => (await fetch(sim.url + path, { headers: authHeaders() })).json();
    expect((await get('/api')).versions).toEqual(['v1']);
    const groups = (await get('/apis')).groups.map((g: { name: string }) => g.name);
    expect(groups).toEqual(expect.arrayContaining(['apps', 'batch', 'events.k8s.io', 'metrics.k8s.io']));
    const v1 = await get('/api/v1');
    expect(v1.resources.map((r: { name: string }) => r.name)).toEqual(
      expect.arrayContaining(['pods', 'pods/log', 'nodes', 'namespaces', 'services', 'events']),
    );
    const apps = await get('/apis/apps/v1');
    expect(apps.groupVersion).toBe('apps/v1');
    expect((await get('/apis/metrics.k8s.io/v1beta1')).resources).toHaveLength(2);
  });
});

describe('lists', () => {
  it('lists namespaces, nodes and pods with resourceVersions', async () => {
    const ns = await core.listNamespace();
    expect(ns.items.map((n) => n.metadata?.name)).toEqual(
      expect.arrayContaining(['default', 'kube-system', 'shop', 'monitoring', 'batch', 'demo-broken']),
    );
    expect(Number(ns.metadata?.resourceVersion)).toBeGreaterThan(0);
    const nodes = await core.listNode();
    expect(nodes.items).toHaveLength(3);
    const ready = (name: string) =>
      nodes.items.find((n) => n.metadata?.name === name)?.status?.conditions?.find((c) => c.type === 'Ready')
        ?.status;
    expect(ready('worker-1')).toBe('True');
    expect(ready('worker-3')).toBe('False');
    const mem = nodes.items
      .find((n) => n.metadata?.name === 'worker-2')
      ?.status?.conditions?.find((c) => c.type === 'MemoryPressure');
    expect(mem?.status).toBe('True');
    expect(nodes.items[0]?.status?.nodeInfo?.kubeletVersion).toMatch(/^v1\./);
  });

  it('sorts items like etcd: namespace then name', async () => {
    const pods = await core.listPodForAllNamespaces();
    const keys = pods.items.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`);
    expect(keys).toEqual([...keys].sort());
    expect(pods.items.length).toBeGreaterThan(30);
  });

  it('serves every workload kind with managedFields, uids and owner chains', async () => {
    const apps = kc.makeApiClient(AppsV1Api);
    const batch = kc.makeApiClient(BatchV1Api);
    const [deps, rss, sts, dss, jobs, cjs, svcs] = await Promise.all([
      apps.listDeploymentForAllNamespaces(),
      apps.listReplicaSetForAllNamespaces(),
      apps.listStatefulSetForAllNamespaces(),
      apps.listDaemonSetForAllNamespaces(),
      batch.listJobForAllNamespaces(),
      batch.listCronJobForAllNamespaces(),
      core.listServiceForAllNamespaces(),
    ]);
    for (const list of [deps, rss, sts, dss, jobs, cjs, svcs]) {
      expect(list.items.length).toBeGreaterThan(0);
      for (const item of list.items) {
        expect(item.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
        expect(item.metadata?.managedFields?.length).toBeGreaterThan(0);
        expect(item.metadata?.creationTimestamp).toBeInstanceOf(Date);
      }
    }
    const strategies = new Set(deps.items.map((d) => d.spec?.strategy?.type));
    expect(strategies).toEqual(new Set(['RollingUpdate', 'Recreate']));
    const crash = deps.items.find((d) => d.metadata?.name === 'crashloop');
    expect(crash?.status?.conditions?.find((c) => c.type === 'Progressing')?.reason).toBe(
      'ProgressDeadlineExceeded',
    );
    const quota = deps.items.find((d) => d.metadata?.name === 'quota-blocked');
    expect(quota?.status?.conditions?.find((c) => c.type === 'ReplicaFailure')?.status).toBe('True');

    const pod = await core.readNamespacedPod({ namespace: 'shop', name: DEMO_PODS.checkout.name });
    const rsRef = pod.metadata?.ownerReferences?.[0];
    expect(rsRef?.kind).toBe('ReplicaSet');
    const rs = rss.items.find((r) => r.metadata?.name === rsRef?.name);
    expect(rs?.metadata?.ownerReferences?.[0]?.kind).toBe('Deployment');
    const job = jobs.items.find((j) => j.metadata?.ownerReferences?.[0]?.kind === 'CronJob');
    expect(job).toBeDefined();
    const jobPod = (
      await core.listNamespacedPod({ namespace: 'batch', labelSelector: `job-name=${job?.metadata?.name}` })
    ).items[0];
    expect(jobPod?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Job', name: job?.metadata?.name });
  });

  it('pages with limit/continue and reports remainingItemCount', async () => {
    const all = await core.listPodForAllNamespaces();
    const first = await core.listPodForAllNamespaces({ limit: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.metadata?._continue).toBeTruthy();
    expect(first.metadata?.remainingItemCount).toBe(all.items.length - 10);
    const names: string[] = first.items.map((p) => p.metadata?.name ?? '');
    let token = first.metadata?._continue;
    while (token) {
      const page = await core.listPodForAllNamespaces({ limit: 10, _continue: token });
      names.push(...page.items.map((p) => p.metadata?.name ?? ''));
      token = page.metadata?._continue;
    }
    expect(names).toEqual(all.items.map((p) => p.metadata?.name));
  });

  it('rejects garbage continue tokens with 400 and compacted ones with 410 Expired', async () => {
    const bad = await apiError(core.listNamespacedPod({ namespace: 'shop', _continue: 'not-a-token' }));
    expect(bad.code).toBe(400);
    const page = await core.listNamespacedPod({ namespace: 'shop', limit: 2 });
    sim.store.upsert({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'scratch-410' } });
    sim.store.compact();
    const gone = await apiError(
      core.listNamespacedPod({ namespace: 'shop', limit: 2, _continue: page.metadata?._continue }),
    );
    expect(gone.code).toBe(410);
    expect(statusOf(gone)).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
    sim.store.remove('namespaces', 'scratch-410');
  });
});

describe('selectors', () => {
  it('applies label selectors with Kubernetes semantics', async () => {
    const list = async (labelSelector: string) =>
      (await core.listPodForAllNamespaces({ labelSelector })).items.map((p) => p.metadata?.name ?? '');
    const all = await list('');
    const shop = await list('app.kubernetes.io/part-of=shop');
    expect(shop.length).toBeGreaterThan(5);
    expect(await list('app.kubernetes.io/part-of==shop')).toEqual(shop);
    // != and notin also match pods without the label at all.
    expect((await list('app.kubernetes.io/part-of!=shop')).length).toBe(all.length - shop.length);
    expect((await list('app.kubernetes.io/part-of notin (shop)')).length).toBe(all.length - shop.length);
    expect(await list('app in (frontend,payments)')).toEqual(
      expect.arrayContaining([DEMO_PODS.frontend.name, DEMO_PODS.payments.name]),
    );
    expect((await list('tier')).length).toBe(shop.length);
    expect((await list('!tier')).length).toBe(all.length - shop.length);
  });

  it('answers 400 for an unparsable selector', async () => {
    const err = await apiError(core.listNamespacedPod({ namespace: 'shop', labelSelector: 'app in (a' }));
    expect(err.code).toBe(400);
    expect(statusOf(err)).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'BadRequest',
      code: 400,
    });
    const field = await apiError(
      core.listNamespacedPod({ namespace: 'shop', fieldSelector: 'spec.bogus=1' }),
    );
    expect(field.code).toBe(400);
    expect(statusOf(field).message).toBe('field label not supported: spec.bogus');
  });

  it('supports field selectors on name, namespace and involvedObject.uid', async () => {
    const byName = await core.listPodForAllNamespaces({
      fieldSelector: `metadata.name=${DEMO_PODS.crashLoop.name}`,
    });
    expect(byName.items.map((p) => p.metadata?.namespace)).toEqual(['demo-broken']);
    const notShop = await core.listPodForAllNamespaces({ fieldSelector: 'metadata.namespace!=shop' });
    expect(notShop.items.every((p) => p.metadata?.namespace !== 'shop')).toBe(true);
    const pod = byName.items[0];
    const events = await core.listNamespacedEvent({
      namespace: 'demo-broken',
      fieldSelector: `involvedObject.uid=${pod?.metadata?.uid}`,
    });
    expect(events.items.length).toBeGreaterThan(3);
    expect(events.items.every((e) => e.involvedObject.name === pod?.metadata?.name)).toBe(true);
  });
});

describe('errors and faults', () => {
  it('returns NotFound Status for a missing pod', async () => {
    const err = await apiError(core.readNamespacedPod({ namespace: 'shop', name: 'nope' }));
    expect(err.code).toBe(404);
    expect(statusOf(err)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'pods' },
      code: 404,
    });
  });

  it('rejects a wrong token and answers 401 while unauthorized is set', async () => {
    const res = await fetch(`${sim.url}/api/v1/pods`, { headers: { Authorization: 'Bearer wrong' } });
    expect(res.status).toBe(401);
    sim.faults.unauthorized = true;
    try {
      expect((await apiError(core.listNamespace())).code).toBe(401);
    } finally {
      sim.faults.unauthorized = false;
    }
  });

  it('adds latency and can hang', async () => {
    sim.faults.latencyMs = 150;
    const t0 = Date.now();
    await core.listNamespace();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    sim.faults.latencyMs = 0;
    sim.faults.hang = true;
    const ctrl = new AbortController();
    const pending = fetch(`${sim.url}/api/v1/namespaces`, { headers: authHeaders(), signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 200);
    await expect(pending).rejects.toThrow();
    sim.faults.hang = false;
  });
});

describe('events', () => {
  it('holds classic, events.k8s.io-style and bare events', async () => {
    const events = (await core.listEventForAllNamespaces()).items;
    const reasons = new Set(events.map((e) => e.reason));
    for (const r of [
      'FailedScheduling',
      'Failed',
      'ErrImagePull',
      'ImagePullBackOff',
      'BackOff',
      'CrashLoopBackOff',
      'Error',
      'OOMKilled',
      'FailedMount',
      'VolumeResizeFailed',
      'Unhealthy',
      'Started',
      'Killing',
      'Pulled',
      'Created',
      'Scheduled',
      'NodeNotReady',
    ]) {
      expect(reasons, r).toContain(r);
    }
    const newStyle = events.filter((e) => !e.firstTimestamp && !e.lastTimestamp && e.eventTime);
    expect(newStyle.length).toBeGreaterThan(0);
    expect(newStyle.some((e) => e.series?.lastObservedTime)).toBe(true);
    expect(
      events.some(
        (e) => !e.firstTimestamp && !e.lastTimestamp && !e.eventTime && e.metadata.creationTimestamp,
      ),
    ).toBe(true);
    const sources = new Set(events.map((e) => e.source?.component ?? e.reportingComponent));
    expect([...sources]).toEqual(
      expect.arrayContaining(['kubelet', 'deployment-controller', 'kube-apiserver']),
    );
    expect(events.some((e) => e.reportingComponent === 'default-scheduler')).toBe(true);
    const failed = events.find((e) => e.reason === 'FailedScheduling');
    expect(failed?.message).toMatch(
      /^0\/3 nodes are available: .*preemption: 0\/3 nodes are available: 3 Preemption is not helpful for scheduling\.$/,
    );
  });

  it('serves the events.k8s.io/v1 view', async () => {
    const res = await fetch(`${sim.url}/apis/events.k8s.io/v1/namespaces/demo-broken/events?limit=5`, {
      headers: authHeaders(),
    });
    const body = await res.json();
    expect(body.kind).toBe('EventList');
    expect(body.apiVersion).toBe('events.k8s.io/v1');
    expect(body.items[0]).toHaveProperty('regarding');
    expect(body.items[0]).toHaveProperty('note');
  });
});
