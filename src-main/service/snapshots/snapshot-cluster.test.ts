/**
 * A snapshot file as a frozen cluster (snapshot-cluster.ts over reader.ts): its kinds (version 2's
 * kinds table, version 1's nine), each kind's collection paged from the file in namespace/name
 * order with its progress, single objects by name, the live events, pod metrics by namespace,
 * logs, and rows that cannot be decoded left out. Files are written by the capture's own writer.
 */

import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import type { ListerWatcher } from '../cache/source';
import type { HistoryStore } from '../events/history/store';
import type { SnapshotKind } from './kinds-table';
import type { SnapshotFile } from './reader';
import {
  alterFile,
  objectJson,
  openChecked,
  type Rows,
  tempFolder,
  toVersion1,
  writeSnapshot,
} from './skiff-file.test-support';
import { snapshotCluster } from './snapshot-cluster';

let folder: ReturnType<typeof tempFolder>;
const opened: SnapshotFile[] = [];
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => {
  for (const f of opened.splice(0)) f.close();
  folder.remove();
});

const WIDGET: SnapshotKind = {
  resourceType: 'widget.example.com',
  singular: 'widget',
  plural: 'widgets',
  kind: 'Widget',
  group: 'example.com',
  version: 'v2',
  namespaced: true,
  shortNames: ['wd'],
  categories: [],
  verbs: ['get', 'list', 'watch'],
  columns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 0 }],
};
const POD: SnapshotKind = {
  resourceType: 'pod',
  singular: 'pod',
  plural: 'pods',
  kind: 'Pod',
  group: '',
  version: 'v1',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  verbs: ['get', 'list', 'watch'],
};
const NODE: SnapshotKind = {
  ...POD,
  resourceType: 'node',
  singular: 'node',
  plural: 'nodes',
  kind: 'Node',
  namespaced: false,
  shortNames: ['no'],
  categories: [],
};

const pod = (namespace: string, name: string, extra = {}) =>
  [
    'pod',
    namespace,
    name,
    objectJson('v1', 'Pod', namespace, name, {
      spec: { nodeName: 'n1', containers: [{ name: 'app' }] },
      status: { containerStatuses: [{ name: 'app', containerID: 'c-1', state: { running: {} } }] },
      ...extra,
    }),
  ] as [string, string, string, string];
const event = (uid: string, expired: boolean, json?: string) =>
  [
    uid,
    'ns',
    '2026-03-01T11:00:00Z',
    expired,
    json ?? objectJson('v1', 'Event', 'ns', `e-${uid}`, { reason: 'Pulled' }),
  ] as [string, string, string, boolean, string];

const noHistory = () => Promise.reject(new Error('not in this test'));

async function clusterOf(
  rows: Rows,
  opts: { v1?: boolean; afterCheck?: string; history?: () => Promise<HistoryStore> } = {},
) {
  const path = folder.path('c.skiff');
  writeSnapshot(path, rows);
  if (opts.v1) toVersion1(path);
  const file = await openChecked(path, 'the file');
  opened.push(file);
  if (opts.afterCheck) alterFile(path, opts.afterCheck);
  const logs: Array<Record<string, unknown>> = [];
  const cluster = snapshotCluster({
    file,
    missing: [],
    history: opts.history ?? noHistory,
    logger: pino({ level: 'warn' }, { write: (line: string) => void logs.push(JSON.parse(line)) }),
  });
  return { cluster, logs, file };
}

const signal = () => new AbortController().signal;

async function walk(lw: ListerWatcher, limit: number) {
  const pages: Array<{ names: string[]; remaining?: number }> = [];
  let token: string | undefined;
  do {
    const page = await lw.list({
      limit,
      ...(token ? { continue: token } : {}),
      timeoutMs: 1_000,
      signal: signal(),
    });
    pages.push({
      names: page.items.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`),
      ...(page.remainingItemCount !== undefined ? { remaining: page.remainingItemCount } : {}),
    });
    token = page.continue;
  } while (token);
  return pages;
}

describe('a version-2 snapshot', () => {
  const rows: Rows = {
    kinds: [POD, NODE, WIDGET],
    objects: [
      pod('shop', 'web-2'),
      pod('api', 'api-1'),
      pod('shop', 'web-1'),
      pod('api', 'api-0'),
      pod('shop', 'web-10'),
      ['node', '', 'n1', objectJson('v1', 'Node', '', 'n1')],
      [
        'widget.example.com',
        'shop',
        'w',
        objectJson('example.com/v2', 'Widget', 'shop', 'w', { spec: { size: 3 } }),
      ],
    ],
    events: [event('a', false), event('b', true), event('c', false)],
    metrics: [
      [
        'pod',
        'shop',
        'web-1',
        JSON.stringify({ metadata: { name: 'web-1', namespace: 'shop' }, containers: [] }),
      ],
      [
        'pod',
        'api',
        'api-1',
        JSON.stringify({ metadata: { name: 'api-1', namespace: 'api' }, containers: [] }),
      ],
      ['pod', 'x', 'bare', JSON.stringify({ metadata: { name: 'bare' }, containers: [] })],
      ['node', '', 'n1', JSON.stringify({ metadata: { name: 'n1' }, usage: {} })],
    ],
    logs: [['shop', 'web-1', 'app', false, ['2026-03-01T11:59:00Z hello', '2026-03-01T11:59:01Z world']]],
  };

  it('serves the kinds of its kinds table, and the facts of its meta', async () => {
    const { cluster } = await clusterOf(rows);
    expect(cluster.kindRows.map((k) => k.resourceType)).toEqual(['node', 'pod', 'widget.example.com']);
    expect(cluster.kindRows.find((k) => k.plural === 'widgets')).toEqual(WIDGET);
    expect(cluster.facts).toEqual({
      context: 'prod-eu',
      server: 'https://prod-eu.example:6443',
      kubernetesVersion: 'v1.31.4',
      takenAt: '2026-03-01T12:00:00.000Z',
    });
  });

  it('pages a kind in namespace/name order, with what remains, decoded with its kind and apiVersion', async () => {
    const { cluster } = await clusterOf(rows);
    const pods = cluster.collection({ group: '', plural: 'pods' });
    expect(pods.path).toBe('/api/v1/pods');
    expect(await walk(pods, 2)).toEqual([
      { names: ['api/api-0', 'api/api-1'], remaining: 3 },
      { names: ['shop/web-1', 'shop/web-10'], remaining: 1 },
      { names: ['shop/web-2'] },
    ]);
    expect(await walk(pods, 3)).toEqual([
      { names: ['api/api-0', 'api/api-1', 'shop/web-1'], remaining: 2 },
      { names: ['shop/web-10', 'shop/web-2'] },
    ]);
    const widgets = cluster.collection({ group: 'example.com', plural: 'widgets' });
    expect(widgets.path).toBe('/apis/example.com/v2/widgets');
    const [w] = (await widgets.list({ limit: 10, timeoutMs: 1_000, signal: signal() })).items as KubeObject[];
    expect([w?.apiVersion, w?.kind, w?.spec]).toEqual(['example.com/v2', 'Widget', { size: 3 }]);
    expect(await walk(cluster.collection({ group: '', plural: 'nodes' }), 10)).toEqual([{ names: ['/n1'] }]);
  });

  it('a kind the file does not hold is an empty collection with no objects', async () => {
    const { cluster } = await clusterOf(rows);
    const none = cluster.collection({ group: 'apps', plural: 'deployments' });
    expect(none.path).toBe('/apis/apps/v1/deployments');
    expect(await walk(none, 10)).toEqual([{ names: [] }]);
    expect(cluster.collection({ group: '', plural: 'configmaps' }).path).toBe('/api/v1/configmaps');
    expect(cluster.object({ group: 'apps', plural: 'deployments' }, 'shop', 'web')).toBeUndefined();
  });

  it('reads one object by namespace and name, a cluster-scoped one under namespace ""', async () => {
    const { cluster } = await clusterOf(rows);
    const one = cluster.object({ group: '', plural: 'pods' }, 'shop', 'web-10');
    expect([one?.kind, one?.apiVersion, one?.metadata.name]).toEqual(['Pod', 'v1', 'web-10']);
    expect(cluster.object({ group: '', plural: 'pods' }, 'shop', 'nope')).toBeUndefined();
    expect(cluster.object({ group: '', plural: 'nodes' }, '', 'n1')?.kind).toBe('Node');
  });

  it('serves the events the cluster still had, not the expired ones', async () => {
    const { cluster } = await clusterOf(rows);
    const events = cluster.events();
    expect(events.path).toBe('/api/v1/events');
    expect(await walk(events, 1)).toEqual([{ names: ['ns/e-a'], remaining: 1 }, { names: ['ns/e-c'] }]);
    const [e] = (await events.list({ limit: 1, timeoutMs: 1_000, signal: signal() })).items;
    expect([e?.kind, e?.apiVersion]).toEqual(['Event', 'v1']);
  });

  it('ends the events where the rows end, should the file lose some after the count', async () => {
    const { cluster } = await clusterOf(rows);
    const events = cluster.events();
    const first = await events.list({ limit: 1, timeoutMs: 1_000, signal: signal() });
    expect(first.remainingItemCount).toBe(1);
    alterFile(folder.path('c.skiff'), "DELETE FROM events WHERE uid = 'c'");
    const rest = await events.list({
      limit: 1,
      continue: first.continue!,
      timeoutMs: 1_000,
      signal: signal(),
    });
    expect(rest).toEqual({ items: [], resourceVersion: '1' });
  });

  it('answers the pod metrics of a namespace, reading them once', async () => {
    const { cluster, file } = await clusterOf(rows);
    expect(cluster.podMetrics('shop').map((m) => m.metadata.name)).toEqual(['web-1']);
    let reads = 0;
    const read = file.podMetrics;
    file.podMetrics = () => {
      reads++;
      return read();
    };
    expect(cluster.podMetrics('api').map((m) => [m.kind, m.metadata.name])).toEqual([
      ['PodMetrics', 'api-1'],
    ]);
    expect(cluster.podMetrics('none')).toEqual([]);
    // One whose text names no namespace is filed under none.
    expect(cluster.podMetrics('').map((m) => m.metadata.name)).toEqual(['bare']);
    expect(reads).toBe(0);
  });

  it('reads a container’s log from the file, and refuses a pod it does not have', async () => {
    const { cluster } = await clusterOf(rows);
    const conn = cluster.openLog({
      namespace: 'shop',
      pod: 'web-1',
      container: 'app',
      follow: false,
      previous: false,
      tailLines: 1,
    });
    expect(await conn.next()).toEqual(['2026-03-01T11:59:01Z world']);
    expect(await conn.next()).toBeNull();
    expect(() =>
      cluster.openLog({ namespace: 'shop', pod: 'gone', container: 'app', follow: false, previous: false }),
    ).toThrow('pod "gone" not found in namespace shop');
  });

  it('hands its history over as given', async () => {
    const store = {} as HistoryStore;
    const { cluster } = await clusterOf(rows, { history: () => Promise.resolve(store) });
    expect(await cluster.history()).toBe(store);
  });

  it('leaves out, and logs, an object or event changed after the check into text it cannot decode', async () => {
    const { cluster, logs } = await clusterOf(rows, {
      afterCheck:
        "UPDATE objects SET json = '[1]' WHERE name = 'web-1'; UPDATE events SET json = '[2]' WHERE uid = 'a'",
    });
    expect(await walk(cluster.collection({ group: '', plural: 'pods' }), 2)).toEqual([
      { names: ['api/api-0', 'api/api-1'], remaining: 3 },
      { names: ['shop/web-10'], remaining: 1 },
      { names: ['shop/web-2'] },
    ]);
    expect(cluster.object({ group: '', plural: 'pods' }, 'shop', 'web-1')).toBeUndefined();
    expect(await walk(cluster.events(), 10)).toEqual([{ names: ['ns/e-c'] }]);
    const left = logs.filter((l) => l.msg === 'snapshot: an object that cannot be read is left out');
    expect(left.map((l) => l.where)).toEqual(['pod shop/web-1', 'pod shop/web-1', 'event']);
    expect(left[0]?.file).toBe(folder.path('c.skiff'));
  });
});

describe('a version-1 snapshot', () => {
  it('serves the nine kinds, and its objects under their names', async () => {
    const { cluster } = await clusterOf({ objects: [pod('shop', 'web-1')] }, { v1: true });
    expect(cluster.kindRows).toHaveLength(9);
    expect(cluster.kindRows.find((k) => k.plural === 'pods')).toMatchObject({
      resourceType: 'pod',
      singular: 'pod',
    });
    expect(await walk(cluster.collection({ group: '', plural: 'pods' }), 10)).toEqual([
      { names: ['shop/web-1'] },
    ]);
    expect(
      cluster.openLog({ namespace: 'shop', pod: 'web-1', container: 'app', follow: false, previous: false }),
    ).toBeDefined();
  });
});

describe('a snapshot without pods', () => {
  it('has no pod to read a log of', async () => {
    const { cluster } = await clusterOf({
      kinds: [NODE],
      objects: [['node', '', 'n1', objectJson('v1', 'Node', '', 'n1')]],
    });
    expect(() =>
      cluster.openLog({ namespace: 'shop', pod: 'web-1', container: 'app', follow: false, previous: false }),
    ).toThrow('pod "web-1" not found in namespace shop');
  });
});

describe('what the file lacks', () => {
  it('is part of the facts when there is any', async () => {
    const path = folder.path('m.skiff');
    writeSnapshot(path, { objects: [pod('shop', 'web-1')] });
    const file = await openChecked(path);
    opened.push(file);
    const gap = { part: 'logs', reason: 'the kubelet did not answer' };
    const cluster = snapshotCluster({
      file,
      missing: [gap],
      history: noHistory,
      logger: pino({ level: 'silent' }),
    });
    expect(cluster.facts.missing).toEqual([gap]);
  });
});
