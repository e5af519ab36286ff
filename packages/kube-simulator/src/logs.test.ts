import { CoreV1Api, type KubeConfig, Log } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, authHeaders, harness, sink, statusOf, until } from './harness.test-support';
import { DEMO_PODS, type Simulator } from './index';

let sim: Simulator;
let kc: KubeConfig;
let core: CoreV1Api;

beforeAll(async () => {
  ({ sim, kc } = await harness());
  core = kc.makeApiClient(CoreV1Api);
});
afterAll(() => sim.close());

const logUrl = (ns: string, pod: string, query: string) =>
  `${sim.url}/api/v1/namespaces/${ns}/pods/${pod}/log?${query}`;

async function rawLog(ns: string, pod: string, query: string): Promise<{ status: number; body: string }> {
  const res = await fetch(logUrl(ns, pod, query), { headers: authHeaders() });
  return { status: res.status, body: await res.text() };
}

describe('pods/log', () => {
  it('returns plain text logs in several formats', async () => {
    const { checkout, payments, coredns, grafana } = DEMO_PODS;
    const json = await core.readNamespacedPodLog({
      namespace: 'shop',
      name: checkout.name,
      container: 'checkout',
      tailLines: 5,
    });
    const lines = json.trim().split('\n');
    expect(lines).toHaveLength(5);
    for (const l of lines)
      expect(JSON.parse(l)).toMatchObject({
        level: expect.any(String),
        ts: expect.any(String),
        msg: expect.any(String),
      });
    const logfmt = await core.readNamespacedPodLog({ namespace: 'shop', name: payments.name, tailLines: 3 });
    expect(logfmt).toMatch(/^level=\w+ msg=".*" ts=\S+/m);
    const dns = await core.readNamespacedPodLog({
      namespace: 'kube-system',
      name: coredns.name,
      tailLines: 100,
    });
    expect(dns).toMatch(/^\[(INFO|ERROR|WARNING)\] /m);
    const sev = await core.readNamespacedPodLog({
      namespace: 'monitoring',
      name: grafana.name,
      tailLines: 2,
    });
    expect(JSON.parse(sev.trim().split('\n')[0] ?? '')).toHaveProperty('severity');
  });

  it('prefixes RFC3339Nano timestamps and filters by sinceTime, tailLines and limitBytes', async () => {
    const name = DEMO_PODS.frontend.name;
    const stamped = await rawLog('shop', name, 'timestamps=true&tailLines=20');
    const lines = stamped.body.trim().split('\n');
    expect(lines).toHaveLength(20);
    for (const l of lines) expect(l).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z /);
    const cut = lines[10]?.split(' ')[0] ?? '';
    const since = await rawLog(
      'shop',
      name,
      `timestamps=true&sinceTime=${encodeURIComponent(cut.replace(/\.\d+Z$/, 'Z'))}`,
    );
    const sinceLines = since.body.trim().split('\n');
    expect(sinceLines.length).toBeGreaterThanOrEqual(10);
    expect(sinceLines.every((l) => (l.split(' ')[0] ?? '') >= cut.replace(/\.\d+Z$/, ''))).toBe(true);
    const limited = await rawLog('shop', name, 'limitBytes=100');
    expect(Buffer.byteLength(limited.body)).toBe(100);
    const tiny = await rawLog('shop', name, 'sinceSeconds=1');
    expect(tiny.status).toBe(200);
  });

  it('explains why there is no log, like the kubelet', async () => {
    const { errImagePull, imagePullBackOff, failedMount, configError, checkout, oomKilled, unschedulable } =
      DEMO_PODS;
    const msg = async (ns: string, pod: string, query = '') => {
      const err = await apiError(
        core.readNamespacedPodLog({ namespace: ns, name: pod, ...(query ? { container: query } : {}) }),
      );
      expect(err.code).toBe(400);
      return statusOf(err).message;
    };
    expect(await msg('demo-broken', errImagePull.name)).toBe(
      `container "app" in pod "${errImagePull.name}" is waiting to start: image can't be pulled`,
    );
    expect(await msg('demo-broken', imagePullBackOff.name)).toBe(
      `container "app" in pod "${imagePullBackOff.name}" is waiting to start: trying and failing to pull image`,
    );
    expect(await msg('demo-broken', failedMount.name)).toBe(
      `container "app" in pod "${failedMount.name}" is waiting to start: ContainerCreating`,
    );
    expect(await msg('demo-broken', configError.name)).toBe(
      `container "app" in pod "${configError.name}" is waiting to start: CreateContainerConfigError`,
    );
    expect(await msg('shop', checkout.name)).toBe(
      `a container name must be specified for pod ${checkout.name}, choose one of: [checkout envoy] or one of the init containers: [migrate]`,
    );
    expect(await msg('shop', checkout.name, 'nope')).toBe(
      `container nope is not valid for pod ${checkout.name}`,
    );
    const prev = await apiError(
      core.readNamespacedPodLog({ namespace: 'shop', name: DEMO_PODS.payments.name, previous: true }),
    );
    expect(statusOf(prev).message).toBe(
      `previous terminated container "payments" in pod "${DEMO_PODS.payments.name}" not found`,
    );
    const missing = await apiError(core.readNamespacedPodLog({ namespace: 'shop', name: 'ghost' }));
    expect(missing.code).toBe(404);
    // Unscheduled: no kubelet to ask, the apiserver streams nothing.
    expect(await core.readNamespacedPodLog({ namespace: 'demo-broken', name: unschedulable.name })).toBe('');
    // The OOM-killed container runs again; its previous instance is readable.
    expect(
      await core.readNamespacedPodLog({ namespace: 'demo-broken', name: oomKilled.name, previous: true }),
    ).not.toBe('');
    const bad = await rawLog('shop', DEMO_PODS.payments.name, 'tailLines=-1');
    expect(bad.status).toBe(422);
  });

  it('serves previous logs of the crash-looping container (and the same for current while waiting)', async () => {
    const { crashLoop } = DEMO_PODS;
    const previous = await core.readNamespacedPodLog({
      namespace: 'demo-broken',
      name: crashLoop.name,
      previous: true,
    });
    expect(previous).toMatch(/^INFO: starting order-sync/m);
    expect(previous).toMatch(/^\[ERROR\] failed to connect to database/m);
    expect(previous).toMatch(/^panic: database unavailable$/m);
    expect(previous).toMatch(/^WARN: /m);
    const current = await core.readNamespacedPodLog({ namespace: 'demo-broken', name: crashLoop.name });
    expect(current).toBe(previous);
  });

  it('answers 500 for pods on an unreachable node', async () => {
    const err = await rawLog('kube-system', DEMO_PODS.kubeProxyOnNotReadyNode.name, '');
    expect(err.status).toBe(500);
    expect(JSON.parse(err.body).message).toMatch(/dial tcp 10\.0\.1\.13:10250: connect: no route to host/);
  });

  it('follows new lines with client-node Log until the container exits', async () => {
    const { payments } = DEMO_PODS;
    const out = sink();
    await new Log(kc).log('shop', payments.name, 'payments', out.stream, { follow: true, tailLines: 1 });
    await until(() => out.text().split('\n').filter(Boolean).length === 1);
    sim.store.appendLog(
      'shop',
      payments.name,
      'payments',
      'level=info msg="first followed line" ts=2024-01-01T00:00:00Z',
    );
    sim.store.appendLog(
      'shop',
      payments.name,
      'payments',
      'level=warn msg="second followed line" ts=2024-01-01T00:00:01Z',
    );
    await until(() => out.text().includes('second followed line'));
    // The instance exits: the follow stream ends like the kubelet's does.
    sim.store.restartContainer('shop', payments.name, 'payments', { exitCode: 2 });
    await out.ended;
    const lines = out.text().trim().split('\n');
    expect(lines.slice(1)).toEqual([
      'level=info msg="first followed line" ts=2024-01-01T00:00:00Z',
      'level=warn msg="second followed line" ts=2024-01-01T00:00:01Z',
    ]);
    const pod = await core.readNamespacedPod({ namespace: 'shop', name: payments.name });
    const cs = pod.status?.containerStatuses?.[0];
    expect(cs?.restartCount).toBe(1);
    expect(cs?.lastState?.terminated?.exitCode).toBe(2);
    expect(cs?.state?.running).toBeDefined();
    const previous = await core.readNamespacedPodLog({
      namespace: 'shop',
      name: payments.name,
      previous: true,
    });
    expect(previous).toContain('second followed line');
  });

  it('ends open follows when the simulator closes', async () => {
    const local = await harness();
    const out = sink();
    await new Log(local.kc).log('shop', DEMO_PODS.checkout.name, 'checkout', out.stream, {
      follow: true,
      tailLines: 1,
    });
    await until(() => out.text().length > 0);
    await local.sim.close();
    await out.ended;
  });
});
