/**
 * A version-2 snapshot holding kinds beyond the nine (ConfigMaps, a custom resource) opened as a
 * cluster, over real HTTP: every answer comes from the file through its own source (issue 23 §4),
 * with no simulator and no network on the path. The cluster's client is closed from the start,
 * so an answer that needed the network would fail here. Lists, single reads, the kinds, the logs,
 * and the refusals a snapshot gives (monitoring flags, a capture of it) are checked.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedKind } from '../../../src-shared/contract/kinds-operations';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import { RESOURCE_KINDS } from '../../../src-shared/kube/kinds';
import type { SnapshotKind } from './kinds-table';
import { objectJson, writeSnapshot } from './skiff-file.test-support';
import { type Cluster, type OpenStack, startOpenStack } from './snapshot-open.test-support';

const kind = (
  k: Omit<SnapshotKind, 'verbs' | 'categories' | 'shortNames'> & Partial<Pick<SnapshotKind, 'shortNames'>>,
): SnapshotKind => ({
  verbs: ['get', 'list', 'watch'],
  categories: [],
  shortNames: [],
  ...k,
});
const KINDS: SnapshotKind[] = [
  kind({
    resourceType: 'pod',
    singular: 'pod',
    plural: 'pods',
    kind: 'Pod',
    group: '',
    version: 'v1',
    namespaced: true,
  }),
  kind({
    resourceType: 'configmap',
    singular: 'configmap',
    plural: 'configmaps',
    kind: 'ConfigMap',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['cm'],
  }),
  kind({
    resourceType: 'widget',
    singular: 'widget',
    plural: 'widgets',
    kind: 'Widget',
    group: 'example.com',
    version: 'v1',
    namespaced: true,
    columns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 0 }],
  }),
];

const CONFIGMAPS = 1_500;

let stack: OpenStack;
let cluster: Cluster;
let base: string;

beforeAll(async () => {
  stack = await startOpenStack();
  const path = join(stack.dir, 'kinds.skiff');
  writeSnapshot(path, {
    kinds: KINDS,
    objects: [
      [
        'pod',
        'shop',
        'web',
        objectJson('v1', 'Pod', 'shop', 'web', {
          spec: { nodeName: 'n1', containers: [{ name: 'app' }] },
          status: {
            phase: 'Running',
            containerStatuses: [{ name: 'app', containerID: 'c-1', state: { running: {} } }],
          },
        }),
      ],
      ...Array.from(
        { length: CONFIGMAPS },
        (_, i) =>
          [
            'configmap',
            i % 2 ? 'shop' : 'ops',
            `config-${String(i).padStart(4, '0')}`,
            objectJson('v1', 'ConfigMap', i % 2 ? 'shop' : 'ops', `config-${String(i).padStart(4, '0')}`, {
              data: { n: String(i) },
            }),
          ] as [string, string, string, string],
      ),
      ['widget', 'shop', 'w', objectJson('example.com/v1', 'Widget', 'shop', 'w', { spec: { size: 3 } })],
    ],
    logs: [['shop', 'web', 'app', false, ['2026-03-01T11:59:00Z hello', '2026-03-01T11:59:01Z world']]],
  });
  cluster = await stack.service.snapshots.open(path);
  base = `/v1/workspaces/default/observability/${cluster.clusterId}`;
});
afterAll(() => stack?.close());

describe('a snapshot of every kind, served from its file', () => {
  it('cannot reach any network: its cluster connection’s client is closed', async () => {
    const connection = stack.service.registry.byId(cluster.clusterId)!;
    expect(connection.snapshot?.context).toBe('prod-eu');
    await expect(connection.client.getJson('/version', { timeoutMs: 1_000 })).rejects.toThrow(
      'the cluster connection was closed',
    );
  });

  it('answers the kinds its file holds, with their printer columns', async () => {
    const res = await stack.call<ServedKind[]>('GET', `${base}/kinds`);
    expect(res.status).toBe(200);
    expect(res.body.map((k) => k.resourceType)).toEqual(['configmap', 'pod', 'widget']);
    expect(res.body.find((k) => k.kind === 'Widget')?.columns).toEqual(KINDS[2]!.columns);
  });

  it('lists a kind beyond the nine, all its pages, in namespace/name order', async () => {
    const names: string[] = [];
    for (let offset = 0; ; offset += 500) {
      const res = await stack.call<ResourceWrapper[]>(
        'GET',
        `${base}/kubernetes-proxy/configmap?limit=500&offset=${offset}`,
      );
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('x-stale-since')).toBeNull();
      expect(Number(res.headers.get('x-total'))).toBe(CONFIGMAPS);
      names.push(...res.body.map((w) => `${w.resource.metadata.namespace}/${w.resource.metadata.name}`));
      if (res.body.length < 500) break;
    }
    expect(names).toHaveLength(CONFIGMAPS);
    expect(names).toEqual([...names].sort());
    const shop = await stack.call<ResourceWrapper[]>(
      'GET',
      `${base}/kubernetes-proxy/namespaces/shop/configmap?limit=1`,
    );
    expect(Number(shop.headers.get('x-total'))).toBe(CONFIGMAPS / 2);
  });

  it('reads one custom resource and one ConfigMap from the file, and 404 for one it does not hold', async () => {
    const widget = await stack.call<ResourceWrapper>(
      'GET',
      `${base}/kubernetes-proxy/namespaces/shop/widget/w`,
    );
    expect(widget.status, widget.text).toBe(200);
    expect(widget.body.resource).toMatchObject({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      spec: { size: 3 },
    });
    const qualified = await stack.call<ResourceWrapper>(
      'GET',
      `${base}/kubernetes-proxy/namespaces/shop/widget.example.com/w`,
    );
    expect(qualified.body.resource.metadata.name).toBe('w');
    const cm = await stack.call<ResourceWrapper>(
      'GET',
      `${base}/kubernetes-proxy/namespaces/ops/configmap/config-0000`,
    );
    expect(cm.body.resource).toMatchObject({ kind: 'ConfigMap', data: { n: '0' } });
    const missing = await stack.call<{ code: string }>(
      'GET',
      `${base}/kubernetes-proxy/namespaces/shop/widget/nope`,
    );
    expect([missing.status, missing.body.code]).toEqual([404, 'resource_not_found']);
  });

  it('of a kind its file does not hold, lists one of the nine as empty and refuses any other name', async () => {
    const res = await stack.call<unknown[]>(
      'GET',
      `${base}/kubernetes-proxy/${RESOURCE_KINDS.deployment.singular}`,
    );
    // The nine are known by name whatever the file holds; a snapshot without them has none.
    expect([res.status, res.body.length]).toEqual([200, 0]);
    const unknown = await stack.call<{ code: string }>('GET', `${base}/kubernetes-proxy/gadget`);
    expect([unknown.status, unknown.body.code]).toEqual([400, 'invalid_resource_type']);
  });

  it('serves a pod’s log from the file', async () => {
    const res = await stack.call(
      'GET',
      `${base}/kubernetes-proxy/namespaces/shop/pod/web/logs?timestamps=true`,
    );
    expect(res.status, res.text).toBe(200);
    // The lines as captured: the kubelet's own timestamps, unchanged.
    expect(res.text).toBe('2026-03-01T11:59:00Z hello\n2026-03-01T11:59:01Z world\n');
  });

  it('stops a kind’s cache when idle, as a live cluster’s, and reads the file again on the next list', async () => {
    const connection = stack.service.registry.byId(cluster.clusterId)!;
    const configmap = await connection.kind('configmap');
    const list = () => stack.call<ResourceWrapper[]>('GET', `${base}/kubernetes-proxy/configmap?limit=1`);
    expect(Number((await list()).headers.get('x-total'))).toBe(CONFIGMAPS);
    const before = connection.resources(configmap);
    await new Promise((r) => setTimeout(r, 30));
    await connection.sweep(10);
    expect(connection.resources(configmap)).not.toBe(before);
    expect(Number((await list()).headers.get('x-total'))).toBe(CONFIGMAPS);
  });

  it('refuses a capture of itself with 409: it is a file already', async () => {
    const res = await stack.call<{ code: string; detail: string }>(
      'POST',
      `/v1/workspaces/default/clusters/${cluster.clusterId}/snapshots`,
      { headers: { 'content-type': 'application/json' }, body: '{}' },
    );
    expect([res.status, res.body.code]).toEqual([409, 'conflict']);
    expect(res.body.detail).toMatch(/is a snapshot \(of prod-eu, taken 2026-03-01T12:00:00.000Z\)/);
  });
});
