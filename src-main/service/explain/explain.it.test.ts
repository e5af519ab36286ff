/**
 * `…/explanations/…` over real HTTP (and once over IPC) against the simulator's demo: the failing
 * cert-manager Certificate, the two Pending claims, the pods whose ConfigMap or claim they name,
 * the ReplicaSet refused by its quota; an Ingress and an HPA this test puts in the simulator; how
 * names resolve and are refused. Every answer is also checked against the Explanation schema by
 * the harness. Waits are for states; nothing here reads the clock.
 */

import type { KubeObjectInput } from '@skiff/kube-simulator';
import { DEMO_PODS, DEMO_WORKLOADS } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Explanation } from '../../../src-shared/contract/explain-operations';
import type { Problem } from '../../../src-shared/contract/problem';
import type { Finding, GuidanceRef } from '../../../src-shared/guidance/index';
import type { Principal } from '../context';
import { eventually } from '../test-support/eventually.test-support';
import { RFC3339_UTC, STALE, startProxiedStack } from '../test-support/faults.test-support';
import { CLUSTER_ID, type Stack, startStack } from '../test-support/harness.test-support';

let stack: Stack;
let principal: Principal;

beforeAll(async () => {
  stack = await startStack();
  const found = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
  if (!found) throw new Error('the admin session has no principal');
  principal = found;
  const put = (o: Record<string, unknown>) => stack.sim.store.upsert(o as unknown as KubeObjectInput);
  put({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'ghostly', namespace: 'shop' },
    spec: {
      ingressClassName: 'nginx',
      rules: [
        {
          host: 'ghost.example.com',
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: 'frontend', port: { number: 80 } } },
              },
              {
                path: '/x',
                pathType: 'Prefix',
                backend: { service: { name: 'ghost', port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
  });
  put({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'blind', namespace: 'shop' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout' },
      minReplicas: 1,
      maxReplicas: 3,
    },
    status: {
      currentReplicas: 1,
      desiredReplicas: 1,
      conditions: [
        { type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale' },
        {
          type: 'ScalingActive',
          status: 'False',
          reason: 'FailedGetResourceMetric',
          message:
            'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
        },
      ],
    },
  });
});
afterAll(async () => stack?.close());

const explain = (path: string) => stack.get<Explanation>(`${stack.cluster}/explanations/${path}`);
const summary = (fs: readonly Finding[]) => fs.map((f) => [f.source, f.reason, f.guidance?.id ?? null]);
const refsOf = (f: Finding | undefined): GuidanceRef[] =>
  (f?.checks ?? []).flatMap((c) => (c.ref ? [c.ref] : []));

describe('explanations of the demo’s broken objects', () => {
  it('the failing Certificate: Ready=False with its reason and message, then its Warning event in its own words', async () => {
    const res = await explain('namespaces/monitoring/certificate.cert-manager.io/grafana-tls');
    expect(res.status).toBe(200);
    expect(res.body.object).toMatchObject({
      resourceType: 'certificate',
      namespace: 'monitoring',
      name: 'grafana-tls',
    });
    expect(res.body.object.uid).toMatch(/\w/);
    expect(summary(res.body.findings)).toEqual([
      ['condition', 'Ready', 'object-condition-ready-false'],
      ['event', 'Failed', null],
    ]);
    const [ready, failed] = res.body.findings;
    expect(ready).toMatchObject({
      conditionReason: 'DoesNotExist',
      message: 'Issuing certificate as Secret does not exist',
      severity: 'error',
    });
    expect(failed?.message).toContain('rateLimited');
    // The healthy one has nothing to explain; the bare singular names the same kind.
    const ok = await explain('namespaces/shop/certificate/shop-tls');
    expect([ok.status, ok.body.findings]).toEqual([200, []]);
  });

  it('the Pending pod’s claim: Pending, waiting for its first consumer, naming the pod that uses it', async () => {
    const res = await explain('namespaces/demo-broken/persistentvolumeclaim/spark-scratch');
    expect(res.status).toBe(200);
    expect(summary(res.body.findings)).toEqual([
      ['status', 'Pending', 'pvc-status-pending'],
      ['status', 'WaitForFirstConsumer', 'event-waitforfirstconsumer'],
    ]);
    const pod = { resourceType: 'pod', namespace: 'demo-broken', name: DEMO_PODS.unschedulable.name };
    expect(refsOf(res.body.findings[0])).toEqual([{ resourceType: 'storageclass', name: 'gp3' }, pod]);
    expect(refsOf(res.body.findings[1])).toEqual([pod]);
    expect(res.body.findings[1]?.message).toBe('waiting for first consumer to be created before binding');
  });

  it('a claim whose StorageClass does not exist: the ProvisioningFailed event, the class marked missing', async () => {
    const res = await explain('namespaces/demo-broken/persistentvolumeclaim/reports-archive');
    expect(summary(res.body.findings)).toEqual([
      ['status', 'Pending', 'pvc-status-pending'],
      ['event', 'ProvisioningFailed', 'pvc-status-storageclassnotfound'],
    ]);
    expect(res.body.findings[1]?.message).toBe('storageclass.storage.k8s.io "fast-ssd" not found');
    expect(refsOf(res.body.findings[1])).toEqual([
      { resourceType: 'storageclass', name: 'fast-ssd', missing: true },
    ]);
  });

  it('the Pending pod names its claim, which exists', async () => {
    const res = await explain(`namespaces/demo-broken/pod/${DEMO_PODS.unschedulable.name}`);
    expect(res.body.findings[0]?.reason).toBe('Pending');
    expect(refsOf(res.body.findings[0]).filter((r) => r.resourceType !== 'node')).toEqual([
      { resourceType: 'persistentvolumeclaim', namespace: 'demo-broken', name: 'spark-scratch' },
    ]);
    expect(res.body.findings.map((f) => f.reason)).toContain('FailedScheduling');
  });

  it('the Pending pod on no node: every node named, each too small for its 24Gi memory request', async () => {
    const res = await explain(`namespaces/demo-broken/pod/${DEMO_PODS.unschedulable.name}`);
    const nodes = stack.sim.store.list('nodes').map((n) => n.metadata.name);
    expect(nodes.length).toBeGreaterThan(1);
    const steps = (res.body.findings[0]?.checks ?? []).filter((c) => c.ref?.resourceType === 'node');
    expect(steps.map((c) => c.ref?.name).sort()).toEqual([...nodes].sort());
    for (const step of steps) {
      expect(step.text).toMatch(
        /^Node \S+ cannot take the pod: .*too little memory: 24576Mi requested, \d+Mi free/,
      );
      expect(step.ref?.missing).toBeUndefined();
    }
    // The pods already on a node count: the busiest node has less memory free than it allocates.
    expect(
      steps.some((c) => /too little memory: 24576Mi requested, (\d+)Mi free of (?!\1Mi)\d+Mi/.test(c.text)),
    ).toBe(true);
  });

  it('a running pod gets no node-fit steps', async () => {
    const res = await explain(`namespaces/demo-broken/pod/${DEMO_PODS.crashLoop.name}`);
    const refs = res.body.findings.flatMap((f) => refsOf(f));
    expect(refs.filter((r) => r.resourceType === 'node')).toEqual([]);
  });

  it('the FailedMount pod: its ConfigMap marked missing in its step and in the event; the CA bundle it also mounts is not', async () => {
    const res = await explain(`namespaces/demo-broken/pod/${DEMO_PODS.failedMount.name}`);
    const waiting = res.body.findings.find((f) => f.source === 'waiting');
    const appConfig = {
      resourceType: 'configmap',
      namespace: 'demo-broken',
      name: 'app-config',
      missing: true,
    };
    expect(refsOf(waiting)).toContainEqual(appConfig);
    for (const ref of refsOf(waiting).filter((r) => r.name !== 'app-config'))
      expect(ref.missing).toBeUndefined();
    const mount = res.body.findings.find((f) => f.reason === 'FailedMount');
    expect(mount?.guidance?.id).toBe('event-failedmount');
    expect(refsOf(mount)).toEqual([appConfig]);
  });

  it('the ReplicaSet its quota refuses: the quota and the owning Deployment, both present', async () => {
    const rs = (
      await stack.get<{ resource: { metadata: { name: string } } }[]>(
        `${stack.cluster}/kubernetes-proxy/namespaces/demo-broken/replicaset?labelSelector=app%3Dquota-blocked`,
      )
    ).body[0]?.resource.metadata.name;
    const res = await explain(`namespaces/demo-broken/replicaset/${rs}`);
    expect(summary(res.body.findings)).toEqual([
      ['condition', 'ReplicaFailure', 'replicaset-condition-replicafailure-true'],
    ]);
    expect(refsOf(res.body.findings[0])).toEqual([
      { resourceType: 'resourcequota', namespace: 'demo-broken', name: 'pod-count' },
      {
        resourceType: 'deployment',
        namespace: 'demo-broken',
        name: DEMO_WORKLOADS.quotaBlockedDeployment.name,
      },
    ]);
  });
});

describe('explanations of objects this test puts in the cluster', () => {
  it('an Ingress with a backend Service that does not exist', async () => {
    const res = await explain('namespaces/shop/ingress/ghostly');
    expect(summary(res.body.findings)).toEqual([
      ['status', 'NoAddress', 'ingress-status-noaddress'],
      ['status', 'ServiceNotFound', 'ingress-status-servicenotfound'],
    ]);
    expect(refsOf(res.body.findings[0])).toEqual([{ resourceType: 'ingressclass', name: 'nginx' }]);
    expect(refsOf(res.body.findings[1])).toEqual([
      { resourceType: 'service', namespace: 'shop', name: 'ghost', missing: true },
    ]);
    // The demo's own Ingress has an address and every backend.
    expect((await explain('namespaces/shop/ingress/shop')).body.findings).toEqual([]);
  });

  it('an HPA that cannot read metrics: its target and the metrics API, both present', async () => {
    const res = await explain('namespaces/shop/horizontalpodautoscaler/blind');
    expect(summary(res.body.findings)).toEqual([
      ['condition', 'ScalingActive', 'hpa-condition-scalingactive-false'],
    ]);
    expect(refsOf(res.body.findings[0])).toEqual([
      { resourceType: 'deployment', namespace: 'shop', name: 'checkout' },
      { resourceType: 'apiservice', name: 'v1beta1.metrics.k8s.io' },
    ]);
    // The demo's HPA is held at its minimum: not a problem.
    expect((await explain('namespaces/shop/horizontalpodautoscaler/frontend')).body.findings).toEqual([]);
  });
});

describe('names', () => {
  it('a namespaced kind without a namespace is found where it is, or 409 when several namespaces hold it', async () => {
    const found = await explain('certificate/grafana-tls');
    expect([found.status, found.body.object.namespace]).toEqual([200, 'monitoring']);
    const several = await stack.get<Problem & { namespaces: string[] }>(
      `${stack.cluster}/explanations/configmap/kube-root-ca.crt`,
    );
    expect([several.status, several.body.code]).toEqual([409, 'conflict']);
    expect(several.body.namespaces).toEqual(expect.arrayContaining(['default', 'demo-broken', 'shop']));
    expect(several.body.detail).toContain(`(${several.body.namespaces.join(', ')})`);
    const none = await stack.get<Problem>(`${stack.cluster}/explanations/configmap/no-such-map`);
    expect([none.status, none.body.detail]).toEqual([404, 'configmap "no-such-map" not found']);
  });

  it('a cluster-scoped object is explained on the cluster path', async () => {
    const res = await explain('storageclass/gp3');
    expect([res.status, res.body.object, res.body.findings]).toEqual([
      200,
      expect.objectContaining({ resourceType: 'storageclass', name: 'gp3' }),
      [],
    ]);
    expect(res.body.object.namespace).toBeUndefined();
  });

  it('refusals: a plural, a cluster-scoped kind under a namespace, an object that does not exist', async () => {
    const plural = await stack.get<Problem>(
      `${stack.cluster}/explanations/namespaces/shop/certificates/shop-tls`,
    );
    expect([plural.status, plural.body.code]).toEqual([400, 'invalid_resource_type']);
    expect(plural.body.hint).toContain('certificate');
    const scoped = await stack.get<Problem>(`${stack.cluster}/explanations/namespaces/shop/storageclass/gp3`);
    expect([scoped.status, scoped.body.code]).toEqual([400, 'invalid_resource_type']);
    const none = await stack.get<Problem>(`${stack.cluster}/explanations/namespaces/shop/certificate/nope`);
    expect([none.status, none.body.code]).toEqual([404, 'resource_not_found']);
    expect(none.body.detail).toBe('certificate "nope" in namespace shop not found');
    const clusterScoped = await stack.get<Problem>(`${stack.cluster}/explanations/storageclass/nope`);
    expect([clusterScoped.status, clusterScoped.body.detail]).toEqual([404, 'storageclass "nope" not found']);
  });

  it('answers the same over IPC', async () => {
    const http = await explain('namespaces/demo-broken/persistentvolumeclaim/reports-archive');
    const reply = await stack.service.invoke(
      'explainNamespacedResource',
      {
        params: {
          workspaceId: 'default',
          clusterId: CLUSTER_ID,
          namespace: 'demo-broken',
          resourceType: 'persistentvolumeclaim',
          resourceName: 'reports-archive',
        },
        query: {},
        body: undefined,
      },
      { principal, client: { via: 'ipc' as const }, signal: new AbortController().signal },
    );
    expect(reply.data).toEqual(http.body);
  });
});

describe('a cluster that goes away after the caches synced', () => {
  it('explains from the cached objects, marked x-Stale-Since', async () => {
    const {
      stack: proxied,
      proxy,
      close,
    } = await startProxiedStack({
      service: { timeoutMs: 2_000, watch: { baseMs: 100, capMs: 1_000, stableAfterMs: 1_000 } },
    });
    try {
      const path = `${proxied.cluster}/explanations/namespaces/monitoring/certificate/grafana-tls`;
      const live = await proxied.get<Explanation>(path);
      expect([live.status, live.headers.get(STALE)]).toEqual([200, null]);
      await proxy.down();
      const stale = await eventually(async () => {
        const res = await proxied.get<Explanation>(path);
        expect(res.status).toBe(200);
        expect(res.headers.get(STALE)).toMatch(RFC3339_UTC);
        return res;
      }, 30_000);
      expect(stale.body.findings.map((f) => f.reason)).toEqual(live.body.findings.map((f) => f.reason));
    } finally {
      await close();
    }
  });
});
