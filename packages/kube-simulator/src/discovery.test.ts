import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGGREGATED_CONTENT_TYPE } from './discovery-aggregated';
import { authHeaders } from './harness.test-support';
import { type Simulator, startSimulator } from './index';

const AGGREGATED = `${AGGREGATED_CONTENT_TYPE},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`;

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

async function call(
  s: Simulator,
  path: string,
  init: { method?: string; body?: unknown; accept?: string } = {},
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON documents, inspected by assertions only
): Promise<{ status: number; type: string; body: any }> {
  const res = await fetch(s.url + path, {
    method: init.method ?? 'GET',
    headers: {
      ...authHeaders(),
      ...(init.accept ? { Accept: init.accept } : {}),
      ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
}

const get = async (path: string, accept?: string) => (await call(sim, path, accept ? { accept } : {})).body;

function widgetCrd(name = 'widgets') {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}.example.dev` },
    spec: {
      group: 'example.dev',
      names: {
        plural: name,
        singular: name.slice(0, -1),
        kind: 'Widget',
        shortNames: ['wd'],
        categories: ['toys'],
      },
      scope: 'Namespaced',
      versions: [
        { name: 'v1alpha1', served: true, storage: false },
        { name: 'v1', served: true, storage: true, subresources: { status: {} } },
        { name: 'v1beta1', served: false, storage: false },
      ],
    },
  };
}

describe('legacy discovery', () => {
  it('lists the groups in the apiserver order, each version preferred first', async () => {
    const groups = (await get('/apis')).groups as {
      name: string;
      versions: { version: string }[];
      preferredVersion: { version: string };
    }[];
    const names = groups.map((g) => g.name);
    expect(names.slice(0, 4)).toEqual([
      'apiregistration.k8s.io',
      'apps',
      'events.k8s.io',
      'authentication.k8s.io',
    ]);
    expect(names.indexOf('cert-manager.io')).toBeGreaterThan(names.indexOf('flowcontrol.apiserver.k8s.io'));
    expect(names.at(-1)).toBe('metrics.k8s.io');
    const autoscaling = groups.find((g) => g.name === 'autoscaling');
    expect(autoscaling?.versions.map((v) => v.version)).toEqual(['v2', 'v1']);
    expect(autoscaling?.preferredVersion.version).toBe('v2');
  });

  it('describes each resource and subresource as a 1.31 apiserver does', async () => {
    const core = await get('/api/v1');
    expect(core.apiVersion).toBeUndefined();
    const byName = new Map((core.resources as { name: string }[]).map((r) => [r.name, r]));
    expect(byName.get('configmaps')).toEqual({
      name: 'configmaps',
      singularName: 'configmap',
      namespaced: true,
      kind: 'ConfigMap',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['cm'],
    });
    expect(byName.get('namespaces')).toMatchObject({
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    });
    expect(byName.get('bindings')).toMatchObject({ verbs: ['create'] });
    expect(byName.get('pods/log')).toEqual({
      name: 'pods/log',
      singularName: '',
      namespaced: true,
      kind: 'Pod',
      verbs: ['get'],
    });
    expect(byName.get('pods/eviction')).toMatchObject({ group: 'policy', version: 'v1', kind: 'Eviction' });
    const names = [...byName.keys()];
    expect(names).toEqual([...names].sort());
    const apps = await get('/apis/apps/v1');
    expect(apps).toMatchObject({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'apps/v1' });
    expect(apps.resources).toContainEqual({
      name: 'deployments/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
    const certs = await get('/apis/cert-manager.io/v1');
    expect(certs.resources).toContainEqual(
      expect.objectContaining({
        name: 'certificates',
        singularName: 'certificate',
        shortNames: ['cert', 'certs'],
        categories: ['cert-manager'],
      }),
    );
  });
});

describe('aggregated discovery', () => {
  it('answers /api with the core group alone, nameless, as apidiscovery.k8s.io/v2', async () => {
    const res = await call(sim, '/api', { accept: AGGREGATED });
    expect(res.type).toBe(AGGREGATED_CONTENT_TYPE);
    expect(res.body).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2' });
    expect(res.body.items).toHaveLength(1);
    const [core] = res.body.items;
    expect(core.metadata.name).toBeUndefined();
    expect(core.versions.map((v: { version: string }) => v.version)).toEqual(['v1']);
    expect(core.versions[0].freshness).toBe('Current');
    const pods = core.versions[0].resources.find((r: { resource: string }) => r.resource === 'pods');
    expect(pods).toMatchObject({
      resource: 'pods',
      responseKind: { group: '', version: 'v1', kind: 'Pod' },
      scope: 'Namespaced',
      singularResource: 'pod',
      shortNames: ['po'],
      categories: ['all'],
    });
    expect(pods.subresources).toContainEqual({
      subresource: 'log',
      responseKind: { group: '', version: 'v1', kind: 'Pod' },
      verbs: ['get'],
    });
    const nodes = core.versions[0].resources.find((r: { resource: string }) => r.resource === 'nodes');
    expect(nodes.scope).toBe('Cluster');
  });

  it('answers /apis with every named group and marks an aggregated API that is down Stale', async () => {
    const groups = (await call(sim, '/apis', { accept: AGGREGATED })).body.items as {
      metadata: { name: string };
      versions: { version: string; freshness: string; resources: { resource: string }[] }[];
    }[];
    const autoscaling = groups.find((g) => g.metadata.name === 'autoscaling');
    expect(autoscaling?.versions.map((v) => v.version)).toEqual(['v2', 'v1']);
    const metrics = () => groups.find((g) => g.metadata.name === 'metrics.k8s.io')?.versions[0];
    expect(metrics()?.freshness).toBe('Current');
    sim.faults.metricsDown = true;
    try {
      const down = (await call(sim, '/apis', { accept: AGGREGATED })).body.items as typeof groups;
      const version = down.find((g) => g.metadata.name === 'metrics.k8s.io')?.versions[0];
      expect(version?.freshness).toBe('Stale');
      expect(version?.resources.map((r) => r.resource)).toEqual(['nodes', 'pods']);
      expect((await call(sim, '/apis/metrics.k8s.io/v1beta1')).status).toBe(503);
    } finally {
      sim.faults.metricsDown = false;
    }
  });

  it('is not offered by a simulator started without it, nor asked for by a plain Accept', async () => {
    expect((await call(sim, '/api', { accept: 'application/json' })).body.kind).toBe('APIVersions');
    const old = await startSimulator({ aggregatedDiscovery: false });
    try {
      const res = await call(old, '/api', { accept: AGGREGATED });
      expect(res.type).toBe('application/json');
      expect(res.body.kind).toBe('APIVersions');
      expect((await call(old, '/apis', { accept: AGGREGATED })).body.kind).toBe('APIGroupList');
    } finally {
      await old.close();
    }
  });
});

describe('a CustomResourceDefinition created at run time', () => {
  it('serves its kind from then on, in both discoveries, with list, watch and its objects', async () => {
    const created = await call(sim, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      method: 'POST',
      body: widgetCrd(),
    });
    expect(created.status).toBe(201);
    expect(created.body.status.conditions.map((c: { type: string }) => c.type)).toEqual([
      'NamesAccepted',
      'Established',
    ]);
    const group = (await get('/apis')).groups.find((g: { name: string }) => g.name === 'example.dev');
    expect(group.versions.map((v: { version: string }) => v.version)).toEqual(['v1', 'v1alpha1']);
    expect((await get('/apis/example.dev/v1')).resources).toContainEqual(
      expect.objectContaining({
        name: 'widgets',
        singularName: 'widget',
        kind: 'Widget',
        shortNames: ['wd'],
        categories: ['toys'],
      }),
    );
    expect((await call(sim, '/apis/example.dev/v1beta1')).status).toBe(404);
    const aggregated = (await call(sim, '/apis', { accept: AGGREGATED })).body.items.find(
      (g: { metadata: { name: string } }) => g.metadata.name === 'example.dev',
    );
    expect(aggregated.versions[0].resources[0]).toMatchObject({
      resource: 'widgets',
      scope: 'Namespaced',
      subresources: [{ subresource: 'status' }],
    });

    const widget = {
      apiVersion: 'example.dev/v1',
      kind: 'Widget',
      metadata: { name: 'w1', namespace: 'shop' },
      spec: { size: 3 },
    };
    expect(
      (await call(sim, '/apis/example.dev/v1/namespaces/shop/widgets', { method: 'POST', body: widget }))
        .status,
    ).toBe(201);
    const listed = await get('/apis/example.dev/v1/widgets');
    expect(listed).toMatchObject({ kind: 'WidgetList', apiVersion: 'example.dev/v1' });
    expect(listed.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['w1']);
    // The other served version names itself.
    expect((await get('/apis/example.dev/v1alpha1/namespaces/shop/widgets/w1')).apiVersion).toBe(
      'example.dev/v1alpha1',
    );

    const watch = await fetch(
      `${sim.url}/apis/example.dev/v1/widgets?watch=true&resourceVersion=${listed.metadata.resourceVersion}`,
      {
        headers: authHeaders(),
      },
    );
    const reader = watch.body!.getReader();
    await call(sim, '/apis/example.dev/v1/namespaces/shop/widgets', {
      method: 'POST',
      body: { ...widget, metadata: { name: 'w2', namespace: 'shop' } },
    });
    const { value } = await reader.read();
    expect(JSON.parse(new TextDecoder().decode(value))).toMatchObject({
      type: 'ADDED',
      object: { metadata: { name: 'w2' } },
    });
    await reader.cancel();

    // Deleting the CRD deletes its objects and stops serving the kind.
    expect(
      (
        await call(sim, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.dev', {
          method: 'DELETE',
        })
      ).status,
    ).toBe(200);
    expect((await call(sim, '/apis/example.dev/v1/widgets')).status).toBe(404);
    expect((await get('/apis')).groups.map((g: { name: string }) => g.name)).not.toContain('example.dev');
    expect(sim.store.kinds.resolve('widgets')).toBeUndefined();
  });

  it('is refused as the apiserver refuses it: invalid, a second time, or not a CRD', async () => {
    const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const wrongName = { ...widgetCrd('gadgets'), metadata: { name: 'gadgets.other.dev' } };
    const invalid = await call(sim, path, { method: 'POST', body: wrongName });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({
      reason: 'Invalid',
      details: { causes: [{ field: 'metadata.name' }] },
    });
    const twoStorage = widgetCrd('gizmos');
    twoStorage.spec.versions[0]!.storage = true;
    expect((await call(sim, path, { method: 'POST', body: twoStorage })).status).toBe(422);
    expect((await call(sim, path, { method: 'POST', body: widgetCrd('sprockets') })).status).toBe(201);
    const again = await call(sim, path, { method: 'POST', body: widgetCrd('sprockets') });
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('AlreadyExists');
    expect(
      (
        await call(sim, path, {
          method: 'POST',
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
        })
      ).status,
    ).toBe(400);
    expect((await call(sim, path, { method: 'POST', body: '{not json' })).status).toBe(400);
  });
});

describe('verbs', () => {
  it('answers 405 for a verb the kind does not have, and for one the simulator does not serve', async () => {
    expect((await call(sim, '/api/v1/namespaces/shop/bindings')).status).toBe(405);
    expect((await call(sim, '/api/v1/componentstatuses')).status).toBe(200);
    expect((await call(sim, '/api/v1/componentstatuses?watch=true')).status).toBe(405);
    expect(
      (await call(sim, '/api/v1/namespaces/shop/configmaps/kube-root-ca.crt', { method: 'PATCH', body: {} }))
        .status,
    ).toBe(405);
  });

  it('serves the HorizontalPodAutoscalers at both versions, naming the one asked for', async () => {
    expect(
      (await get('/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers/frontend')).apiVersion,
    ).toBe('autoscaling/v2');
    expect(
      (await get('/apis/autoscaling/v1/namespaces/shop/horizontalpodautoscalers/frontend')).apiVersion,
    ).toBe('autoscaling/v1');
  });
});

describe('the demo', () => {
  it('holds the new kinds, and what its scenarios say is missing stays missing', async () => {
    const names = async (path: string) =>
      ((await get(path)).items as { metadata: { name: string; namespace?: string } }[]).map(
        (i) => `${i.metadata.namespace ?? ''}/${i.metadata.name}`,
      );
    const configMaps = await names('/api/v1/configmaps');
    expect(configMaps).toEqual(expect.arrayContaining(['shop/kube-root-ca.crt', 'kube-system/coredns']));
    expect(configMaps).not.toContain('demo-broken/app-config');
    expect(await names('/api/v1/secrets')).not.toContain('demo-broken/db-credentials');
    expect(await names('/apis/cert-manager.io/v1/certificates')).toEqual([
      'monitoring/grafana-tls',
      'shop/shop-tls',
    ]);
    expect(await names('/apis/cert-manager.io/v1/clusterissuers')).toEqual(['/letsencrypt']);
    const failing = await get('/apis/cert-manager.io/v1/namespaces/monitoring/certificates/grafana-tls');
    expect(failing.status.conditions[0]).toMatchObject({
      type: 'Ready',
      status: 'False',
      reason: 'DoesNotExist',
    });
    const pvc = await get('/api/v1/namespaces/shop/persistentvolumeclaims/data-postgres-0');
    expect(pvc.status.phase).toBe('Bound');
    expect(await names('/api/v1/persistentvolumes')).toEqual([`/${pvc.spec.volumeName}`, expect.any(String)]);
    const crd = await get(
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/certificates.cert-manager.io',
    );
    expect(crd.spec.versions[0].additionalPrinterColumns.map((c: { name: string }) => c.name)).toEqual([
      'Ready',
      'Secret',
      'Issuer',
      'Status',
      'Age',
    ]);
    expect(await names('/apis/apiregistration.k8s.io/v1/apiservices')).toContain('/v1beta1.metrics.k8s.io');
  });
});
