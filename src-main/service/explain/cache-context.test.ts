/**
 * The explanation's look-ups over one cluster's caches, against the embedded simulator: found,
 * missing and unknown are told apart; each look-up is made once; the object's own events only,
 * oldest first; a cluster that refuses us gives unknowns and no events, never "missing"; an aborted
 * request stops. States only, no timings.
 */

import type { KubeObjectInput } from '@skiff/kube-simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { addPod, freshNamespace, simPerFile } from '../cache/cache.test-support';
import { ClusterConnection } from '../clusters/cluster';
import type { KindInfo } from '../clusters/kind-info';
import { contextsFromYaml } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { cacheExplainContext } from './cache-context';

const env = simPerFile();
let cluster: ClusterConnection | undefined;
afterEach(async () => {
  env.sim.faults.unauthorized = false;
  await cluster?.close();
  cluster = undefined;
});

const NO_RETRY = { baseMs: 60_000, capMs: 60_000, stableAfterMs: 60_000 };
function connect(): ClusterConnection {
  const source = contextsFromYaml(env.sim.kubeconfigYaml('explain'))[0]!;
  cluster = new ClusterConnection('explain', source, {
    timeoutMs: 5_000,
    logger: silentLogger(),
    watch: NO_RETRY,
  });
  return cluster;
}
const signal = () => new AbortController().signal;
const put = (o: Record<string, unknown>) => env.sim.store.upsert(o as unknown as KubeObjectInput);

let events = 0;
function event(
  namespace: string,
  involved: { kind: string; name: string },
  type: string,
  reason: string,
  at: string,
) {
  put({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `ev-${++events}`, namespace },
    involvedObject: { apiVersion: 'v1', ...involved, namespace },
    type,
    reason,
    message: `${reason} message`,
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
    source: { component: 'test' },
  });
}

async function about(
  c: ClusterConnection,
  resourceType: string,
  namespace: string | undefined,
  name: string,
) {
  const kind: KindInfo = await c.kind(resourceType, signal());
  return { kind, namespace, name };
}

describe('cacheExplainContext: find', () => {
  it('finds an object, says null for one that does not exist, undefined for a kind it cannot place', async () => {
    const ns = freshNamespace(env.sim, 'find');
    put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'present', namespace: ns },
      data: { a: '1' },
    });
    const c = connect();
    const ctx = await cacheExplainContext(c, await about(c, 'pod', ns, 'p'), signal());
    const found = await ctx.find({ resourceType: 'configmap', namespace: ns, name: 'present' });
    expect(found).toMatchObject({
      kind: 'ConfigMap',
      metadata: { name: 'present', namespace: ns },
      data: { a: '1' },
    });
    expect(await ctx.find({ resourceType: 'configmap', namespace: ns, name: 'absent' })).toBeNull();
    // The same name in another namespace is another object.
    expect(await ctx.find({ resourceType: 'configmap', namespace: 'default', name: 'present' })).toBeNull();
    // A kind the cluster does not serve, and a namespaced kind named without a namespace, are unknown.
    expect(await ctx.find({ resourceType: 'widget.example.com', namespace: ns, name: 'x' })).toBeUndefined();
    expect(await ctx.find({ resourceType: 'configmap', name: 'present' })).toBeUndefined();
    // A cluster-scoped kind is found whatever namespace a ref carries.
    expect(await ctx.find({ resourceType: 'storageclass', name: 'gp3' })).toMatchObject({
      kind: 'StorageClass',
    });
    expect(await ctx.find({ resourceType: 'storageclass', namespace: ns, name: 'gp3' })).toMatchObject({
      metadata: { name: 'gp3' },
    });
  });

  it('looks each object up once', async () => {
    const ns = freshNamespace(env.sim, 'once');
    put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: ns } });
    const c = connect();
    const ctx = await cacheExplainContext(c, await about(c, 'pod', ns, 'p'), signal());
    const ref = { resourceType: 'configmap', namespace: ns, name: 'cm' };
    const first = await ctx.find(ref);
    expect(await ctx.find({ ...ref })).toBe(first);
    expect(await ctx.find({ ...ref, name: 'other' })).toBeNull();
  });
});

describe('cacheExplainContext: list', () => {
  it('lists one namespace’s objects of a kind, once; undefined for a kind it cannot read', async () => {
    const ns = freshNamespace(env.sim, 'list');
    addPod(env.sim, ns, 'a');
    addPod(env.sim, ns, 'b');
    const c = connect();
    const ctx = await cacheExplainContext(c, await about(c, 'pod', ns, 'a'), signal());
    const pods = await ctx.list('pod', ns);
    expect(pods?.map((p) => p.metadata?.name)).toEqual(['a', 'b']);
    expect(await ctx.list('pod', ns)).toBe(pods);
    expect(await ctx.list('pod', `${ns}-none`)).toEqual([]);
    expect(await ctx.list('widget.example.com', ns)).toBeUndefined();
  });
});

describe('cacheExplainContext: events', () => {
  it('are the object’s own, by kind, namespace and name, oldest first', async () => {
    const ns = freshNamespace(env.sim, 'events');
    addPod(env.sim, ns, 'web');
    event(ns, { kind: 'Pod', name: 'web' }, 'Warning', 'Second', '2025-01-01T00:00:02Z');
    event(ns, { kind: 'Pod', name: 'web' }, 'Normal', 'First', '2025-01-01T00:00:01Z');
    event(ns, { kind: 'Pod', name: 'other' }, 'Warning', 'NotThisPod', '2025-01-01T00:00:03Z');
    event(ns, { kind: 'Service', name: 'web' }, 'Warning', 'NotThisKind', '2025-01-01T00:00:04Z');
    event('default', { kind: 'Pod', name: 'web' }, 'Warning', 'NotThisNamespace', '2025-01-01T00:00:05Z');
    const c = connect();
    const ctx = await cacheExplainContext(c, await about(c, 'pod', ns, 'web'), signal());
    expect(ctx.events).toEqual([
      { type: 'Normal', reason: 'First', message: 'First message' },
      { type: 'Warning', reason: 'Second', message: 'Second message' },
    ]);
  });

  it('of a cluster-scoped object are found without a namespace', async () => {
    event('', { kind: 'StorageClass', name: 'gp3' }, 'Warning', 'Odd', '2025-01-01T00:00:01Z');
    const c = connect();
    const ctx = await cacheExplainContext(c, await about(c, 'storageclass', undefined, 'gp3'), signal());
    expect(ctx.events.map((e) => e.reason)).toEqual(['Odd']);
  });
});

describe('cacheExplainContext: failures', () => {
  it('a cluster that refuses us: no events, every look-up unknown, none missing', async () => {
    const ns = freshNamespace(env.sim, 'refused');
    const c = connect();
    const kind = await c.kind('pod', signal());
    env.sim.faults.unauthorized = true;
    const ctx = await cacheExplainContext(c, { kind, namespace: ns, name: 'p' }, signal());
    expect(ctx.events).toEqual([]);
    expect(await ctx.find({ resourceType: 'configmap', namespace: ns, name: 'x' })).toBeUndefined();
    expect(await ctx.list('pod', ns)).toBeUndefined();
  });

  it('an aborted request stops with its abort', async () => {
    const c = connect();
    const kind = await c.kind('pod', signal());
    const aborted = new AbortController();
    aborted.abort(new Error('gone'));
    await expect(
      cacheExplainContext(c, { kind, namespace: 'default', name: 'p' }, aborted.signal),
    ).rejects.toThrow();
    const live = new AbortController();
    const ctx = await cacheExplainContext(c, { kind, namespace: 'default', name: 'p' }, live.signal);
    live.abort(new Error('gone'));
    await expect(
      ctx.find({ resourceType: 'secret', namespace: 'default', name: 'never-read' }),
    ).rejects.toThrow();
    await expect(ctx.list('serviceaccount', 'default')).rejects.toThrow();
  });
});
