import { CoreV1Api, type KubeConfig, Watch } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, until } from './harness.test-support';
import { DEMO_PODS, type Pod, type Simulator } from './index';
import type { CoreEvent } from './types';

let sim: Simulator;
let kc: KubeConfig;

beforeAll(async () => {
  ({ sim, kc } = await harness());
});
afterAll(() => sim.close());

const crash = DEMO_PODS.crashLoop;

function crashStatus() {
  return sim.store.get<Pod>('pods', crash.namespace, crash.name)?.status.containerStatuses?.[0];
}

describe('ticker', () => {
  it('is frozen until ticked', async () => {
    const rv = sim.store.rv;
    await new Promise((r) => setTimeout(r, 50));
    expect(sim.store.rv).toBe(rv);
  });

  it('cycles the crash-looping container through restarts, visible to watches', async () => {
    const seen: string[] = [];
    const ctrl = await new Watch(kc).watch(
      `/api/v1/namespaces/${crash.namespace}/pods`,
      { resourceVersion: String(sim.store.rv), fieldSelector: `metadata.name=${crash.name}` },
      (type, obj: { status?: { containerStatuses?: { state?: Record<string, unknown> }[] } }) => {
        seen.push(`${type}:${Object.keys(obj.status?.containerStatuses?.[0]?.state ?? {}).join()}`);
      },
      () => {},
    );
    const before = crashStatus()?.restartCount ?? 0;
    for (let i = 0; i < 6 && !crashStatus()?.state.running; i++) sim.tick();
    expect(crashStatus()?.state.running).toBeDefined();
    for (let i = 0; i < 4 && !crashStatus()?.state.waiting; i++) sim.tick();
    const after = crashStatus();
    expect(after?.state.waiting?.reason).toBe('CrashLoopBackOff');
    expect(after?.restartCount).toBe(before + 1);
    expect(after?.lastState.terminated?.exitCode).toBe(1);
    await until(() => seen.length >= 2);
    ctrl.abort();
    expect(seen).toEqual(['MODIFIED:running', 'MODIFIED:waiting']);
    // The instance that just died is the new "previous", ending in its panic.
    const core = kc.makeApiClient(CoreV1Api);
    const previous = await core.readNamespacedPodLog({
      namespace: crash.namespace,
      name: crash.name,
      previous: true,
    });
    expect(previous).toMatch(/panic: database unavailable/);
  });

  it('counts recurring events up', () => {
    const unhealthy = () =>
      sim.store.list('events', 'demo-broken').find((e) => (e as CoreEvent).reason === 'Unhealthy') as
        | CoreEvent
        | undefined;
    const before = unhealthy();
    sim.tick();
    sim.tick();
    const after = unhealthy();
    expect((after?.count ?? 0) - (before?.count ?? 0)).toBeGreaterThanOrEqual(1);
    expect(Number(after?.metadata.resourceVersion)).toBeGreaterThan(Number(before?.metadata.resourceVersion));
  });

  it('creates new events now and then (ADDED, not only count++)', () => {
    const before = sim.store.count('events', 'shop');
    for (let i = 0; i < 12; i++) sim.tick();
    expect(sim.store.count('events', 'shop')).toBe(before + 1);
  });

  it('writes new lines to logs that are being read', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const read = () => core.readNamespacedPodLog({ namespace: 'shop', name: DEMO_PODS.frontend.name });
    const before = (await read()).split('\n').length;
    for (let i = 0; i < 20; i++) sim.tick();
    expect((await read()).split('\n').length).toBeGreaterThan(before);
  });

  it('runs on a timer when tickMs is set', async () => {
    const local = await harness({ tickMs: 20 });
    const rv = local.sim.store.rv;
    await until(() => local.sim.store.rv > rv);
    await local.sim.close();
  });
});
