import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, harness } from './harness.test-support';
import { DEMO_PODS, type Simulator } from './index';
import { tableVersion } from './table-http';

/** What kubectl 1.32 sends with `get`. */
const KUBECTL_ACCEPT =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

let sim: Simulator;
beforeAll(async () => {
  ({ sim } = await harness({ tickMs: false }));
});
afterAll(() => sim.close());

interface Table {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: { name: string }[];
  rows: {
    cells: unknown[];
    conditions?: { type: string; reason: string }[];
    object?: { kind: string; apiVersion?: string; metadata: { name: string; resourceVersion?: string } };
  }[];
}

async function get(path: string, accept = KUBECTL_ACCEPT) {
  const res = await fetch(sim.url + path, { headers: { ...authHeaders(), accept } });
  return { status: res.status, body: (await res.json()) as Table & { items?: unknown[]; message?: string } };
}

describe('tableVersion', () => {
  it('finds the meta.k8s.io Table version asked for first, in any case and spacing', () => {
    expect(tableVersion(KUBECTL_ACCEPT)).toBe('v1');
    expect(tableVersion('application/json;as=Table;v=v1beta1;g=meta.k8s.io, application/json')).toBe(
      'v1beta1',
    );
    expect(tableVersion('application/json; AS=Table; G=meta.k8s.io; V=v1')).toBe('v1');
    expect(tableVersion('application/json')).toBeUndefined();
    expect(tableVersion(undefined)).toBeUndefined();
    expect(tableVersion('application/yaml;as=Table;v=v1;g=meta.k8s.io')).toBeUndefined();
    expect(tableVersion('application/json;as=Table;v=v1;g=example.com')).toBeUndefined();
    expect(tableVersion('application/json;as=Table;v=v2;g=meta.k8s.io')).toBeUndefined();
    expect(tableVersion('application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io')).toBeUndefined();
  });
});

describe('Tables over HTTP, as kubectl get asks for them', () => {
  it('answers a pod list as a Table whose rows carry each pod as metadata, keeping the paging', async () => {
    const first = await get('/api/v1/pods?limit=5');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(first.body.columnDefinitions.map((c) => c.name).slice(0, 5)).toEqual([
      'Name',
      'Ready',
      'Status',
      'Restarts',
      'Age',
    ]);
    expect(first.body.rows).toHaveLength(5);
    expect(first.body.rows[0]?.object).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
    });
    expect(first.body.rows[0]?.object).not.toHaveProperty('spec');
    const plain = (await get('/api/v1/pods?limit=5', 'application/json')).body as unknown as {
      metadata: Table['metadata'];
      items: { metadata: { name: string } }[];
    };
    expect(first.body.rows.map((r) => r.cells[0])).toEqual(plain.items.map((i) => i.metadata.name));
    expect(first.body.metadata).toEqual(plain.metadata);
    expect(first.body.metadata.continue).toEqual(expect.any(String));

    const rest = await get(`/api/v1/pods?limit=500&continue=${first.body.metadata.continue}`);
    expect(rest.body.rows.length).toBe(first.body.metadata.remainingItemCount);
    // A finished pod's row says so, as the apiserver marks it (kubectl's --show-all once read it).
    const batch = await get('/api/v1/namespaces/batch/pods');
    const completed = batch.body.rows.filter((r) => r.cells[2] === 'Completed');
    expect(completed.length).toBeGreaterThan(0);
    for (const row of completed)
      expect(row.conditions).toEqual([expect.objectContaining({ type: 'Completed', reason: 'Succeeded' })]);
    expect(batch.body.rows.filter((r) => r.cells[2] === 'Running').map((r) => r.conditions)).toContain(
      undefined,
    );
  });

  it('prints one pod as a Table of one row, with the status kubectl shows', async () => {
    const { namespace, name, status } = DEMO_PODS.crashLoop;
    const one = await get(`/api/v1/namespaces/${namespace}/pods/${name}`);
    expect(one.body.rows).toHaveLength(1);
    expect(one.body.metadata.resourceVersion).toBe(one.body.rows[0]?.object?.metadata.resourceVersion);
    expect(one.body.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(one.body.rows[0]?.cells.slice(0, 3)).toEqual([name, '0/1', status]);
    const v1beta1 = await get(
      `/api/v1/namespaces/${namespace}/pods/${name}`,
      'application/json;as=Table;v=v1beta1;g=meta.k8s.io',
    );
    expect(v1beta1.body.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(v1beta1.body.rows[0]?.object?.apiVersion).toBe('meta.k8s.io/v1beta1');
  });

  it('carries the whole object, or none, as includeObject says, and refuses any other value', async () => {
    const { namespace, name } = DEMO_PODS.checkout;
    const path = `/api/v1/namespaces/${namespace}/pods/${name}`;
    const whole = await get(`${path}?includeObject=Object`);
    expect(whole.body.rows[0]?.object).toMatchObject({
      kind: 'Pod',
      apiVersion: 'v1',
      spec: expect.any(Object),
    });
    const none = await get(`${path}?includeObject=None`);
    expect(none.body.rows[0]).not.toHaveProperty('object');
    const bad = await get(`${path}?includeObject=Everything`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/includeObject: Unsupported value: "Everything"/);
  });

  it('prints events, and answers kinds without a printer (and clients that do not ask) with the plain list', async () => {
    const events = await get(`/api/v1/namespaces/${DEMO_PODS.crashLoop.namespace}/events?limit=1`);
    expect(events.body.columnDefinitions.map((c) => c.name).slice(0, 4)).toEqual([
      'Last Seen',
      'Type',
      'Reason',
      'Object',
    ]);
    expect((await get('/api/v1/configmaps?limit=1')).body.kind).toBe('ConfigMapList');
    expect((await get('/apis/events.k8s.io/v1/events?limit=1')).body.kind).toBe('EventList');
    expect((await get('/api/v1/pods?limit=1', 'application/json')).body.kind).toBe('PodList');
  });

  it('sends each object of a watch that asks as a Table of one row, as kubectl get -w reads it', async () => {
    const { namespace, name } = DEMO_PODS.payments;
    const ctrl = new AbortController();
    const res = await fetch(
      `${sim.url}/api/v1/namespaces/${namespace}/pods?watch=true&fieldSelector=metadata.name%3D${name}`,
      {
        headers: { ...authHeaders(), accept: KUBECTL_ACCEPT },
        signal: ctrl.signal,
      },
    );
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n')) text += new TextDecoder().decode((await reader.read()).value);
    ctrl.abort();
    const event = JSON.parse(text.split('\n')[0]!) as { type: string; object: Table };
    expect(event.type).toBe('ADDED');
    expect(event.object.kind).toBe('Table');
    expect(event.object.rows.map((r) => r.cells[0])).toEqual([name]);
  });
});
