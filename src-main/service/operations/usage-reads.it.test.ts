/**
 * Where the usage reads take the object behind a chart's bounds, against one service over the
 * simulator (sampled by hand, no timer): the cluster's own object (its watch cache, else one read)
 * before the change history's last whole copy; the history's copy once the cluster has none; a
 * caller's cancellation ends a read the cluster would answer; a one-instant window; and the
 * handlers made apart from the service: with its recording they answer its samples, without any
 * recording the cluster's object alone and no points.
 */
import type { KubeObject, Pod } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeUsage, PodUsage } from '../../../src-shared/contract/usage-operations';
import type { CallContext, Principal } from '../context';
import { CLUSTER_ID, type Stack, startStack } from '../test-support/harness.test-support';
import { usageHandlers } from './usage';

let stack: Stack;
let principal: Principal;
beforeAll(async () => {
  stack = await startStack({ service: { usage: { intervalMs: 0 } } });
  const found = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
  if (!found) throw new Error('the admin session has no principal');
  principal = found;
  // Only nodes are viewed: the cluster is recorded, its nodes are watched, its pods are not.
  expect((await stack.get(`${stack.cluster}/kubernetes-proxy/node?limit=1`)).status).toBe(200);
  await stack.service.recorded.usage!.sampler.tick();
}, 60_000);
afterAll(async () => stack?.close());

const usage = () => `${stack.cluster}/usage`;
const nodes = () => stack.sim.store.list('nodes') as KubeObject[];
const runningPods = () => (stack.sim.store.list('pods') as Pod[]).filter((p) => p.status.phase === 'Running');
const oomPod = () =>
  runningPods().find((p) =>
    p.status.containerStatuses?.some((s) => s.lastState.terminated?.reason === 'OOMKilled'),
  )!;

const ctx = (signal: AbortSignal = new AbortController().signal): CallContext =>
  ({ principal, client: { via: 'ipc' }, signal }) as CallContext;

function invoke(name: 'getPodUsage' | 'getNodeUsage', params: Record<string, string>, signal?: AbortSignal) {
  return stack.service.invoke(
    name,
    {
      params: { workspaceId: 'default', clusterId: CLUSTER_ID, ...params },
      query: {},
      body: undefined,
    } as never,
    ctx(signal),
  );
}

/** How many whole copies the change history holds of one object. */
async function copies(resourceType: string, namespace: string, name: string): Promise<number> {
  const row = await stack.service.recorded.deps.backend.get<{ n: number | string }>(
    `SELECT count(*) AS n FROM change_history
      WHERE resource_type = $type AND namespace = $namespace AND name = $name AND object IS NOT NULL`,
    { type: resourceType, namespace, name },
  );
  return Number(row?.n ?? 0);
}

/** Removes an object from the simulator and waits until the service no longer sees it either. */
async function removeAndWait(path: string, remove: () => boolean) {
  expect(remove()).toBe(true);
  await expect
    .poll(async () => (await stack.get(`${stack.cluster}/kubernetes-proxy/${path}`)).status, {
      timeout: 30_000,
      interval: 200,
    })
    .toBe(404);
}

describe('the object behind the bounds', () => {
  it('a live pod the change history never saw is answered from the cluster, with its containers', async () => {
    const pod = oomPod();
    const { namespace, name } = pod.metadata;
    expect(await copies('pod', namespace!, name)).toBe(0);
    const res = await stack.get<PodUsage>(`${usage()}/namespaces/${namespace}/pod/${name}`);
    expect(res.status).toBe(200);
    expect(res.body.points.length).toBe(1);
    expect(res.body.containers.map((c) => c.name).sort()).toEqual(
      pod.spec.containers.map((c) => c.name).sort(),
    );
    expect(res.body.containers.find((c) => c.name === 'app')?.limits).toEqual({
      cpuMillicores: 1000,
      memoryBytes: 256 * 2 ** 20,
    });
  });

  it('a node in the watch cache is answered from it even when the caller has already cancelled', async () => {
    const name = nodes()[0]!.metadata.name;
    const aborted = AbortSignal.abort(new Error('cancelled by the caller'));
    const res = (await invoke('getNodeUsage', { resourceName: name }, aborted)) as { data: NodeUsage };
    expect(res.data.capacity).toBeDefined();
    expect(res.data.points.length).toBe(1);
  });

  it('a read the cluster must answer ends with the caller’s cancellation, not as “nothing there”', async () => {
    const reason = new Error('cancelled by the caller');
    const aborted = AbortSignal.abort(reason);
    await expect(invoke('getNodeUsage', { resourceName: 'no-such-node' }, aborted)).rejects.toBe(reason);
    await expect(
      invoke('getPodUsage', { namespace: 'default', resourceName: 'no-such-pod' }, aborted),
    ).rejects.toBe(reason);
  });

  it('a window of one instant holds the sample taken at that instant', async () => {
    const name = nodes()[0]!.metadata.name;
    const all = await stack.get<NodeUsage>(`${usage()}/node/${name}`);
    const at = all.body.points[0]!.time;
    const one = await stack.get<NodeUsage>(`${usage()}/node/${name}?since=${at}&until=${at}`);
    expect(one.status).toBe(200);
    expect(one.body.points.map((p) => p.time)).toEqual([at]);
  });

  it('a pod the cluster no longer has answers its requests and limits from the change history', async () => {
    expect((await stack.get(`${stack.cluster}/kubernetes-proxy/pod?limit=1`)).status).toBe(200);
    const pod = runningPods().find((p) => p.metadata.name !== oomPod().metadata.name)!;
    const { namespace, name } = pod.metadata;
    await expect.poll(() => copies('pod', namespace!, name), { timeout: 30_000 }).toBeGreaterThan(0);
    const path = `${usage()}/namespaces/${namespace}/pod/${name}`;
    const before = await stack.get<PodUsage>(path);
    expect(before.body.containers.length).toBeGreaterThan(0);
    await removeAndWait(`namespaces/${namespace}/pod/${name}`, () =>
      stack.sim.store.remove('pods', namespace!, name),
    );
    const after = await stack.get<PodUsage>(path);
    expect(after.status).toBe(200);
    expect(after.body.containers).toEqual(before.body.containers);
  });

  it('a node the cluster no longer has answers its capacity and allocatable from the change history', async () => {
    const name = nodes().at(-1)!.metadata.name;
    await expect.poll(() => copies('node', '', name), { timeout: 30_000 }).toBeGreaterThan(0);
    const path = `${usage()}/node/${name}`;
    const before = await stack.get<NodeUsage>(path);
    expect(before.body.capacity).toBeDefined();
    await removeAndWait(`node/${name}`, () => stack.sim.store.remove('nodes', name));
    const after = await stack.get<NodeUsage>(path);
    expect(after.status).toBe(200);
    expect(after.body.capacity).toEqual(before.body.capacity);
    expect(after.body.allocatable).toEqual(before.body.allocatable);
  });
});

describe('the handlers on their own', () => {
  it('made with the service’s recording, answer the samples it took', async () => {
    const handlers = usageHandlers(stack.service.registry, stack.service.recorded);
    const { namespace, name } = oomPod().metadata;
    const pod = await handlers.getPodUsage(
      {
        params: { workspaceId: 'default', clusterId: CLUSTER_ID, namespace: namespace!, resourceName: name },
        query: {},
        body: undefined,
      } as never,
      ctx(),
    );
    expect(pod.data.points).toHaveLength(1);
    const node = await handlers.getNodeUsage(
      {
        params: { workspaceId: 'default', clusterId: CLUSTER_ID, resourceName: nodes()[0]!.metadata.name },
        query: {},
        body: undefined,
      } as never,
      ctx(),
    );
    expect(node.data.points).toHaveLength(1);
  });

  it('without any recording, answer no points, and the bounds and OOM kills of the cluster’s own object', async () => {
    const handlers = usageHandlers(stack.service.registry, undefined);
    const pod = oomPod();
    const { namespace, name } = pod.metadata;
    const params = {
      workspaceId: 'default',
      clusterId: CLUSTER_ID,
      namespace: namespace!,
      resourceName: name,
    };
    const res = await handlers.getPodUsage(
      { params, query: { since: { durationMs: 24 * 3_600_000 } }, body: undefined } as never,
      ctx(),
    );
    const finishedAt = pod.status.containerStatuses!.find((s) => s.name === 'app')!.lastState.terminated!
      .finishedAt!;
    expect(res.data).toEqual({
      points: [],
      containers: expect.arrayContaining([expect.objectContaining({ name: 'app' })]),
      oomKills: [{ container: 'app', time: new Date(finishedAt).toISOString() }],
    });
    const node = await handlers.getNodeUsage(
      {
        params: { workspaceId: 'default', clusterId: CLUSTER_ID, resourceName: nodes()[0]!.metadata.name },
        query: {},
        body: undefined,
      } as never,
      ctx(),
    );
    expect(node.data.points).toEqual([]);
    expect(node.data.capacity).toBeDefined();
  });
});
