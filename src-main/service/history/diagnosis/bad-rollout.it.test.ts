/**
 * The demo's bad rollout diagnosed end to end, over real HTTP, with nothing written by the test:
 * the service records the simulator's changes (--record-changes all) and keeps the crashed run's
 * logs, the simulator rolls shop/checkout out to an image whose pod crash-loops, and the
 * diagnosis of that pod (and of the Deployment) names the rollout's image change first, before
 * the first BackOff, with the first failed run's kept logs.
 */
import { BAD_ROLLOUT, badRolloutPodName } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectChange } from '../../../../src-shared/contract/change-operations';
import type { Diagnosis } from '../../../../src-shared/contract/diagnosis-operations';
import { eventually } from '../../test-support/eventually.test-support';
import { type Stack, startStack } from '../../test-support/harness.test-support';

let stack: Stack;
const NS = BAD_ROLLOUT.namespace;
const POD = badRolloutPodName();
const IMAGE_CHANGE = 'image checkout: 3.8.2 → 3.8.3';

beforeAll(async () => {
  stack = await startStack({ service: { changeHistory: { record: 'all', flushMs: 20 } } });
});
afterAll(async () => {
  await stack?.close();
});

const history = () =>
  stack.get<ObjectChange[]>(`${stack.cluster}/history/namespaces/${NS}/deployment/checkout`);

describe('the bad rollout', () => {
  it('is diagnosed from what Skiff recorded: the image change first, then the crash’s kept logs', {
    timeout: 180_000,
  }, async () => {
    // Recording has seen the Deployment as it was (its history answers) before the rollout.
    await eventually(async () => {
      const count = await stack.service.recorded.deps.backend.get<{ n: number }>(
        `SELECT count(*) AS n FROM change_history WHERE resource_type = 'deployment' AND name = 'checkout'`,
      );
      expect(Number(count?.n)).toBeGreaterThan(0);
    }, 60_000);
    stack.sim.runScenario('bad-rollout');
    await eventually(async () => {
      const res = await history();
      expect(res.body.map((c) => c.summary)).toContain(IMAGE_CHANGE);
    }, 30_000);
    // The new pod crashes: the ticker ends its run, a BackOff event follows.
    await eventually(async () => {
      stack.sim.tick();
      const res = await stack.get<Diagnosis>(`${stack.cluster}/diagnosis/namespaces/${NS}/pod/${POD}`);
      expect(res.status).toBe(200);
      expect(res.body.onset).not.toBeNull();
      expect(res.body.keptLogs).toBeDefined();
    }, 60_000);
    await stack.service.recorded.keptLogs?.idle();

    const pod = (await stack.get<Diagnosis>(`${stack.cluster}/diagnosis/namespaces/${NS}/pod/${POD}`)).body;
    expect(pod.signals[0]).toMatchObject({ type: 'CrashLoopBackOff' });
    expect(pod.signals.some((s) => s.type === 'FirstBackOff')).toBe(true);
    const first = pod.changesBefore[0]!;
    expect(first).toMatchObject({
      ref: { kind: 'Deployment', resourceType: 'deployment', namespace: NS, name: 'checkout' },
      change: 'updated',
      summary: IMAGE_CHANGE,
      relation: 'owner',
    });
    expect(first.patch).toContainEqual({
      op: 'replace',
      path: '/spec/template/spec/containers/0/image',
      value: BAD_ROLLOUT.image,
    });
    expect(Date.parse(first.time)).toBeLessThanOrEqual(Date.parse(pod.onset!) + 5_000);
    expect(pod.keptLogs).toMatchObject({ namespace: NS, pod: POD, container: 'checkout', exitCode: 1 });
    const lines = await stack.get<string>(
      `${stack.cluster}/kubernetes-proxy/namespaces/${NS}/pod/${POD}/kept-logs/checkout/${pod.keptLogs!.restartCount}`,
      { accept: 'text/plain' },
    );
    expect(lines.body).toContain('PAYMENTS_TIMEOUT');

    const deployment = (
      await stack.get<Diagnosis>(`${stack.cluster}/diagnosis/namespaces/${NS}/deployment/checkout`)
    ).body;
    expect(deployment.signals[0]).toMatchObject({ type: 'NewReplicaSetFailing' });
    expect(deployment.changesBefore[0]).toMatchObject({ summary: IMAGE_CHANGE, relation: 'self' });
  });
});
