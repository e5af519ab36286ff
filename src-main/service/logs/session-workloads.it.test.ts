import { DEMO_PODS } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { addDeployment, addNamespace, addPod, uniqueName, write } from './fixtures.test-support';
import { linesOf, logPath, markersOf, openStream, rawOf, readAll } from './stream-client.test-support';

/** When set, the simulated cluster's clock stands still: lines written meanwhile are stamped alike. */
let frozenAt: number | undefined;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    // Lists come in an order unrelated to names, so the service's own order shows.
    simulator: { listOrder: 'scrambled', now: () => frozenAt ?? Date.now() },
    service: { timeoutMs: 1_500 },
  });
});
afterAll(async () => stack?.close());

const deploymentLogs = (ns: string, name: string, query = '') =>
  logPath(stack, ns, name, query, 'deployment');

describe('the pods of a workload', () => {
  it('lines stamped alike in several pods come in the order of the pod names', async () => {
    const ns = addNamespace(stack);
    const labels = { app: 'tied' };
    addDeployment(stack, ns, 'tied', labels);
    const pods = ['pod-d', 'pod-b', 'pod-f', 'pod-a', 'pod-e', 'pod-c'];
    for (const p of pods) addPod(stack, ns, p, { labels, containers: ['app'] });
    frozenAt = Date.now();
    try {
      for (const p of pods) write(stack, ns, p, 'app', `same instant in ${p}`);
    } finally {
      frozenAt = undefined;
    }
    const lines = linesOf(await readAll(stack, deploymentLogs(ns, 'tied')));
    expect(lines.map((l) => l.pod)).toEqual([...pods].sort());
    expect(new Set(lines.map((l) => l.ts)).size).toBe(1);
  });

  it('a workload without a selector has no pods, not every pod of its namespace', async () => {
    const ns = addNamespace(stack);
    addDeployment(stack, ns, 'unselective', undefined);
    addPod(stack, ns, 'bystander', { labels: { app: 'other' }, containers: ['app'] });
    write(stack, ns, 'bystander', 'app', 'not part of the workload');
    const s = await readAll(stack, deploymentLogs(ns, 'unselective'));
    expect(s.status).toBe(200);
    expect(s.records).toEqual([]);
  });

  it('a pod without the requested container is marked unavailable and the others are read', async () => {
    const ns = addNamespace(stack);
    const labels = { app: 'mixed' };
    addDeployment(stack, ns, 'mixed', labels);
    addPod(stack, ns, 'with-sidecar', { labels, containers: ['app', 'sidecar'] });
    addPod(stack, ns, 'without-sidecar', { labels, containers: ['app'] });
    write(stack, ns, 'with-sidecar', 'sidecar', 'sidecar line');
    const s = await readAll(stack, deploymentLogs(ns, 'mixed', 'container=sidecar'));
    expect(s.status).toBe(200);
    expect(rawOf(s)).toEqual(['sidecar line']);
    expect(markersOf(s)).toEqual([
      expect.objectContaining({ event: 'unavailable', pod: 'without-sidecar', container: 'sidecar' }),
    ]);
    expect(markersOf(s)[0]!.message).toContain('without-sidecar');
    // The marker comes first, before any line.
    expect(s.records[0]!.type).toBe('marker');
  });

  it('a pod whose container waits to start is marked unavailable with the kubelet reason', async () => {
    const ns = addNamespace(stack);
    const labels = { app: 'starting' };
    addDeployment(stack, ns, 'starting', labels);
    addPod(stack, ns, 'runs', { labels, containers: ['app'] });
    addPod(stack, ns, 'pulls', { labels, containers: ['app'], waiting: { app: 'ImagePullBackOff' } });
    write(stack, ns, 'runs', 'app', 'running line');
    const s = await readAll(stack, deploymentLogs(ns, 'starting'));
    expect(s.status).toBe(200);
    expect(rawOf(s)).toEqual(['running line']);
    const [marker] = markersOf(s);
    expect(marker).toMatchObject({ event: 'unavailable', pod: 'pulls', container: 'app' });
    expect(marker!.message).toMatch(/waiting to start: trying and failing to pull image/);
  });

  it('when no pod of a workload has the log, the request is refused with the first reason', async () => {
    const ns = addNamespace(stack);
    const labels = { app: 'nowhere' };
    addDeployment(stack, ns, 'nowhere', labels);
    addPod(stack, ns, 'only', { labels, containers: ['app'], waiting: { app: 'ImagePullBackOff' } });
    const res = await stack.get<Problem>(deploymentLogs(ns, 'nowhere'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'log_unavailable' });
    expect(res.body.detail).toMatch(/nowhere/);
    expect(res.body.detail).toMatch(/trying and failing to pull image/);
  });

  it('a pod the cluster cannot reach fails the whole request instead of being hidden', async () => {
    const ns = addNamespace(stack);
    const labels = { app: 'cut-off' };
    const { namespace, name } = DEMO_PODS.kubeProxyOnNotReadyNode;
    const notReady = (
      stack.sim.store.peek('pods', namespace, name) as unknown as { spec: { nodeName: string } }
    ).spec.nodeName;
    addDeployment(stack, ns, 'cut-off', labels);
    addPod(stack, ns, 'reachable', { labels, containers: ['app'] });
    addPod(stack, ns, 'unreachable', { labels, containers: ['app'], nodeName: notReady });
    const res = await stack.get<Problem>(deploymentLogs(ns, 'cut-off'));
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'cluster_error' });
  });

  it('previous on a workload reads each previous instance and ends even with follow', async () => {
    const ns = addNamespace(stack);
    const labels = { app: 'restarted' };
    addDeployment(stack, ns, 'restarted', labels);
    addPod(stack, ns, 'crashed', { labels, containers: ['app'] });
    addPod(stack, ns, 'fresh', { labels, containers: ['app'] });
    write(stack, ns, 'crashed', 'app', 'last words');
    stack.sim.store.restartContainer(ns, 'crashed', 'app', { exitCode: 1 });
    write(stack, ns, 'crashed', 'app', 'new instance');
    const s = await readAll(stack, deploymentLogs(ns, 'restarted', 'previous=true&follow=true'));
    expect(s.ended).toBe(true);
    expect(rawOf(s)).toEqual(['last words']);
    expect(markersOf(s)).toEqual([expect.objectContaining({ event: 'unavailable', pod: 'fresh' })]);
  });
});

describe('requests for a container', () => {
  it('a container the pod lacks is refused with the names of its containers and init containers', async () => {
    const ns = addNamespace(stack);
    addPod(stack, ns, 'initialised', { containers: ['web', 'app'], initContainers: ['migrate'] });
    const res = await stack.get<Problem>(logPath(stack, ns, 'initialised', 'container=nope'));
    expect(res.body).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      containers: ['web', 'app'],
      initContainers: ['migrate'],
    });
    expect(res.body.detail).toContain('migrate');
  });

  it('an init container can be read by name', async () => {
    const ns = addNamespace(stack);
    addPod(stack, ns, 'with-init', { containers: ['app'], initContainers: ['migrate'] });
    write(stack, ns, 'with-init', 'migrate', 'migrating');
    const s = await readAll(stack, logPath(stack, ns, 'with-init', 'container=migrate'));
    expect(rawOf(s)).toEqual(['migrating']);
  });
});

describe('following a workload', () => {
  it('a follow with an end time stops by itself once that time has passed', async () => {
    const ns = addNamespace(stack);
    const pod = uniqueName('bounded');
    addPod(stack, ns, pod, { containers: ['app'] });
    const until = new Date(Date.now() + 1_500).toISOString();
    const s = await openStream(stack, logPath(stack, ns, pod, `follow=true&until=${until}`));
    expect(s.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    write(stack, ns, pod, 'app', 'inside the range');
    await s.waitFor((x) => rawOf(x).includes('inside the range'), 3_000);
    await s.waitFor((x) => x.ended, 5_000);
    expect(rawOf(s)).toEqual(['inside the range']);
  });

  it('a follow whose end time has passed answers the lines in range and ends', async () => {
    const ns = addNamespace(stack);
    const pod = uniqueName('ended');
    addPod(stack, ns, pod, { containers: ['app'] });
    write(stack, ns, pod, 'app', 'old line');
    const until = new Date(Date.now() + 5).toISOString();
    await new Promise((r) => setTimeout(r, 20));
    const s = await readAll(stack, logPath(stack, ns, pod, `follow=true&until=${until}`));
    expect(s.ended).toBe(true);
    expect(rawOf(s)).toEqual(['old line']);
  });

  it('a pod that joins a followed workload is announced and read from its first line, once', async () => {
    const ns = addNamespace(stack);
    const labels = { app: 'growing' };
    addDeployment(stack, ns, 'growing', labels);
    addPod(stack, ns, 'first', { labels, containers: ['app'] });
    write(stack, ns, 'first', 'app', 'before the follow');
    const s = await openStream(stack, deploymentLogs(ns, 'growing', 'follow=true&tailLines=0'));
    expect(s.status).toBe(200);
    write(stack, ns, 'first', 'app', 'first pod, followed');
    await s.waitFor((x) => rawOf(x).includes('first pod, followed'));
    addPod(stack, ns, 'joiner', { labels, containers: ['app'] });
    write(stack, ns, 'joiner', 'app', 'written before discovery');
    // The service looks for new pods every 5 s.
    await s.waitFor((x) => markersOf(x).some((m) => m.event === 'pod-added'), 12_000);
    write(stack, ns, 'joiner', 'app', 'written after discovery');
    write(stack, ns, 'first', 'app', 'first pod, later');
    await s.waitFor(
      (x) => rawOf(x).includes('written after discovery') && rawOf(x).includes('first pod, later'),
    );
    s.close();
    expect(markersOf(s)).toEqual([
      expect.objectContaining({ event: 'pod-added', pod: 'joiner', container: 'app' }),
    ]);
    const raws = rawOf(s);
    expect(raws.filter((r) => r.startsWith('first pod'))).toEqual([
      'first pod, followed',
      'first pod, later',
    ]);
    expect(raws.filter((r) => r.startsWith('written'))).toEqual([
      'written before discovery',
      'written after discovery',
    ]);
    const added = s.records.findIndex((r) => r.type === 'marker');
    const joinerFirst = s.records.findIndex((r) => r.type === 'line' && r.pod === 'joiner');
    expect(added).toBeLessThan(joinerFirst);
  }, 30_000);
});

describe('searches', () => {
  it('a pattern that needs backtracking (a backreference) is refused, as searches run in linear time', async () => {
    const ns = addNamespace(stack);
    addPod(stack, ns, 'pod', { containers: ['app'] });
    write(stack, ns, 'pod', 'app', 'aa');
    const res = await stack.get<Problem>(logPath(stack, ns, 'pod', `search=${encodeURIComponent('(a)\\1')}`));
    expect(res.body).toMatchObject({ status: 400, code: 'invalid_query' });
    expect(res.body.detail).toMatch(/RE2/);
  });
});
