/**
 * A snapshot of what Skiff recorded, end to end over real HTTP with nothing written by the test
 * (issue 27 §5): the service records the demo's bad rollout (--record-changes all) and keeps the
 * crashed run's logs; a capture taken then, opened as a snapshot, answers the history (and `?at=`),
 * the changes feed, the kept logs and the diagnosis from its own file as of its takenAt: the
 * rollout's image change is named first, and a change made live after the capture is not in it.
 */
import { BAD_ROLLOUT, badRolloutPodName } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectChange } from '../../../src-shared/contract/change-operations';
import type { Diagnosis } from '../../../src-shared/contract/diagnosis-operations';
import { eventually } from '../test-support/eventually.test-support';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { tempFolder } from './skiff-file.test-support';
import { download, finished, startCapture } from './snapshot-capture.test-support';

let stack: Stack;
let folder: ReturnType<typeof tempFolder>;
const NS = BAD_ROLLOUT.namespace;
const POD = badRolloutPodName();
const IMAGE_CHANGE = 'image checkout: 3.8.2 → 3.8.3';

beforeAll(async () => {
  stack = await startStack({ service: { changeHistory: { record: 'all', flushMs: 20 } } });
  folder = tempFolder();
});
afterAll(async () => {
  await stack?.close();
  folder?.remove();
});

describe('a snapshot taken after the bad rollout', () => {
  it('answers the history, changes, kept logs and diagnosis from its own file, as of takenAt', {
    timeout: 240_000,
  }, async () => {
    const live = (path: string) => `${stack.cluster}${path}`;
    await eventually(async () => {
      const count = await stack.service.recorded.deps.backend.get<{ n: number }>(
        `SELECT count(*) AS n FROM change_history WHERE resource_type = 'deployment' AND name = 'checkout'`,
      );
      expect(Number(count?.n)).toBeGreaterThan(0);
    }, 60_000);
    stack.sim.runScenario('bad-rollout');
    await eventually(async () => {
      stack.sim.tick();
      const res = await stack.get<Diagnosis>(live(`/diagnosis/namespaces/${NS}/pod/${POD}`));
      expect(res.body.onset).not.toBeNull();
      expect(res.body.keptLogs).toBeDefined();
      expect(res.body.changesBefore[0]?.summary).toBe(IMAGE_CHANGE);
    }, 90_000);
    await stack.service.recorded.keptLogs?.idle();

    const job = await finished(stack, (await startCapture(stack, { logs: 'none' })).snapshotId, 60_000);
    expect(job.status, JSON.stringify(job)).toBe('done');
    const takenMs = Date.parse(job.startedAt);
    const path = (await download(stack, job.snapshotId, folder.dir)).path;
    const opened = await stack.service.snapshots.open(path);
    const snap = (p: string) => `/v1/workspaces/default/observability/${opened.clusterId}${p}`;

    // A change made live after the capture: the live history has it, the snapshot's never does.
    const current = stack.sim.store.peek('deployments', NS, 'checkout')!;
    current.metadata.annotations = { ...current.metadata.annotations, 'after-capture': 'yes' };
    stack.sim.store.upsert(current);

    const hist = await stack.get<ObjectChange[]>(
      snap(`/history/namespaces/${NS}/deployment/checkout?limit=500`),
    );
    expect(hist.status, JSON.stringify(hist.body)).toBe(200);
    expect(hist.body.map((c) => c.summary)).toContain(IMAGE_CHANGE);
    for (const c of hist.body) expect(Date.parse(c.time)).toBeLessThanOrEqual(takenMs);
    const liveHist = await eventually(async () => {
      const res = await stack.get<ObjectChange[]>(
        live(`/history/namespaces/${NS}/deployment/checkout?limit=500`),
      );
      expect(res.body.length).toBeGreaterThan(hist.body.length);
      return res.body;
    }, 30_000);
    // What the snapshot answers is the live history up to takenAt, change for change.
    expect(hist.body).toEqual(liveHist.filter((c) => Date.parse(c.time) <= takenMs));

    const imageChange = hist.body.find((c) => c.summary === IMAGE_CHANGE)!;
    const at = await stack.get<{ spec: { template: { spec: { containers: Array<{ image: string }> } } } }>(
      snap(`/history/namespaces/${NS}/deployment/checkout?at=${encodeURIComponent(imageChange.time)}`),
    );
    expect(at.status, JSON.stringify(at.body)).toBe(200);
    expect(at.body.spec.template.spec.containers[0]!.image).toBe(BAD_ROLLOUT.image);

    const feed = await stack.get<Array<{ summary: string; ref: { name: string } }>>(
      snap(`/changes?namespace=${NS}&kind=deployment&limit=500`),
    );
    expect(feed.status, JSON.stringify(feed.body)).toBe(200);
    expect(feed.body.some((c) => c.summary === IMAGE_CHANGE && c.ref.name === 'checkout')).toBe(true);

    const kept = await stack.get<Array<{ container: string; exitCode: number }>>(
      snap(`/kubernetes-proxy/namespaces/${NS}/pod/${POD}/kept-logs`),
    );
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body[0]).toMatchObject({ container: 'checkout', exitCode: 1 });

    const diagnosis = await stack.get<Diagnosis>(snap(`/diagnosis/namespaces/${NS}/pod/${POD}`));
    expect(diagnosis.status, JSON.stringify(diagnosis.body)).toBe(200);
    expect(diagnosis.body.onset).not.toBeNull();
    expect(diagnosis.body.changesBefore[0]).toMatchObject({
      ref: { kind: 'Deployment', name: 'checkout' },
      summary: IMAGE_CHANGE,
    });
    expect(diagnosis.body.keptLogs).toMatchObject({ pod: POD, container: 'checkout', exitCode: 1 });
  });
});
