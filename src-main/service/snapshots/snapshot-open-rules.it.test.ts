/**
 * The opener's rules (snapshots/open.ts), each test with a service and files of its own (the
 * opening happens inside the test): which captures count as the same, what is kept and removed,
 * that a snapshot serves the file and nothing else, and the kubeconfig naming the open ones.
 */
import { copyFile, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DEMO_PODS } from '@skiff/kube-simulator';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { EventRecord, ResourceWrapper } from '../../../src-shared/contract/models';
import { SNAPSHOT_MEDIA_TYPE } from '../../../src-shared/contract/snapshot-operations';
import { ProblemError } from '../errors';
import { alterMeta } from './open-fixture.test-support';
import {
  type Captured,
  type Cluster,
  captureFixture,
  type OpenStack,
  startOpenStack,
} from './snapshot-open.test-support';

let files: string;
let good: string;
let captured: Captured;
let stacks: OpenStack[] = [];

beforeAll(async () => {
  files = await mkdtemp(join(tmpdir(), 'skiff-open-rules-'));
  good = join(files, 'good.skiff');
  captured = await captureFixture(good);
});
afterEach(async () => {
  for (const s of stacks) await s.close();
  stacks = [];
});
afterAll(() => rm(files, { recursive: true, force: true }));

interface KubeCluster {
  server: string;
  'certificate-authority-data': string;
}

/** A request to a snapshot's own server as kubectl makes it: HTTPS, trusting the CA its kubeconfig names. */
async function kubeFetch(cluster: KubeCluster, path: string, token?: string): Promise<Response> {
  const ca = Buffer.from(cluster['certificate-authority-data'], 'base64').toString();
  const dispatcher = new Agent({ connect: { ca } });
  try {
    const res = await undiciFetch(`${cluster.server}${path}`, {
      dispatcher,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return new Response(await res.text(), { status: res.status });
  } finally {
    await dispatcher.close();
  }
}

async function stack() {
  const s = await startOpenStack();
  stacks.push(s);
  return s;
}

/** A copy of the fixture, changed by `change`. */
async function copy(name: string, change: (path: string) => void = () => {}) {
  const path = join(files, name);
  await copyFile(good, path);
  change(path);
  return path;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('opening snapshot files', () => {
  it('answers the cluster already open for the same capture, gives another capture an id of its own, and never removes a file it was given by path', async () => {
    const s = await stack();
    const a = await copy('rules-a.skiff');
    const aAgain = await copy('rules-a-again.skiff');
    // Same context and takenAt, finished at another time: another capture.
    const b = await copy('rules-b.skiff', (p) => alterMeta(p, 'finishedAt', '2026-03-01T12:00:09Z'));
    const bAgain = await copy('rules-b-again.skiff', (p) =>
      alterMeta(p, 'finishedAt', '2026-03-01T12:00:09Z'),
    );
    const broken = await copy('rules-broken.skiff', (p) => alterMeta(p, 'complete', null));

    const first = await s.service.snapshots.open(a);
    expect(first.clusterId).toBe('prod-eu-snapshot-20260301t120000z');
    expect(first.kubernetesVersion).toBe('v1.31.4');
    const second = await s.service.snapshots.open(b);
    expect(second.clusterId).toBe('prod-eu-snapshot-20260301t120000z-2');
    expect((await s.service.snapshots.open(bAgain)).clusterId).toBe(second.clusterId);
    expect((await s.service.snapshots.open(aAgain)).clusterId).toBe(first.clusterId);
    const thrown = await s.service.snapshots.open(broken).catch((err: unknown) => err);
    expect((thrown as ProblemError).code).toBe('invalid_snapshot');

    const clusters = await s.call<Cluster[]>('GET', '/v1/workspaces/default/clusters');
    expect(clusters.body.map((c) => c.clusterId).sort()).toEqual([first.clusterId, second.clusterId]);
    for (const f of [a, aAgain, b, bAgain, broken]) expect(await exists(f)).toBe(true);
  });

  it('serves what the file holds and nothing else: its objects, events, logs and metrics', async () => {
    const s = await stack();
    const gone = DEMO_PODS.oomKilled;
    const path = await copy('rules-content.skiff', (p) => {
      const db = new DatabaseSync(p);
      db.prepare("DELETE FROM objects WHERE kind = 'pod' AND namespace = ? AND name = ?").run(
        gone.namespace,
        gone.name,
      );
      db.close();
    });
    const cluster = await s.service.snapshots.open(path);
    const base = `/v1/workspaces/default/observability/${cluster.clusterId}`;

    const pods = await s.call<ResourceWrapper[]>('GET', `${base}/kubernetes-proxy/pod?limit=1`);
    expect(Number(pods.headers.get('x-total'))).toBe(captured.pods.length - 1);
    const missing = await s.call(
      'GET',
      `${base}/kubernetes-proxy/namespaces/${gone.namespace}/pod/${gone.name}`,
    );
    expect(missing.status).toBe(404);

    const events = await s.call<EventRecord[]>('GET', `${base}/kubernetes-events?limit=1`);
    expect(Number(events.headers.get('x-total'))).toBe(captured.summary.liveEvents);

    const { namespace, name, container } = DEMO_PODS.crashLoop;
    const log = await s.call(
      'GET',
      `${base}/kubernetes-proxy/namespaces/${namespace}/pod/${name}/logs?container=${container}&previous=true`,
    );
    expect(log.status).toBe(200);
    expect(log.text).toMatch(/panic/);

    const { namespace: shop, name: checkout } = DEMO_PODS.checkout;
    const pod = await s.call<ResourceWrapper>(
      'GET',
      `${base}/kubernetes-proxy/namespaces/${shop}/pod/${checkout}`,
    );
    expect(pod.body.usage?.cpu).toMatch(/^\d+m$/);
    // Node metrics are served to kubectl: through the snapshot's own kubeconfig.
    const kube = parse(await s.service.snapshots.kubeconfigYaml()) as {
      clusters: Array<{ cluster: KubeCluster }>;
      users: Array<{ user: { token: string } }>;
    };
    const nodeMetrics = await kubeFetch(
      kube.clusters[0]!.cluster,
      '/apis/metrics.k8s.io/v1beta1/nodes',
      kube.users[0]!.user.token,
    );
    expect(nodeMetrics.status).toBe(200);
    expect(((await nodeMetrics.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
  });

  it('keeps an uploaded file while its snapshot is open, removes a second copy of it at once, and removes it when the service closes', async () => {
    const s = await startOpenStack();
    const uploads = () => readdir(join(s.dir, 'data', 'opened-snapshots')).catch(() => [] as string[]);
    try {
      const body = await readFile(good);
      const post = () =>
        s.call<Cluster>('POST', '/v1/snapshots', { headers: { 'content-type': SNAPSHOT_MEDIA_TYPE }, body });
      const first = await post();
      expect(first.status).toBe(201);
      const again = await post();
      expect(again.status).toBe(200);
      expect(again.body.clusterId).toBe(first.body.clusterId);
      expect(await uploads()).toHaveLength(1);
      const server = (
        parse(await s.service.snapshots.kubeconfigYaml()) as { clusters: Array<{ cluster: KubeCluster }> }
      ).clusters[0]!.cluster;
      expect((await kubeFetch(server, '/version')).status).toBe(200);
      await s.service.close();
      expect(await uploads()).toEqual([]);
      // The snapshot's own server is stopped too.
      await expect(kubeFetch(server, '/version')).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
    } finally {
      await rm(s.dir, { recursive: true, force: true });
    }
  });

  it('refuses an in-process open call that carries no file with 400 invalid_body', async () => {
    const s = await stack();
    const principal = await s.service.auth.principalForAccessToken(s.admin.accessToken);
    const thrown = await s.service
      .invoke('openSnapshot', { params: {}, query: {}, body: undefined }, {
        principal,
        client: { via: 'ipc' },
      } as never)
      .catch((err: unknown) => err);
    expect(thrown).toBeInstanceOf(ProblemError);
    expect((thrown as ProblemError).code).toBe('invalid_body');
  });
});

describe('the kubeconfig of open snapshots', () => {
  interface Kubeconfig {
    apiVersion: string;
    kind: string;
    clusters: Array<{ name: string; cluster: KubeCluster }>;
    users: Array<{ name: string; user: { token: string } }>;
    contexts: Array<{ name: string; context: { cluster: string; user: string } }>;
    'current-context': string;
  }

  it('names every open snapshot as a context of its own whose credentials read that file, the first current', async () => {
    const s = await stack();
    const empty = parse(await s.service.snapshots.kubeconfigYaml()) as Kubeconfig;
    expect(empty).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [],
      users: [],
      contexts: [],
      'current-context': '',
    });

    const gone = DEMO_PODS.checkout;
    const b = await copy('rules-kube-b.skiff', (p) => {
      alterMeta(p, 'finishedAt', '2026-03-01T12:00:09Z');
      const db = new DatabaseSync(p);
      db.prepare("DELETE FROM objects WHERE kind = 'pod' AND namespace = ? AND name = ?").run(
        gone.namespace,
        gone.name,
      );
      db.close();
    });
    const first = await s.service.snapshots.open(await copy('rules-kube-a.skiff'));
    const second = await s.service.snapshots.open(b);
    const config = parse(await s.service.snapshots.kubeconfigYaml()) as Kubeconfig;
    expect(config.apiVersion).toBe('v1');
    expect(config.kind).toBe('Config');
    expect(config['current-context']).toBe(first.clusterId);
    expect(config.contexts.map((c) => c.name).sort()).toEqual([first.clusterId, second.clusterId].sort());
    expect(config.clusters).toHaveLength(2);
    expect(config.users).toHaveLength(2);

    const counts: Record<string, number> = {};
    for (const ctx of config.contexts) {
      const cluster = config.clusters.find((c) => c.name === ctx.context.cluster)!.cluster;
      const token = config.users.find((u) => u.name === ctx.context.user)!.user.token;
      const res = await kubeFetch(cluster, '/api/v1/pods', token);
      expect(res.status).toBe(200);
      counts[ctx.name] = ((await res.json()) as { items: unknown[] }).items.length;
    }
    expect(counts).toEqual({
      [first.clusterId]: captured.pods.length,
      [second.clusterId]: captured.pods.length - 1,
    });
  });
});
