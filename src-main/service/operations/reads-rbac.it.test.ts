/**
 * `--authorize rbac` over HTTP for every read beside the resource lists (issue 26 §2): logs,
 * events (list, timeline, groups, watch), relations, search, counts, explanations and snapshot
 * capture, the service against the simulator's RBAC and its demo team. The local account "alice"
 * (Kubernetes user skiff:alice, bound in namespace `shop` only) is made an administrator of Skiff
 * so she may take a snapshot: Skiff's role decides who may capture, the cluster's RBAC what the
 * capture holds. The admin (skiff:admin, bound cluster-wide) is the control: each refusal here is
 * checked against what the admin is given for the same request.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TEAM } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord } from '../../../src-shared/contract/models';
import type { Relations } from '../../../src-shared/contract/relations-operations';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import {
  download,
  finished,
  gapsOf,
  readSnapshot,
  SNAPSHOTS,
} from '../snapshots/snapshot-capture.test-support';
import { eventually } from '../test-support/eventually.test-support';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { login } from '../test-support/login.test-support';

interface Wrapper {
  resource: { metadata: { name: string; namespace?: string } };
}
interface Problem {
  status: number;
  code: string;
  detail: string;
  permission?: Record<string, string>;
}

const SHOP = DEMO_TEAM.namespace;
let stack: Stack;
let alice: Record<string, string>;
/** A member of the default workspace bound to nothing in the cluster (skiff:bob). */
let bob: Record<string, string>;
let dir: string;
const proxy = () => `${stack.cluster}/kubernetes-proxy`;
const events = () => `${stack.cluster}/kubernetes-events`;
const asAlice = <T>(path: string) => stack.get<T>(path, alice);

/** A pod's name in a namespace, as the admin lists it. */
async function podIn(namespace: string): Promise<string> {
  const res = await stack.get<Wrapper[]>(`${proxy()}/namespaces/${namespace}/pod?limit=1`);
  expect(res.body.length).toBeGreaterThan(0);
  return res.body[0]!.resource.metadata.name;
}

beforeAll(async () => {
  stack = await startStack({ service: { authorize: {} } });
  dir = await mkdtemp(join(tmpdir(), 'skiff-reads-rbac-'));
  const created = await stack.send('POST', '/v1/auth/accounts', {
    username: 'alice',
    password: 'alice-password-0123',
    role: 'admin',
    workspaces: ['default'],
  });
  expect(created.status).toBe(201);
  alice = (await login(stack.url, 'alice', 'alice-password-0123')).headers;
  const bobs = await stack.send('POST', '/v1/auth/accounts', {
    username: 'bob',
    password: 'bob-password-0123',
    workspaces: ['default'],
  });
  expect(bobs.status).toBe(201);
  bob = (await login(stack.url, 'bob', 'bob-password-0123')).headers;
}, 60_000);
afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('logs need get pods/log in the namespace', () => {
  it('reads a pod’s log in shop', async () => {
    const pod = await podIn(SHOP);
    const res = await asAlice<string>(`${proxy()}/namespaces/${SHOP}/pod/${pod}/logs?tailLines=5`);
    expect(res.status).toBe(200);
  });

  it('is a 403 elsewhere naming get pods/log, while the admin reads it', async () => {
    const pod = await podIn('kube-system');
    const path = `${proxy()}/namespaces/kube-system/pod/${pod}/logs?tailLines=5`;
    expect((await stack.get(path)).status).toBe(200);
    const res = await asAlice<Problem>(path);
    expect(res.status).toBe(403);
    expect(res.contentType).toContain('application/problem+json');
    expect(res.body.code).toBe('forbidden');
    expect(res.body.permission).toMatchObject({
      verb: 'get',
      group: '',
      resource: 'pods',
      subresource: 'log',
      namespace: 'kube-system',
    });
    expect(res.body.detail).toContain('User "skiff:alice" cannot get resource "pods/log"');
  });
});

describe('events need list events in the namespace', () => {
  it('answers only shop across namespaces, and x-Total counts only shop', async () => {
    const all = await stack.get<EventRecord[]>(`${events()}?limit=500`);
    const namespaces = new Set(all.body.map((e) => e.involvedObject.namespace));
    expect(namespaces.size).toBeGreaterThan(1);
    const shop = await stack.get<EventRecord[]>(`${events()}?namespace=${SHOP}&limit=500`);
    expect(shop.body.length).toBeGreaterThan(0);
    const hers = await asAlice<EventRecord[]>(`${events()}?limit=500`);
    expect(hers.status).toBe(200);
    expect(new Set(hers.body.map((e) => e.involvedObject.namespace))).toEqual(new Set([SHOP]));
    expect(hers.body.map((e) => e.eventId)).toEqual(shop.body.map((e) => e.eventId));
    expect(hers.headers.get('x-total')).toBe(shop.headers.get('x-total'));
    // From the recorded history too (includeExpired reads the database, not the cache).
    const recorded = await asAlice<EventRecord[]>(`${events()}?limit=500&includeExpired=true`);
    expect(recorded.status).toBe(200);
    expect(new Set(recorded.body.map((e) => e.involvedObject.namespace))).toEqual(new Set([SHOP]));
  });

  it('is a 403 for another namespace named, naming list events there', async () => {
    const res = await asAlice<Problem>(`${events()}?namespace=kube-system`);
    expect(res.status).toBe(403);
    expect(res.body.permission).toMatchObject({
      verb: 'list',
      resource: 'events',
      namespace: 'kube-system',
    });
    for (const sub of ['timeline', 'groups']) {
      expect((await asAlice(`${events()}/${sub}?namespace=kube-system`)).status).toBe(403);
    }
  });

  it('counts only shop in the timeline and the groups', async () => {
    const groupsOf = async (path: string, headers?: Record<string, string>) =>
      (await stack.get<Array<{ count: number }>>(path, headers)).headers.get('x-total');
    expect(await groupsOf(`${events()}/groups?limit=500`, alice)).toBe(
      await groupsOf(`${events()}/groups?namespace=${SHOP}&limit=500`),
    );
    // The buckets' counts: each request counts back from its own now, so the instants differ.
    type Timeline = { buckets: Array<{ normal: number; warning: number }> };
    const timeline = async (path: string, headers?: Record<string, string>) =>
      (await stack.get<Timeline>(path, headers)).body.buckets.map((b) => [b.normal, b.warning]);
    expect(await timeline(`${events()}/timeline?since=24h`, alice)).toEqual(
      await timeline(`${events()}/timeline?since=24h&namespace=${SHOP}`),
    );
    expect(await timeline(`${events()}/timeline?since=24h`)).not.toEqual(
      await timeline(`${events()}/timeline?since=24h&namespace=${SHOP}`),
    );
  });

  it('streams only shop’s events in a watch across namespaces', async () => {
    const controller = new AbortController();
    const res = await fetch(`${stack.url}${events()}?watch=true`, {
      headers: { ...alice, accept: 'application/x-ndjson' },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    try {
      await eventually(async () => {
        const { value } = await reader.read();
        text += decoder.decode(value);
        expect(text).toContain('"SYNCED"');
      }, 20_000);
    } finally {
      controller.abort();
    }
    const added = text
      .split('\n')
      .filter((l) => l.includes('"ADDED"'))
      .map((l) => JSON.parse(l) as { event: EventRecord });
    expect(added.length).toBeGreaterThan(0);
    expect(new Set(added.map((r) => r.event.involvedObject.namespace))).toEqual(new Set([SHOP]));
  });
});

describe('relations, search, counts and explanations', () => {
  it('leaves out related objects alice may not get, and says how many', async () => {
    const pod = await podIn(SHOP);
    const path = `${stack.cluster}/relations/namespaces/${SHOP}/pod/${pod}`;
    const admins = (await stack.get<Relations>(path)).body;
    // A pod uses its node: cluster-scoped, which a Role in shop does not grant.
    expect(admins.uses.some((r) => r.resourceType === 'node')).toBe(true);
    expect(admins.hidden).toBeUndefined();
    const res = await asAlice<Relations>(path);
    expect(res.status).toBe(200);
    const hers = res.body;
    expect(hers.uses.some((r) => r.resourceType === 'node')).toBe(false);
    expect(hers.hidden).toBeGreaterThan(0);
    const outside = (list: Relations['uses']) => list.filter((r) => r.namespace !== SHOP).length;
    expect(outside(hers.uses) + outside(hers.owners) + outside(hers.usedBy)).toBe(0);
    expect(hers.owners).toEqual(admins.owners.filter((r) => r.namespace === SHOP));
  });

  it('is a 403 for an object elsewhere, by path or found by name', async () => {
    const pod = await podIn('kube-system');
    const res = await asAlice<Problem>(`${stack.cluster}/relations/namespaces/kube-system/pod/${pod}`);
    expect(res.status).toBe(403);
    expect(res.body.permission).toMatchObject({ verb: 'get', resource: 'pods', namespace: 'kube-system' });
    // Named without a namespace: a 403 at the cluster scope, which does not say where it is.
    const unplaced = await asAlice<Problem>(`${stack.cluster}/relations/pod/${pod}`);
    expect(unplaced.status).toBe(403);
    expect(unplaced.body.permission).toEqual({ verb: 'get', group: '', resource: 'pods', name: pod });
    expect(unplaced.body.detail).not.toContain('kube-system');
    expect((await stack.get(`${stack.cluster}/relations/pod/${pod}`)).status).toBe(200);
    const shopPod = await podIn(SHOP);
    const found = await asAlice<Relations>(`${stack.cluster}/relations/pod/${shopPod}`);
    expect(found.body.object).toMatchObject({ namespace: SHOP, name: shopPod });
  });

  it('explains an object in shop and refuses one elsewhere', async () => {
    const shopPod = await podIn(SHOP);
    expect((await asAlice(`${stack.cluster}/explanations/namespaces/${SHOP}/pod/${shopPod}`)).status).toBe(
      200,
    );
    const pod = await podIn('kube-system');
    const res = await asAlice<Problem>(`${stack.cluster}/explanations/namespaces/kube-system/pod/${pod}`);
    expect(res.status).toBe(403);
    expect(res.body.permission).toMatchObject({ verb: 'get', resource: 'pods', namespace: 'kube-system' });
    const unplaced = await asAlice<Problem>(`${stack.cluster}/explanations/pod/${pod}`);
    expect(unplaced.status).toBe(403);
    expect(unplaced.body.permission).toEqual({ verb: 'get', group: '', resource: 'pods', name: pod });
    expect((await asAlice(`${stack.cluster}/explanations/pod/${shopPod}`)).status).toBe(200);
  });

  it('finds only shop’s objects in search', async () => {
    // A first letter pod names start with both in shop and elsewhere.
    const pods = (await stack.get<Wrapper[]>(`${proxy()}/pod?limit=500`)).body.map(
      (w) => w.resource.metadata,
    );
    const initial = (ns: string) =>
      new Set(pods.filter((m) => (m.namespace === SHOP) === (ns === SHOP)).map((m) => m.name[0]));
    const elsewhere = initial('');
    const q = [...initial(SHOP)].find((c) => elsewhere.has(c));
    expect(q).toBeDefined();
    const path = `${stack.cluster}/search?q=${q}&resourceTypes=pod&limit=500`;
    const admins = await stack.get<Array<{ namespace?: string }>>(path);
    expect(new Set(admins.body.map((h) => h.namespace ?? '')).size).toBeGreaterThan(1);
    const hers = await asAlice<Array<{ namespace?: string }>>(path);
    expect(hers.status).toBe(200);
    expect(hers.body.length).toBeGreaterThan(0);
    expect(new Set(hers.body.map((h) => h.namespace ?? ''))).toEqual(new Set([SHOP]));
    expect(hers.body).toEqual(admins.body.filter((h) => h.namespace === SHOP));
  });

  it('counts in shop, and names the permission where she may not list', async () => {
    type Count = { resourceType: string; count?: number; error?: string };
    const inShop = await asAlice<Count[]>(`${stack.cluster}/counts?namespace=${SHOP}&resourceTypes=pod`);
    expect(inShop.body[0]?.count).toBeGreaterThan(0);
    const elsewhere = await asAlice<Count[]>(
      `${stack.cluster}/counts?namespace=kube-system&resourceTypes=pod`,
    );
    expect(elsewhere.body[0]?.count).toBeUndefined();
    expect(elsewhere.body[0]?.error).toContain('cannot list resource "pods"');
    const admins = await stack.get<Count[]>(
      `${stack.cluster}/counts?namespace=kube-system&resourceTypes=pod`,
    );
    expect(admins.body[0]?.count).toBeGreaterThan(0);
  });

  it('counts across namespaces only where she may list, as x-Total does: the tree’s "All namespaces"', async () => {
    type Count = { resourceType: string; count?: number; error?: string };
    const counts = async (query: string, headers?: Record<string, string>) => {
      const res = await stack.get<Count[]>(`${stack.cluster}/counts?${query}`, headers);
      expect(res.status).toBe(200);
      return new Map(res.body.map((c) => [c.resourceType, c]));
    };
    const kinds = 'resourceTypes=pod,configmap,node';
    const everywhere = await counts(kinds);
    const inShop = await counts(`namespace=${SHOP}&resourceTypes=pod,configmap`);
    const hers = await counts(kinds, alice);
    for (const type of ['pod', 'configmap']) {
      expect(hers.get(type)?.error).toBeUndefined();
      expect(hers.get(type)?.count).toBe(inShop.get(type)?.count);
      expect(hers.get(type)!.count!).toBeLessThan(everywhere.get(type)!.count!);
    }
    const list = await asAlice<unknown[]>(`${proxy()}/pod?limit=1`);
    expect(String(hers.get('pod')?.count)).toBe(list.headers.get('x-total'));
    // A cluster-scoped kind is still counted at the cluster scope only: her refusal names it.
    expect(hers.get('node')?.count).toBeUndefined();
    expect(hers.get('node')?.error).toContain('cannot list resource "nodes"');
    // Allowed nowhere: 0, as her list across namespaces is empty.
    const bobs = await counts('resourceTypes=pod', bob);
    expect(bobs.get('pod')).toMatchObject({ count: 0, exact: true });
    expect(bobs.get('pod')?.error).toBeUndefined();
  });
});

describe('a snapshot captures only what its taker may read', () => {
  let job: SnapshotJob;
  let file: string;

  beforeAll(async () => {
    const res = await stack.send<SnapshotJob>('POST', SNAPSHOTS, { logLines: 5 }, alice);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    job = await finished(stack, res.body.snapshotId, 60_000);
    file = (await download(stack, job.snapshotId, dir)).path;
  }, 90_000);

  it('holds objects, events, logs and metrics of shop only', () => {
    expect(job.status).toBe('done');
    readSnapshot(file, (db) => {
      const namespaces = (table: string) =>
        (db.prepare(`SELECT DISTINCT namespace FROM ${table}`).all() as Array<{ namespace: string }>).map(
          (r) => r.namespace,
        );
      expect(namespaces('objects')).toEqual([SHOP]);
      expect(namespaces('events')).toEqual([SHOP]);
      expect(namespaces('logs')).toEqual([SHOP]);
      for (const ns of namespaces('metrics')) expect(ns).toBe(SHOP);
      const pods = db.prepare("SELECT count(*) AS n FROM objects WHERE kind = 'pod'").get() as { n: number };
      expect(pods.n).toBeGreaterThan(0);
    });
  });

  it('lists the rest as gaps with reason forbidden', () => {
    const gaps = readSnapshot(file, gapsOf);
    expect(gaps).toEqual(
      job.missing.map((g) => ({ part: g.part, target: g.target ?? null, reason: g.reason })),
    );
    const reasonOf = (part: string) => gaps.find((g) => g.part === part)?.reason;
    expect(reasonOf('pods')).toMatch(
      /^forbidden: the taker cannot list resource "pods" in API group "" in the namespaces .*kube-system.*; taken in shop only$/,
    );
    expect(reasonOf('nodes')).toBe(
      'forbidden: the taker cannot list resource "nodes" in API group "" at the cluster scope',
    );
    expect(reasonOf('events')).toMatch(/^forbidden: the taker cannot list resource "events"/);
    expect(reasonOf('logs')).toMatch(/^forbidden: the taker cannot get resource "pods\/log"/);
  });

  it('downloads to its taker: it holds only what she could read', async () => {
    const res = await fetch(`${stack.url}/v1/snapshots/${job.snapshotId}/file`, { headers: alice });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(job.sizeBytes);
  });

  it('downloads to anyone else only if they may read everything: the file may hold more than they may read', async () => {
    const res = await stack.get<Problem>(`/v1/snapshots/${job.snapshotId}/file`, bob);
    expect(res.status).toBe(403);
    expect(res.body.permission).toEqual({ verb: 'list', group: '*', resource: '*' });
    expect(res.body.detail).toContain('User "skiff:bob"');
    expect((await stack.get<SnapshotJob>(`/v1/snapshots/${job.snapshotId}`, bob)).status).toBe(200);
    // The admin (skiff:admin, bound cluster-wide) may read everything.
    expect(
      (await fetch(`${stack.url}/v1/snapshots/${job.snapshotId}/file`, { headers: stack.session.headers }))
        .status,
    ).toBe(200);
  });

  it('the admin’s whole-cluster capture does not download to alice, who took one of her own', async () => {
    const res = await stack.send<SnapshotJob>('POST', SNAPSHOTS, { logLines: 5, logs: 'none' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const admins = await finished(stack, res.body.snapshotId, 60_000);
    expect(admins.status).toBe('done');
    const hers = await asAlice<Problem>(`/v1/snapshots/${admins.snapshotId}/file`);
    expect(hers.status).toBe(403);
    expect(hers.body.permission).toEqual({ verb: 'list', group: '*', resource: '*' });
  }, 90_000);
});
