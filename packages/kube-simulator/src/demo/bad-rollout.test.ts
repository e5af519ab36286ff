/**
 * The demo's bad rollout (bad-rollout.ts), as a client sees it over HTTP: nothing until asked;
 * then shop/checkout's new image, its new ReplicaSet and pod, a crash loop with BackOff events and
 * logs saying why, the old pods still serving; once only; and on a timer through `scenarios`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, until } from '../harness.test-support';
import { BAD_ROLLOUT, badRolloutPodName, type Pod, type Simulator } from '../index';
import type { CoreEvent, KubeObject } from '../types';

let sim: Simulator;
let base: string;
let headers: Record<string, string>;

beforeAll(async () => {
  ({ sim } = await harness());
  base = sim.url;
  const token = /token: (\S+)/.exec(sim.kubeconfigYaml())?.[1] ?? '';
  headers = { authorization: `Bearer ${token.replace(/^"|"$/g, '')}` };
});
afterAll(() => sim.close());

const ns = BAD_ROLLOUT.namespace;
const get = async <T>(path: string): Promise<T> =>
  (await fetch(base + path, { headers })).json() as Promise<T>;
const text = async (path: string) => (await fetch(base + path, { headers })).text();
const deployment = () =>
  get<KubeObject & { spec: { template: { spec: Pod['spec'] } } }>(
    `/apis/apps/v1/namespaces/${ns}/deployments/checkout`,
  );
const pod = () => sim.store.get<Pod>('pods', ns, badRolloutPodName());
const app = (p: Pod | undefined) =>
  p?.status.containerStatuses?.find((c) => c.name === BAD_ROLLOUT.container);

describe('bad rollout', () => {
  it('changes nothing until asked', async () => {
    const d = await deployment();
    expect(d.spec.template.spec.containers[0]!.image).toBe('registry.example.com/shop/checkout:3.8.2');
    expect(pod()).toBeUndefined();
    expect(() => sim.runScenario('no-such')).toThrow('the simulator\'s content has no scenario "no-such"');
  });

  it('rolls checkout out to an image whose pod crash-loops, with BackOff events and logs saying why', async () => {
    const oldPods = sim.store.list('pods', ns).filter((p) => p.metadata.name.startsWith('checkout-')).length;
    sim.runScenario('bad-rollout');
    const d = await deployment();
    expect(d.spec.template.spec.containers.find((c) => c.name === 'checkout')?.image).toBe(BAD_ROLLOUT.image);
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect((d.status as { updatedReplicas?: number }).updatedReplicas).toBe(1);
    const p = pod()!;
    expect(p.metadata.ownerReferences?.[0]?.kind).toBe('ReplicaSet');
    const rs = sim.store.get('replicasets', ns, p.metadata.ownerReferences![0]!.name)!;
    expect(rs.metadata.ownerReferences?.[0]?.uid).toBe(d.metadata.uid);
    expect(app(p)?.state.running).toBeDefined();
    expect(p.status.containerStatuses?.every((c) => c.state.running)).toBe(true);
    // The old pods keep serving.
    expect(sim.store.list('pods', ns).filter((x) => x.metadata.name.startsWith('checkout-'))).toHaveLength(
      oldPods + 1,
    );

    for (let i = 0; i < 6 && !app(pod())?.state.waiting; i++) sim.tick();
    const crashed = app(pod())!;
    expect(crashed.state.waiting?.reason).toBe('CrashLoopBackOff');
    expect(crashed.restartCount).toBe(1);
    expect(crashed.lastState.terminated?.exitCode).toBe(1);
    const events = sim.store
      .list('events', ns)
      .filter((e) => (e as CoreEvent).involvedObject.name === p.metadata.name) as CoreEvent[];
    expect(events.map((e) => e.reason)).toContain('BackOff');
    const logs = await text(
      `/api/v1/namespaces/${ns}/pods/${p.metadata.name}/log?container=checkout&previous=true`,
    );
    expect(logs).toContain('invalid configuration');
    expect(logs).toContain('PAYMENTS_TIMEOUT');
    expect(logs).toContain('exiting: configuration invalid');

    // It loops: started again, and crashes again.
    for (let i = 0; i < 20 && (app(pod())?.restartCount ?? 0) < 2; i++) sim.tick();
    expect(app(pod())?.restartCount).toBe(2);
  });

  it('runs once', async () => {
    const rv = sim.store.rv;
    sim.runScenario('bad-rollout');
    expect(sim.store.rv).toBe(rv);
  });

  it('runs after a delay when started with scenarios, and refuses an unknown one at start', async () => {
    const { sim: timed } = await harness({ scenarios: [{ name: 'bad-rollout', afterMs: 20 }] });
    try {
      await until(() => timed.store.get('pods', ns, badRolloutPodName()) !== undefined);
    } finally {
      await timed.close();
    }
    await expect(harness({ scenarios: [{ name: 'nope', afterMs: 1 }] })).rejects.toThrow(
      'no scenario "nope"',
    );
  });
});
