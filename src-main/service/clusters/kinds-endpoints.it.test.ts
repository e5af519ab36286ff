/**
 * Endpoints 1–4 for every kind the cluster serves, over real HTTP against the simulator, and the
 * same rules over IPC: each listable kind lists and reads as the apiserver holds it, with the
 * nine's wrappers, selectors, paging, Link and ETag; each naming rule of resolve-kind.ts answers as
 * docs/api.md says. States only, no clocks: what arrives by watch is polled for.
 */

import { DEFAULT_TOKEN, type Simulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedKind } from '../../../src-shared/contract/kinds-operations';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import { RESOURCE_TYPES } from '../../../src-shared/kube/kinds';
import type { Principal } from '../context';
import { ProblemError } from '../errors';
import { eventually } from '../test-support/eventually.test-support';
import {
  CLUSTER_ID,
  collectAll,
  parseLinks,
  type Stack,
  startStack,
} from '../test-support/harness.test-support';

let stack: Stack;
let principal: Principal;
let served: ServedKind[];

beforeAll(async () => {
  stack = await startStack();
  const found = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
  if (!found) throw new Error('the admin session has no principal');
  principal = found;
  served = (await stack.get<ServedKind[]>(`${stack.cluster}/kinds?limit=1000`)).body;
});
afterAll(async () => stack?.close());

const proxy = () => `${stack.cluster}/kubernetes-proxy`;

interface Listed {
  metadata: { name: string; namespace?: string; managedFields?: unknown };
  [key: string]: unknown;
}

/** What the simulator's apiserver holds, read as kubectl would (not through the service). */
async function direct<T = { items: Listed[] }>(sim: Simulator, path: string): Promise<T> {
  const res = await fetch(sim.url + path, { headers: { authorization: `Bearer ${DEFAULT_TOKEN}` } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** Tells the simulator's apiserver (as kubectl would) to create an object. */
async function create(sim: Simulator, path: string, body: unknown): Promise<void> {
  const res = await fetch(sim.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEFAULT_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, `${path}: ${await res.text()}`).toBe(201);
}

const apiPath = (k: ServedKind) => (k.group ? `/apis/${k.group}/${k.version}` : `/api/${k.version}`);
const keyOf = (o: Listed) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const isEvents = (k: ServedKind) => k.plural === 'events';

async function refusal(path: string, status = 400): Promise<Problem & Record<string, unknown>> {
  const res = await stack.get<Problem & Record<string, unknown>>(path);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(status);
  expect(res.contentType).toMatch(/^application\/problem\+json/);
  return res.body;
}

describe('every listable kind the cluster serves', () => {
  it('is served beyond the nine: configmaps, ingresses, HPAs, PVCs, ReplicaSets, CRDs and custom resources', () => {
    const types = served.map((k) => k.resourceType);
    for (const t of [
      'configmap',
      'secret',
      'ingress',
      'horizontalpodautoscaler',
      'persistentvolumeclaim',
      'replicaset',
      'storageclass',
      'customresourcedefinition',
      'certificate',
      ...RESOURCE_TYPES,
    ])
      expect(types).toContain(t);
  });

  it('lists on endpoint 1 exactly what the apiserver holds, as wrappers without managedFields', async () => {
    for (const k of served.filter((s) => !isEvents(s))) {
      const items = await collectAll<ResourceWrapper>(stack, `${proxy()}/${k.resourceType}?limit=1000`);
      const held = (await direct(stack.sim, `${apiPath(k)}/${k.plural}`)).items;
      expect(
        items.map((i) => keyOf(i.resource as Listed)),
        k.resourceType,
      ).toEqual(held.map(keyOf).sort());
      for (const item of items) {
        expect(Object.keys(item).sort()).toEqual(['clusterId', 'resource', 'workspaceId']);
        expect(item.resource.kind, k.resourceType).toBe(k.kind);
        expect(item.resource.apiVersion).toBe(k.group ? `${k.group}/${k.version}` : k.version);
        expect(item.resource.metadata.managedFields).toBeUndefined();
      }
    }
  });

  it('reads one object of each kind on endpoints 2 and 4 as the apiserver sent it, but managedFields', async () => {
    for (const k of served.filter((s) => !isEvents(s) && s.resourceType !== 'secret')) {
      const held = (await direct(stack.sim, `${apiPath(k)}/${k.plural}`)).items;
      const one = held[0];
      if (!one) continue;
      const { name, namespace } = one.metadata;
      const path = namespace
        ? `${proxy()}/namespaces/${namespace}/${k.resourceType}/${name}`
        : `${proxy()}/${k.resourceType}/${name}`;
      const res = await stack.get<ResourceWrapper>(path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      const raw = await direct<Listed>(
        stack.sim,
        `${apiPath(k)}${namespace ? `/namespaces/${namespace}` : ''}/${k.plural}/${name}`,
      );
      delete raw.metadata.managedFields;
      expect(res.body.resource, path).toEqual(raw);
      expect(res.body.clusterId).toBe(CLUSTER_ID);
    }
  });

  it('lists a namespaced kind in one namespace on endpoint 3', async () => {
    for (const t of ['configmap', 'serviceaccount', 'persistentvolumeclaim', 'certificate']) {
      const k = served.find((s) => s.resourceType === t)!;
      const items = await collectAll<ResourceWrapper>(stack, `${proxy()}/namespaces/shop/${t}?limit=1000`);
      const held = (await direct(stack.sim, `${apiPath(k)}/namespaces/shop/${k.plural}`)).items;
      expect(held.length, t).toBeGreaterThan(0);
      expect(items.map((i) => i.resource.metadata.name)).toEqual(held.map((o) => o.metadata.name).sort());
    }
  });

  it('finds a namespaced object on endpoint 2 by its name alone, and says when several namespaces hold it', async () => {
    stack.sim.store.upsert({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'only-in-shop', namespace: 'shop' },
    });
    const res = await eventually(async () => {
      const r = await stack.get<ResourceWrapper>(`${proxy()}/serviceaccount/only-in-shop`);
      expect(r.status).toBe(200);
      return r;
    });
    expect(res.body.resource.metadata.namespace).toBe('shop');
    for (const ns of ['default', 'shop']) {
      stack.sim.store.upsert({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'twice-held', namespace: ns },
        data: {},
      });
    }
    const twice = await eventually(() => refusal(`${proxy()}/configmap/twice-held`, 409));
    expect(twice.code).toBe('conflict');
    expect(twice.namespaces).toEqual(['default', 'shop']);
    expect(twice.detail).toContain('/namespaces/{namespace}/configmap/twice-held');
  });

  it('answers 404 resource_not_found for an object of any kind that does not exist', async () => {
    const cases = [
      `${proxy()}/namespaces/shop/configmap/app-config`,
      `${proxy()}/configmap/app-config`,
      `${proxy()}/storageclass/no-such-class`,
      `${proxy()}/namespaces/shop/certificate/no-such-cert`,
    ];
    for (const path of cases) {
      const p = await refusal(path, 404);
      expect(p.code, path).toBe('resource_not_found');
    }
  });

  it('reads a cluster-scoped kind on endpoint 2', async () => {
    const [sc] = (await direct(stack.sim, '/apis/storage.k8s.io/v1/storageclasses')).items;
    const res = await stack.get<ResourceWrapper>(`${proxy()}/storageclass/${sc!.metadata.name}`);
    expect(res.status).toBe(200);
    expect(res.body.resource.kind).toBe('StorageClass');
  });

  it('refuses a cluster-scoped kind under /namespaces (endpoints 3 and 4), naming the namespaced kinds', async () => {
    for (const t of ['storageclass', 'clusterrole', 'PersistentVolume', 'customresourcedefinition']) {
      for (const path of [`${proxy()}/namespaces/default/${t}`, `${proxy()}/namespaces/default/${t}/x`]) {
        const p = await refusal(path);
        expect(p.code).toBe('invalid_resource_type');
        expect(p.detail).toContain('cluster-scoped');
        expect(p.accepted).toContain('configmap');
        expect(p.accepted).not.toContain('storageclass');
      }
    }
  });
});

describe('names', () => {
  it('case does not matter, and singular.group names any kind of a named group', async () => {
    for (const [t, kind] of [
      ['ConfigMap', 'ConfigMap'],
      ['INGRESS', 'Ingress'],
      ['ingress.networking.k8s.io', 'Ingress'],
      ['Certificate.Cert-Manager.IO', 'Certificate'],
      ['deployment.apps', 'Deployment'],
      ['HorizontalPodAutoscaler.autoscaling', 'HorizontalPodAutoscaler'],
    ]) {
      const res = await stack.get<ResourceWrapper[]>(`${proxy()}/${t}?limit=1`);
      expect(res.status, `${t}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body[0]?.resource.kind).toBe(kind);
    }
    const ns = await stack.get<ResourceWrapper[]>(`${proxy()}/namespaces/shop/Certificate.cert-manager.io`);
    expect(ns.status).toBe(200);
    expect(ns.body.length).toBeGreaterThan(0);
  });

  it('a plural, a short name or a qualified plural is a 400 with the canonical name as the hint', async () => {
    for (const [t, canonical] of [
      ['configmaps', 'configmap'],
      ['cm', 'configmap'],
      ['hpa', 'horizontalpodautoscaler'],
      ['Ingresses', 'ingress'],
      ['certificates.cert-manager.io', 'certificate'],
      ['pvc', 'persistentvolumeclaim'],
      ['rs', 'replicaset'],
    ]) {
      for (const path of [`${proxy()}/${t}`, `${proxy()}/namespaces/shop/${t}/x`]) {
        const p = await refusal(path);
        expect(p.code).toBe('invalid_resource_type');
        expect(p.hint, path).toBe(`did you mean ${canonical}?`);
        expect(p.detail).toContain(`(did you mean ${canonical}?)`);
      }
    }
  });

  it('event and every other name of the Event kinds point at the events endpoint', async () => {
    const events = `/v1/workspaces/{workspaceId}/observability/${CLUSTER_ID}/kubernetes-events`;
    for (const t of ['event', 'Event', 'events', 'ev', 'event.events.k8s.io']) {
      for (const path of [`${proxy()}/${t}`, `${proxy()}/namespaces/shop/${t}`, `${proxy()}/${t}/x`]) {
        const p = await refusal(path);
        expect(p.code).toBe('invalid_resource_type');
        expect(p.detail, path).toContain(`GET ${events}`);
        expect(p.hint).toBe(`use GET ${events}`);
        expect(p.accepted).not.toContain('event');
      }
    }
  });

  it('text that is no kind name is refused before the cluster is asked', async () => {
    for (const t of ['pod.', 'a..b', '-x', encodeURIComponent('pod s')]) {
      const p = await refusal(`${proxy()}/${t}`);
      expect(p.code).toBe('invalid_resource_type');
      expect(p.detail).toContain('is no kind name');
    }
  });

  it('a singular two groups serve is refused naming both qualified forms; each qualified form is served', async () => {
    const crd = (group: string, scope: 'Namespaced' | 'Cluster') => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `widgets.${group}` },
      spec: {
        group,
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        scope,
        versions: [{ name: 'v1', served: true, storage: true }],
      },
    });
    const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    await create(stack.sim, crds, crd('alpha.example.dev', 'Namespaced'));
    await create(stack.sim, crds, crd('zeta.example.dev', 'Cluster'));
    await create(stack.sim, '/apis/alpha.example.dev/v1/namespaces/shop/widgets', {
      apiVersion: 'alpha.example.dev/v1',
      kind: 'Widget',
      metadata: { name: 'left', namespace: 'shop', labels: { side: 'left' } },
    });
    await create(stack.sim, '/apis/zeta.example.dev/v1/widgets', {
      apiVersion: 'zeta.example.dev/v1',
      kind: 'Widget',
      metadata: { name: 'right' },
    });
    // Discovery reads again when a CRD changes (its watch): polled until both are named.
    const p = await eventually(async () => {
      const body = await refusal(`${proxy()}/widget`);
      expect(body.candidates).toEqual(['widget.alpha.example.dev', 'widget.zeta.example.dev']);
      return body;
    }, 10_000);
    expect(p.code).toBe('invalid_resource_type');
    expect(p.detail).toBe(
      'resourceType "widget" is served by several groups; name one: widget.alpha.example.dev, widget.zeta.example.dev',
    );
    expect(p.hint).toBe('did you mean widget.alpha.example.dev or widget.zeta.example.dev?');
    const left = await stack.get<ResourceWrapper[]>(
      `${proxy()}/widget.alpha.example.dev?labelSelector=side%3Dleft`,
    );
    expect(left.body.map((w) => w.resource.metadata.name)).toEqual(['left']);
    const right = await stack.get<ResourceWrapper>(`${proxy()}/Widget.Zeta.Example.Dev/right`);
    expect([right.status, right.body.resource.apiVersion]).toEqual([200, 'zeta.example.dev/v1']);
    const one = await stack.get<ResourceWrapper>(`${proxy()}/namespaces/shop/widget.alpha.example.dev/left`);
    expect(one.body.resource.metadata.name).toBe('left');
    // The cluster-scoped one is refused under a namespace, the namespaced one is not.
    expect((await refusal(`${proxy()}/namespaces/shop/widget.zeta.example.dev`)).detail).toContain(
      'cluster-scoped',
    );
  });

  it('a kind the cluster does not serve is refused, near misses hinted', async () => {
    const p = await refusal(`${proxy()}/configmapp`);
    expect(p.hint).toBe('did you mean configmap?');
    const none = await refusal(`${proxy()}/gizmo`);
    expect(none).not.toHaveProperty('hint');
    expect(none.detail).toMatch(/^unknown resourceType "gizmo"; accepted values: node, namespace, /);
  });

  it("names follow their kind's rule: RBAC names may hold colons, other kinds' may not", async () => {
    stack.sim.store.upsert({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'system:controller:canary' },
      rules: [],
    });
    const res = await eventually(async () => {
      const r = await stack.get<ResourceWrapper>(`${proxy()}/clusterrole/system:controller:canary`);
      expect(r.status).toBe(200);
      return r;
    });
    expect(res.body.resource.metadata.name).toBe('system:controller:canary');
    for (const path of [`${proxy()}/namespaces/shop/configmap/a:b`, `${proxy()}/service/1web`]) {
      const p = await refusal(path);
      expect(p.code, path).toBe('invalid_name');
    }
    expect((await refusal(`${proxy()}/clusterrole/a%25b`)).code).toBe('invalid_name');
  });
});

describe('a kind beyond the nine gets what the nine get', () => {
  it('labelSelector, limit/offset and Link', async () => {
    for (const ns of ['default', 'shop']) {
      for (const i of [1, 2, 3]) {
        stack.sim.store.upsert({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `paged-${i}`, namespace: ns, labels: { paged: 'yes', n: String(i) } },
          data: {},
        });
      }
    }
    const path = `${proxy()}/configmap?labelSelector=paged%3Dyes`;
    const all = await eventually(async () => {
      const r = await stack.get<ResourceWrapper[]>(`${path}&limit=100`);
      expect(r.body).toHaveLength(6);
      return r;
    });
    expect(all.headers.get('x-total')).toBe('6');
    const page = await stack.get<ResourceWrapper[]>(`${path}&limit=2&offset=2`);
    expect(page.body.map((w) => `${w.resource.metadata.namespace}/${w.resource.metadata.name}`)).toEqual([
      'default/paged-3',
      'shop/paged-1',
    ]);
    expect([page.headers.get('x-limit'), page.headers.get('x-offset')]).toEqual(['2', '2']);
    const links = parseLinks(page.headers.get('link')!);
    expect(Object.keys(links)).toEqual(['first', 'prev', 'next', 'last']);
    expect(links.next).toMatch(/\/configmap\?labelSelector=paged%3Dyes&snapshot=[\w.-]+&limit=2&offset=4$/);
    const selected = await stack.get<ResourceWrapper[]>(
      `${proxy()}/namespaces/shop/configmap?labelSelector=n+in+(1,3)`,
    );
    expect(selected.body.map((w) => w.resource.metadata.name)).toEqual(['paged-1', 'paged-3']);
    const bad = await refusal(`${path},a+in+(`);
    expect(bad.code).toBe('invalid_label_selector');
  });

  it('ETag and 304 while the page holds, a new ETag once it changes', async () => {
    const path = `${proxy()}/namespaces/shop/ingress?limit=5`;
    const first = await stack.get<ResourceWrapper[]>(path);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await stack.get(path, { 'if-none-match': etag })).status).toBe(304);
    const ing = first.body[0]!.resource;
    const stored = stack.sim.store
      .list('ingresses', 'shop')
      .find((o) => o.metadata.name === ing.metadata.name)!;
    stack.sim.store.upsert({ ...stored, metadata: { ...stored.metadata, labels: { touched: 'yes' } } });
    const changed = await eventually(async () => {
      const r = await stack.get(path, { 'if-none-match': etag });
      expect(r.status).toBe(200);
      return r;
    });
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});

describe('the API document', () => {
  it('describes the resourceType of endpoints 1-4 by the naming rules, with a pattern JSON Schema can read', async () => {
    const doc = (
      await stack.get<{ paths: Record<string, { get: { parameters: Array<Record<string, unknown>> } }> }>(
        '/v1/openapi.json',
      )
    ).body;
    const base = '/v1/workspaces/{workspaceId}/observability/{clusterId}/kubernetes-proxy';
    for (const path of [
      `${base}/{resourceType}`,
      `${base}/{resourceType}/{resourceName}`,
      `${base}/namespaces/{namespace}/{resourceType}`,
      `${base}/namespaces/{namespace}/{resourceType}/{resourceName}`,
    ]) {
      const param = doc.paths[path]!.get.parameters.find((p) => p.name === 'resourceType')!;
      const schema = param.schema as { pattern: string; examples: string[] };
      expect(param.description, path).toContain('singular.group');
      expect(param.description).toContain('kubernetes-events');
      for (const example of schema.examples) expect(new RegExp(schema.pattern).test(example)).toBe(true);
      expect(new RegExp(schema.pattern).test('Pod')).toBe(true);
    }
  });
});

describe('over IPC', () => {
  const call = (
    name: 'listResources' | 'getNamespacedResource' | 'listNamespacedResources',
    params: object,
  ) =>
    stack.service.invoke(
      name,
      {
        params: { workspaceId: 'default', clusterId: CLUSTER_ID, ...params } as Record<string, string>,
        query: name.startsWith('list') ? { limit: '1000' } : {},
        body: undefined,
      },
      { principal, client: { via: 'ipc' }, signal: new AbortController().signal },
    );

  it('lists and reads any kind as HTTP does', async () => {
    const http = await collectAll<ResourceWrapper>(stack, `${proxy()}/certificate?limit=1000`);
    const listed = await call('listResources', { resourceType: 'Certificate.cert-manager.io' });
    expect(listed.data).toEqual(http);
    expect(listed.page?.total).toBe(http.length);
    const first = http[0]!.resource.metadata;
    const one = await call('getNamespacedResource', {
      namespace: first.namespace,
      resourceType: 'certificate',
      resourceName: first.name,
    });
    expect(one.data).toEqual(http[0]);
  });

  it('refuses by the same rules, with the same problems', async () => {
    for (const [params, hint] of [
      [{ resourceType: 'configmaps' }, 'did you mean configmap?'],
      [
        { resourceType: 'event' },
        `use GET /v1/workspaces/{workspaceId}/observability/${CLUSTER_ID}/kubernetes-events`,
      ],
    ] as const) {
      const err = await call('listResources', params).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProblemError);
      const p = (err as ProblemError).toProblem();
      expect([p.code, p.hint]).toEqual(['invalid_resource_type', hint]);
      expect(p).toEqual((await stack.get(`${proxy()}/${params.resourceType}?limit=1000`)).body);
    }
    const scoped = await call('listNamespacedResources', {
      namespace: 'shop',
      resourceType: 'storageclass',
    }).catch((e: unknown) => e);
    expect((scoped as ProblemError).toProblem().detail).toContain('cluster-scoped');
  });
});
