/**
 * A snapshot opened as a read-only cluster, over real HTTP: the fixture was captured from the demo
 * simulator, which is stopped before the service starts, and the service has no other cluster. So
 * every answer here comes from the file.
 */
import { join } from 'node:path';
import { DEMO_PODS } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventGroup, EventTimeline } from '../../../src-shared/contract/event-history-models';
import type { EventRecord, ResourceWrapper } from '../../../src-shared/contract/models';
import {
  type Captured,
  type Cluster,
  CONTEXT,
  captureFixture,
  isExpired,
  type OpenStack,
  startOpenStack,
  TAKEN_AT,
} from './snapshot-open.test-support';

let stack: OpenStack;
let captured: Captured;
let cluster: Cluster;
let base: string;

beforeAll(async () => {
  stack = await startOpenStack();
  const file = join(stack.dir, 'prod-eu.skiff');
  captured = await captureFixture(file);
  cluster = await stack.service.snapshots.open(file);
  base = `/v1/workspaces/default/observability/${cluster.clusterId}`;
});
afterAll(() => stack?.close());

function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const m = /^<([^>]+)>;\s*rel="(\w+)"$/.exec(part.trim());
    if (m) out[m[2]!] = m[1]!;
  }
  return out;
}

async function walk<T>(first: string) {
  const rows: T[] = [];
  const expiredRows: number[] = [];
  let next: string | undefined = first;
  while (next) {
    const res: Awaited<ReturnType<typeof stack.call<T[]>>> = await stack.call<T[]>('GET', next);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('x-stale-since')).toBeNull();
    for (const part of (res.headers.get('x-expired-rows') ?? '').split(',').filter(Boolean)) {
      const [a, b] = part.split('-').map(Number) as [number, number | undefined];
      for (let i = a; i <= (b ?? a); i++) expiredRows.push(rows.length + i);
    }
    rows.push(...res.body);
    next = links(res.headers.get('link')).next;
  }
  return { rows, expiredRows };
}

const byNamespaceThenName = (a: { ns: string; name: string }, b: { ns: string; name: string }) =>
  a.ns !== b.ns ? (a.ns < b.ns ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

describe('a snapshot opened as a cluster', () => {
  it('is a read-only cluster of the default workspace: status snapshot, takenAt, never stale', async () => {
    expect(cluster.clusterId).toBe('prod-eu-snapshot-20260301t120000z');
    const res = await stack.call<Cluster[]>('GET', '/v1/workspaces/default/clusters');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        clusterId: cluster.clusterId,
        workspaceId: 'default',
        name: `${CONTEXT} (snapshot)`,
        context: CONTEXT,
        server: 'https://fixture.example:6443',
        status: 'snapshot',
        kubernetesVersion: 'v1.31.4',
        takenAt: TAKEN_AT,
        monitoring: {
          clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: true } },
        },
      },
    ]);
  });

  it('refuses monitoring flag changes with 409: a snapshot is read-only', async () => {
    const res = await stack.call<{ code: string }>(
      'PATCH',
      `/v1/workspaces/default/clusters/${cluster.clusterId}`,
      {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clusterAgent: { monitoring: { systemEventsEnabled: false } } }),
      },
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
  });

  it('lists pods with a labelSelector, page by page, in namespace-then-name order', async () => {
    const wanted = captured.pods
      .filter((p) => ['checkout', 'payments'].includes(p.metadata.labels?.app ?? ''))
      .map((p) => ({ ns: p.metadata.namespace ?? '', name: p.metadata.name }))
      .sort(byNamespaceThenName);
    expect(wanted.length).toBeGreaterThan(2);
    const { rows } = await walk<ResourceWrapper>(
      `${base}/kubernetes-proxy/pod?labelSelector=${encodeURIComponent('app in (checkout,payments)')}&limit=2`,
    );
    expect(rows.map((r) => ({ ns: r.resource.metadata.namespace, name: r.resource.metadata.name }))).toEqual(
      wanted,
    );
    expect(rows.every((r) => r.clusterId === cluster.clusterId && r.resource.kind === 'Pod')).toBe(true);
  });

  it('answers every pod, one pod by namespace and by name alone, and a namespace list', async () => {
    const all = await stack.call<ResourceWrapper[]>('GET', `${base}/kubernetes-proxy/pod?limit=1`);
    expect(Number(all.headers.get('x-total'))).toBe(captured.pods.length);
    const { namespace, name } = DEMO_PODS.checkout;
    const one = await stack.call<ResourceWrapper>(
      'GET',
      `${base}/kubernetes-proxy/namespaces/${namespace}/pod/${name}`,
    );
    expect(one.status).toBe(200);
    const original = captured.pods.find((p) => p.metadata.name === name)!;
    expect(one.body.resource.metadata.uid).toBe(original.metadata.uid);
    expect(one.body.resource.spec).toEqual(original.spec);
    expect(one.body.resource.metadata.managedFields).toBeUndefined();
    // Usage comes from the captured metrics.k8s.io items.
    expect(one.body.usage?.cpu).toMatch(/^\d+m$/);
    const byName = await stack.call<ResourceWrapper>('GET', `${base}/kubernetes-proxy/pod/${name}`);
    expect(byName.body.resource.metadata.uid).toBe(original.metadata.uid);
    const shop = await walk<ResourceWrapper>(`${base}/kubernetes-proxy/namespaces/shop/deployment?limit=2`);
    expect(shop.rows.length).toBeGreaterThan(2);
    expect(shop.rows.every((r) => r.resource.metadata.namespace === 'shop')).toBe(true);
    const missing = await stack.call<{ code: string }>(
      'GET',
      `${base}/kubernetes-proxy/namespaces/shop/pod/nope`,
    );
    expect(missing.status).toBe(404);
  });

  it('lists the events the cluster still had by default, and the history too with includeExpired', async () => {
    const live = await walk<EventRecord>(`${base}/kubernetes-events?limit=500`);
    const liveIds = captured.events.filter((e) => !isExpired(e)).map((e) => e.metadata.uid);
    expect(live.rows.map((r) => r.eventId).sort()).toEqual([...liveIds].sort());
    expect(live.expiredRows).toEqual([]);

    const all = await walk<EventRecord>(`${base}/kubernetes-events?includeExpired=true&limit=97`);
    expect(all.rows).toHaveLength(captured.events.length);
    const expiredIds = new Set(captured.events.filter(isExpired).map((e) => e.metadata.uid));
    expect(expiredIds.size).toBeGreaterThan(0);
    expect(all.expiredRows.map((i) => all.rows[i]!.eventId).sort()).toEqual([...expiredIds].sort());
    for (let i = 1; i < all.rows.length; i++) {
      const [a, b] = [all.rows[i - 1]!, all.rows[i]!];
      const [ta, tb] = [Date.parse(a.lastTimestamp), Date.parse(b.lastTimestamp)];
      expect(ta > tb || (ta === tb && a.eventId < b.eventId)).toBe(true);
    }
  });

  it('draws the timeline and the groups from the snapshot, history included', async () => {
    const timeline = await stack.call<EventTimeline>(
      'GET',
      `${base}/kubernetes-events/timeline?includeExpired=true&buckets=20`,
    );
    expect(timeline.status).toBe(200);
    const counted = timeline.body.buckets.reduce((n, b) => n + b.normal + b.warning, 0);
    expect(counted).toBe(captured.events.length);
    const liveTimeline = await stack.call<EventTimeline>(
      'GET',
      `${base}/kubernetes-events/timeline?buckets=20`,
    );
    const liveCounted = liveTimeline.body.buckets.reduce((n, b) => n + b.normal + b.warning, 0);
    expect(liveCounted).toBe(captured.summary.liveEvents);

    const { rows: groups } = await walk<EventGroup>(
      `${base}/kubernetes-events/groups?includeExpired=true&limit=50`,
    );
    expect(groups.reduce((n, g) => n + g.events, 0)).toBe(captured.events.length);
    const crash = groups.find(
      (g) => g.involvedObject.name === DEMO_PODS.crashLoop.name && g.reason === 'BackOff',
    );
    expect(crash?.type).toBe('WARNING');
  });

  it('serves the captured logs: the current run, the previous run, tailLines and timestamps', async () => {
    const { namespace, name, container } = DEMO_PODS.crashLoop;
    const logs = `${base}/kubernetes-proxy/namespaces/${namespace}/pod/${name}/logs?container=${container}`;
    const previous = await stack.call('GET', `${logs}&previous=true`);
    expect(previous.status).toBe(200);
    expect(previous.text).toMatch(/panic/);
    const tail = await stack.call('GET', `${logs}&previous=true&tailLines=2&timestamps=true`);
    const lines = tail.text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z /);
    expect(previous.text.trimEnd().endsWith(lines[1]!.replace(/^\S+ /, ''))).toBe(true);
  });

  it('ends a follow when the captured lines end', async () => {
    const { namespace, name, container } = DEMO_PODS.checkout;
    const logs = `${base}/kubernetes-proxy/namespaces/${namespace}/pod/${name}/logs?container=${container}`;
    const plain = await stack.call('GET', logs);
    expect(plain.text.length).toBeGreaterThan(0);
    // A live cluster's follow stays open; this one answers whole and ends.
    const followed = await stack.call('GET', `${logs}&follow=true`);
    expect(followed.status).toBe(200);
    expect(followed.text).toBe(plain.text);
  });

  it('has the CrashLoopBackOff pod the guidance explains', async () => {
    const { namespace, name } = DEMO_PODS.crashLoop;
    const pod = await stack.call<ResourceWrapper>(
      'GET',
      `${base}/kubernetes-proxy/namespaces/${namespace}/pod/${name}`,
    );
    const statuses = (
      pod.body.resource.status as { containerStatuses: Array<{ state: { waiting?: { reason: string } } }> }
    ).containerStatuses;
    const reason = statuses[0]!.state.waiting!.reason;
    expect(reason).toBe('CrashLoopBackOff');
    const guidance = await stack.call<{ title: string }>('GET', `/v1/guidance/${reason}`);
    expect(guidance.status).toBe(200);
  });
});
