/**
 * `GET …/kinds` over real HTTP and IPC against the simulator: what discovery reads through either
 * of its documents (aggregated, and legacy from a simulator that serves only those), a group that
 * cannot be read as a gap beside the rest, a CRD created at run time and its printer columns,
 * paging, a cluster that refuses, and a snapshot cluster.
 */
import { join } from 'node:path';
import type { Simulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedKind } from '../../../src-shared/contract/kinds-operations';
import type { Principal } from '../context';
import { captureFixture, startOpenStack } from '../snapshots/snapshot-open.test-support';
import { eventually } from '../test-support/eventually.test-support';
import { CLUSTER_ID, type Stack, startStack } from '../test-support/harness.test-support';

let stack: Stack;
let legacy: Stack;
let principal: Principal;

beforeAll(async () => {
  [stack, legacy] = await Promise.all([
    startStack(),
    startStack({ simulator: { aggregatedDiscovery: false } }),
  ]);
  const found = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
  if (!found) throw new Error('the admin session has no principal');
  principal = found;
});
afterAll(async () => {
  await Promise.all([stack?.close(), legacy?.close()]);
});

const kinds = (s: Stack, query = 'limit=1000') => s.get<ServedKind[]>(`${s.cluster}/kinds?${query}`);
const byType = (list: ServedKind[]) => new Map(list.map((k) => [k.resourceType, k]));

async function overIpc(query: Record<string, string> = { limit: '1000' }) {
  return stack.service.invoke(
    'listKinds',
    { params: { workspaceId: 'default', clusterId: CLUSTER_ID }, query, body: undefined },
    { principal, client: { via: 'ipc' }, signal: new AbortController().signal },
  );
}

/** Tells the simulator's apiserver (as kubectl would) to create or delete an object. */
async function simCall(sim: Simulator, method: string, path: string, body?: unknown) {
  const res = await fetch(sim.url + path, {
    method,
    headers: { Authorization: 'Bearer skiff-demo-token', 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.text();
  return res.status;
}

/** What kube-aggregator writes when metrics-server stops (or starts) answering. */
function metricsApiService(sim: Simulator, available: boolean) {
  sim.store.upsert({
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: 'v1beta1.metrics.k8s.io' },
    spec: {
      group: 'metrics.k8s.io',
      version: 'v1beta1',
      service: { name: 'metrics-server', namespace: 'kube-system' },
    },
    status: {
      conditions: [
        available
          ? { type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' }
          : {
              type: 'Available',
              status: 'False',
              reason: 'FailedDiscoveryCheck',
              message: 'failing or missing response',
            },
      ],
    },
  });
}

describe('the kinds a cluster serves', () => {
  it('are what kubectl api-resources --verbs=list,watch shows, in resourceType order', async () => {
    const res = await kinds(stack);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-discovery-gaps')).toBeNull();
    const list = res.body;
    expect(Number(res.headers.get('x-total'))).toBe(list.length);
    const types = list.map((k) => k.resourceType);
    expect(types).toEqual([...types].sort());
    const k = byType(list);
    expect(k.get('configmap')).toEqual({
      resourceType: 'configmap',
      plural: 'configmaps',
      kind: 'ConfigMap',
      group: '',
      version: 'v1',
      namespaced: true,
      shortNames: ['cm'],
      categories: [],
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    });
    expect(k.get('customresourcedefinition')).toMatchObject({
      group: 'apiextensions.k8s.io',
      namespaced: false,
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
    });
    // The group's preferred version; each kind once.
    expect(k.get('horizontalpodautoscaler')).toMatchObject({ group: 'autoscaling', version: 'v2' });
    expect(types.filter((t) => t === 'horizontalpodautoscaler')).toHaveLength(1);
    for (const t of [
      'ingress',
      'persistentvolumeclaim',
      'replicaset',
      'secret',
      'endpointslice',
      'clusterrolebinding',
    ])
      expect(k.has(t), t).toBe(true);
    // Two groups serve `event`: the core one stays bare, the other is qualified.
    expect(k.get('event')?.group).toBe('');
    expect(k.get('event.events.k8s.io')?.group).toBe('events.k8s.io');
    // Neither kinds without list and watch (bindings, componentstatuses, reviews, metrics) nor subresources.
    for (const t of ['binding', 'componentstatus', 'tokenreview', 'nodemetrics', 'podmetrics'])
      expect(k.has(t), t).toBe(false);
    expect(
      list.every((x) => !x.plural.includes('/') && x.verbs.includes('list') && x.verbs.includes('watch')),
    ).toBe(true);
  });

  it('give a CRD’s kinds the printer columns of the served version, and no columns to built-in kinds', async () => {
    const k = byType((await kinds(stack)).body);
    expect(k.get('certificate')).toMatchObject({
      plural: 'certificates',
      group: 'cert-manager.io',
      version: 'v1',
      shortNames: ['cert', 'certs'],
      categories: ['cert-manager'],
    });
    expect(k.get('certificate')?.columns).toEqual([
      {
        name: 'Ready',
        type: 'string',
        jsonPath: '.status.conditions[?(@.type == "Ready")].status',
        priority: 0,
      },
      { name: 'Secret', type: 'string', jsonPath: '.spec.secretName', priority: 0 },
      { name: 'Issuer', type: 'string', jsonPath: '.spec.issuerRef.name', priority: 1 },
      {
        name: 'Status',
        type: 'string',
        jsonPath: '.status.conditions[?(@.type == "Ready")].message',
        priority: 1,
      },
      {
        name: 'Age',
        type: 'date',
        jsonPath: '.metadata.creationTimestamp',
        priority: 0,
        description: expect.stringMatching(/^CreationTimestamp/),
      },
    ]);
    expect(k.get('clusterissuer')).toMatchObject({
      namespaced: false,
      columns: [{ name: 'Ready' }, { name: 'Status' }, { name: 'Age' }],
    });
    expect(k.get('pod')).not.toHaveProperty('columns');
  });

  it('are the same read from the legacy documents as from aggregated discovery', async () => {
    const [aggregated, old] = await Promise.all([kinds(stack), kinds(legacy)]);
    expect(old.status).toBe(200);
    expect(old.body).toEqual(aggregated.body);
  });

  it('answer the same over IPC, with the paging facts', async () => {
    const http = await kinds(stack, 'limit=7&offset=3');
    const reply = await overIpc({ limit: '7', offset: '3' });
    expect(reply.data).toEqual(http.body);
    expect(reply.page).toMatchObject({ total: Number(http.headers.get('x-total')), limit: 7, offset: 3 });
    expect(reply.page?.discoveryGaps).toBeUndefined();
  });

  it('are paged like every list', async () => {
    const all = (await kinds(stack)).body;
    const page = await kinds(stack, 'limit=5&offset=5');
    expect(page.body).toEqual(all.slice(5, 10));
    expect(page.headers.get('x-total')).toBe(String(all.length));
    const link = page.headers.get('link') ?? '';
    expect(link).toContain('limit=5&offset=0>; rel="prev"');
    expect(link).toContain('limit=5&offset=10>; rel="next"');
    expect((await kinds(stack, 'limit=0')).status).toBe(400);
  });
});

describe('a group whose discovery fails', () => {
  it('is a gap of the cluster, every other group still served, on the aggregated path', async () => {
    const healthy = (await kinds(stack)).body;
    stack.sim.faults.metricsDown = true;
    metricsApiService(stack.sim, false);
    try {
      const res = await eventually(async () => {
        const r = await kinds(stack);
        expect(r.headers.get('x-discovery-gaps')).toBe('metrics.k8s.io/v1beta1');
        return r;
      }, 10_000);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-stale-since')).toBeNull();
      expect(res.body).toEqual(healthy);
      expect((await overIpc()).page?.discoveryGaps).toBe('metrics.k8s.io/v1beta1');
    } finally {
      stack.sim.faults.metricsDown = false;
      metricsApiService(stack.sim, true);
    }
    await eventually(
      async () => expect((await kinds(stack)).headers.get('x-discovery-gaps')).toBeNull(),
      10_000,
    );
  });

  it('is a gap on the legacy path too, read at the first request, each failing group named', async () => {
    const fresh = await startStack({ simulator: { aggregatedDiscovery: false } });
    try {
      fresh.sim.faults.metricsDown = true;
      fresh.sim.faults.discoveryDown = ['/apis/apps/v1'];
      const res = await kinds(fresh);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-discovery-gaps')).toBe('apps/v1,metrics.k8s.io/v1beta1');
      const everything = (await kinds(legacy)).body;
      expect(res.body).toEqual(everything.filter((k) => k.group !== 'apps'));
      expect(res.body.length).toBe(everything.length - 5);
    } finally {
      await fresh.close();
    }
  });
});

describe('a discovery that cannot be read again', () => {
  it('answers the last one read, with x-Stale-Since, until a read succeeds', async () => {
    const healthy = await kinds(stack);
    expect(healthy.headers.get('x-stale-since')).toBeNull();
    stack.sim.faults.discoveryDown = ['/api'];
    metricsApiService(stack.sim, true); // an APIService change: discovery reads again, and fails
    try {
      const stale = await eventually(async () => {
        const r = await kinds(stack);
        expect(r.headers.get('x-stale-since')).toMatch(/^\d{4}-\d\d-\d\dT/);
        return r;
      }, 10_000);
      expect(stale.status).toBe(200);
      expect(stale.body).toEqual(healthy.body);
      expect((await overIpc()).staleSince).toBe(stale.headers.get('x-stale-since'));
    } finally {
      stack.sim.faults.discoveryDown = [];
    }
    metricsApiService(stack.sim, true);
    await eventually(
      async () => expect((await kinds(stack)).headers.get('x-stale-since')).toBeNull(),
      10_000,
    );
  });
});

describe('a cluster whose discovery cannot be read at all', () => {
  it('answers the cluster’s problem, then the kinds once it answers', async () => {
    const fresh = await startStack();
    try {
      fresh.sim.faults.unauthorized = true;
      const refused = await kinds(fresh);
      expect(refused.status).toBe(502);
      expect(refused.body).toMatchObject({ code: 'cluster_unauthorized' });
      fresh.sim.faults.unauthorized = false;
      const res = await eventually(async () => {
        const r = await kinds(fresh);
        expect(r.status).toBe(200);
        return r;
      }, 10_000);
      expect(res.body.length).toBeGreaterThan(40);
    } finally {
      await fresh.close();
    }
  });
});

describe('a CustomResourceDefinition created at run time', () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gizmos.tools.example.dev' },
    spec: {
      group: 'tools.example.dev',
      names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', shortNames: ['gz'] },
      scope: 'Cluster',
      versions: [
        {
          name: 'v1beta1',
          served: true,
          storage: false,
          additionalPrinterColumns: [{ name: 'Old', type: 'string', jsonPath: '.spec.old' }],
        },
        {
          name: 'v1',
          served: true,
          storage: true,
          additionalPrinterColumns: [
            { name: 'Size', type: 'integer', jsonPath: '.spec.size', description: 'How big' },
            { name: 'Owner', type: 'string', jsonPath: '.spec.owner', priority: 2 },
          ],
        },
      ],
    },
  };

  it('appears in /kinds (polled, no clock), with its served version’s columns, and goes when deleted', async () => {
    await kinds(stack); // discovery and its CRD watch are running before the CRD comes
    expect(
      await simCall(stack.sim, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd),
    ).toBe(201);
    const gizmo = await eventually(async () => {
      const found = byType((await kinds(stack)).body).get('gizmo');
      expect(found).toBeDefined();
      return found;
    }, 10_000);
    expect(gizmo).toEqual({
      resourceType: 'gizmo',
      plural: 'gizmos',
      kind: 'Gizmo',
      group: 'tools.example.dev',
      version: 'v1',
      namespaced: false,
      shortNames: ['gz'],
      categories: [],
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      columns: [
        { name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 0, description: 'How big' },
        { name: 'Owner', type: 'string', jsonPath: '.spec.owner', priority: 2 },
      ],
    });
    expect(
      await simCall(
        stack.sim,
        'DELETE',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.tools.example.dev',
      ),
    ).toBe(200);
    await eventually(async () => expect(byType((await kinds(stack)).body).has('gizmo')).toBe(false), 10_000);
  });
});

describe('a snapshot cluster', () => {
  it('answers the nine kinds its file holds', async () => {
    const open = await startOpenStack();
    try {
      const file = join(open.dir, 'cluster.skiff');
      await captureFixture(file);
      const cluster = await open.service.snapshots.open(file);
      const res = await open.call<ServedKind[]>(
        'GET',
        `/v1/workspaces/default/observability/${cluster.clusterId}/kinds`,
      );
      expect(res.status).toBe(200);
      expect(res.body.map((k) => k.resourceType)).toEqual([
        'cronjob',
        'daemonset',
        'deployment',
        'job',
        'namespace',
        'node',
        'pod',
        'service',
        'statefulset',
      ]);
      expect(byType(res.body).get('deployment')).toEqual({
        resourceType: 'deployment',
        plural: 'deployments',
        kind: 'Deployment',
        group: 'apps',
        version: 'v1',
        namespaced: true,
        shortNames: ['deploy'],
        categories: ['all'],
        verbs: ['get', 'list', 'watch'],
      });
      expect(byType(res.body).get('node')?.categories).toEqual([]);
    } finally {
      await open.close();
    }
  });
});
