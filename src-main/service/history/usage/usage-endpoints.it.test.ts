/**
 * GET …/usage/namespaces/{ns}/pod/{name} and …/usage/node/{name} over HTTP and IPC, against the
 * service sampling the simulator every second once the cluster was viewed: the recorded points,
 * a pod's requests and limits and its OOM kill, a node's capacity and allocatable, the since/until
 * window, refusals of bad input, and a pod the cluster no longer has.
 */
import type { KubeObject, Pod } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeUsage, PodUsage } from '../../../../src-shared/contract/usage-operations';
import type { Principal } from '../../context';
import { CLUSTER_ID, type Stack, startStack } from '../../test-support/harness.test-support';

let stack: Stack;
let principal: Principal;
beforeAll(async () => {
  stack = await startStack({ service: { usage: { intervalMs: 1_000 } } });
  const found = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
  if (!found) throw new Error('the admin session has no principal');
  principal = found;
  // Viewing the cluster (a resource cache is made) makes it recorded.
  expect((await stack.get(`${stack.cluster}/kubernetes-proxy/pod?limit=1`)).status).toBe(200);
});
afterAll(async () => stack?.close());

const usage = () => `${stack.cluster}/usage`;
const pods = () => stack.sim.store.list('pods') as Pod[];
const oomPod = () =>
  pods().find((p) =>
    p.status.containerStatuses?.some((s) => s.lastState.terminated?.reason === 'OOMKilled'),
  )!;

async function pointsOf<T extends { points: unknown[] }>(path: string): Promise<T> {
  let body: T | undefined;
  await expect
    .poll(
      async () => {
        const res = await stack.get<T>(path);
        expect(res.status).toBe(200);
        body = res.body;
        return res.body.points.length;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBeGreaterThan(0);
  return body!;
}

function overIpc(
  name: 'getPodUsage' | 'getNodeUsage',
  params: Record<string, string>,
  query: Record<string, string>,
) {
  return stack.service.invoke(
    name,
    { params: { workspaceId: 'default', clusterId: CLUSTER_ID, ...params }, query, body: undefined } as never,
    { principal, client: { via: 'ipc' }, signal: new AbortController().signal },
  );
}

describe('pod usage', () => {
  it('answers the recorded samples per container, the requests and limits, and the OOM kill', async () => {
    const pod = oomPod();
    const { namespace, name } = pod.metadata;
    const body = await pointsOf<PodUsage>(`${usage()}/namespaces/${namespace}/pod/${name}`);
    const running = pod.spec.containers.map((c) => c.name);
    for (const p of body.points) {
      expect(Number.isNaN(Date.parse(p.time))).toBe(false);
      expect(Object.keys(p.containers).sort()).toEqual([...running].sort());
      for (const f of Object.values(p.containers)) {
        expect(f.cpuMillicores).toBeGreaterThan(0);
        // The simulator keeps an OOM-killed container close to (and under) its 256Mi limit.
        expect(f.memoryBytes).toBeGreaterThan(0.85 * 256 * 2 ** 20);
        expect(f.memoryBytes).toBeLessThan(256 * 2 ** 20);
      }
    }
    expect(body.containers).toEqual([
      {
        name: 'app',
        requests: { cpuMillicores: 200, memoryBytes: 128 * 2 ** 20 },
        limits: { cpuMillicores: 1000, memoryBytes: 256 * 2 ** 20 },
      },
    ]);
    const finishedAt = pod.status.containerStatuses!.find((s) => s.name === 'app')!.lastState.terminated!
      .finishedAt;
    expect(body.oomKills).toEqual([{ container: 'app', time: new Date(finishedAt!).toISOString() }]);
  });

  it('answers the same over IPC as over HTTP for the same window', async () => {
    const { namespace, name } = oomPod().metadata;
    await pointsOf<PodUsage>(`${usage()}/namespaces/${namespace}/pod/${name}`);
    const until = new Date().toISOString();
    const http = await stack.get<PodUsage>(
      `${usage()}/namespaces/${namespace}/pod/${name}?since=1h&until=${until}`,
    );
    const ipc = await overIpc(
      'getPodUsage',
      { namespace: namespace!, resourceName: name },
      { since: '1h', until },
    );
    expect(http.status).toBe(200);
    expect(ipc.data).toEqual(http.body);
  });

  it('keeps to [since, until]', async () => {
    const { namespace, name } = oomPod().metadata;
    const all = await pointsOf<PodUsage>(`${usage()}/namespaces/${namespace}/pod/${name}`);
    const first = all.points[0]!.time;
    const upToFirst = await stack.get<PodUsage>(
      `${usage()}/namespaces/${namespace}/pod/${name}?until=${first}`,
    );
    expect(upToFirst.body.points.map((p) => p.time)).toEqual([first]);
    const before = new Date(Date.parse(first) - 1).toISOString();
    const none = await stack.get<PodUsage>(`${usage()}/namespaces/${namespace}/pod/${name}?until=${before}`);
    expect(none.body.points).toEqual([]);
    // The OOM kill (6 minutes before the stack started) is outside a window that starts after it.
    const after = await stack.get<PodUsage>(`${usage()}/namespaces/${namespace}/pod/${name}?since=${first}`);
    expect(after.body.oomKills).toEqual([]);
    // since after until: nothing, not an error.
    const inverted = await stack.get<PodUsage>(
      `${usage()}/namespaces/${namespace}/pod/${name}?since=${first}&until=${before}`,
    );
    expect(inverted.status).toBe(200);
    expect(inverted.body.points).toEqual([]);
  });

  it('a pod never sampled answers no points, no containers and no kills', async () => {
    const res = await stack.get<PodUsage>(`${usage()}/namespaces/default/pod/no-such-pod`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ points: [], containers: [], oomKills: [] });
  });

  it('a pod the cluster no longer has still answers what was recorded of it', async () => {
    const pod = pods().find(
      (p) => p.status.phase === 'Running' && p.metadata.name !== oomPod().metadata.name,
    )!;
    const { namespace, name } = pod.metadata;
    const path = `${usage()}/namespaces/${namespace}/pod/${name}`;
    const before = await pointsOf<PodUsage>(path);
    const until = before.points.at(-1)!.time;
    stack.sim.store.remove('pods', namespace!, name);
    const after = await stack.get<PodUsage>(`${path}?until=${until}`);
    expect(after.status).toBe(200);
    expect(after.body.points).toEqual(before.points);
  });

  it('refuses bad input with a problem, and an unknown cluster with 404', async () => {
    const bad = await stack.get<{ type: string; status: number; detail: string }>(
      `${usage()}/namespaces/default/pod/x?since=yesterday`,
    );
    expect(bad.status).toBe(400);
    expect(bad.contentType).toContain('application/problem+json');
    expect(bad.body.detail).toContain('since must be an ISO 8601 instant');
    const ns = await stack.get(`${usage()}/namespaces/Not_A_Namespace/pod/x`);
    expect(ns.status).toBe(400);
    const unknown = await stack.get('/v1/workspaces/default/observability/nope/usage/node/n');
    expect(unknown.status).toBe(404);
  });
});

describe('node usage', () => {
  it('answers the node’s samples with its capacity and allocatable, over HTTP and IPC', async () => {
    const node = (stack.sim.store.list('nodes') as KubeObject[]).find((n) =>
      (n.status as { conditions?: { type: string; status: string }[] }).conditions?.some(
        (c) => c.type === 'Ready' && c.status === 'True',
      ),
    )!;
    const name = node.metadata.name;
    const body = await pointsOf<NodeUsage>(`${usage()}/node/${name}`);
    for (const p of body.points) expect(Object.keys(p.containers)).toEqual([name]);
    const status = node.status as { capacity: Record<string, string>; allocatable: Record<string, string> };
    const cores = (q: string) => (q.endsWith('m') ? Number(q.slice(0, -1)) : Number(q) * 1000);
    const ki = (q: string) => Number(q.replace(/Ki$/, '')) * 1024;
    expect(body.capacity).toEqual({
      cpuMillicores: cores(status.capacity.cpu!),
      memoryBytes: ki(status.capacity.memory!),
    });
    expect(body.allocatable).toEqual({
      cpuMillicores: cores(status.allocatable.cpu!),
      memoryBytes: ki(status.allocatable.memory!),
    });
    const until = body.points.at(-1)!.time;
    const http = await stack.get<NodeUsage>(`${usage()}/node/${name}?until=${until}`);
    const ipc = await overIpc('getNodeUsage', { resourceName: name }, { until });
    expect(ipc.data).toEqual(http.body);
  });
});
