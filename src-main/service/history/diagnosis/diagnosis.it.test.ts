/**
 * `…/diagnosis/…` over real HTTP and IPC against the simulator, with change_history and kept_logs
 * rows written straight through the storage backend (out of the answer's order) and change
 * recording off, so the rows are exactly these: a crash-looping pod of a rolled-out Deployment,
 * its onset (its first kept failed run, before its first BackOff), the related changes ranked, the
 * first failed run's kept logs; the Deployment diagnosed through its newest ReplicaSet's pods; a
 * NotReady node; objects that are not failing; the window parameter; refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../../../src-shared/contract/diagnosis-operations';
import type { Principal } from '../../context';
import { CLUSTER_ID, type Stack, startStack } from '../../test-support/harness.test-support';
import { image, iso, MIN, NS, ONSET, record, seed, T } from './diagnosis.test-support';

let stack: Stack;
let principal: Principal;

beforeAll(async () => {
  stack = await startStack({ service: { changeHistory: { record: 'off' } } });
  seed(stack);
  const found = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
  if (!found) throw new Error('the admin session has no principal');
  principal = found;
  await record(stack);
});
afterAll(async () => {
  await stack?.close();
});

const diag = (path: string) => stack.get<Diagnosis>(`${stack.cluster}/diagnosis/${path}`);
const summaries = (d: Diagnosis) =>
  d.changesBefore.map((c) => `${c.ref.resourceType}/${c.ref.name}: ${c.summary} [${c.relation}]`);

describe('diagnosis', () => {
  it('of a crash-looping pod: the onset, the related changes before it ranked, the first failed run', async () => {
    const res = await diag(`namespaces/${NS}/pod/api-2-x`);
    expect(res.status).toBe(200);
    const d = res.body;
    expect(d.object).toEqual({
      kind: 'Pod',
      resourceType: 'pod',
      namespace: NS,
      name: 'api-2-x',
      uid: 'pod-uid',
    });
    expect(d.onset).toBe(iso(ONSET));
    expect(d.signals).toEqual([
      {
        type: 'CrashLoopBackOff',
        message: 'container app is crash-looping: restarted 3 times, last exit code 1 (Error)',
      },
      {
        type: 'FirstRestart',
        message: 'container app first failed (exit code 1, Error); Skiff kept its logs',
        time: iso(ONSET),
        onset: true,
      },
      {
        type: 'FirstBackOff',
        message: 'the first BackOff event about pod api-2-x',
        time: iso(T('02:10:00')),
      },
      {
        type: 'LastRestart',
        message: 'container app exited with code 1 (restart 3; earlier ones were not kept by the kubelet)',
        time: iso(T('02:25:00')),
      },
    ]);
    expect(d.window).toEqual({ since: iso(ONSET - 30 * MIN), until: iso(ONSET + 5_000) });
    expect(summaries(d)).toEqual([
      'deployment/api: image app: 1.4.1 → 1.4.2 [owner]',
      'replicaset/api-2: created [owner]',
      'secret/api-secret: data changed [uses]',
      'horizontalpodautoscaler/api: maxReplicas 5 → 3 [autoscaler]',
      'configmap/api-conf: data changed: a [uses]',
      'node/worker-1: condition MemoryPressure False → True [node]',
      'resourcequota/diag-quota: hard changed [namespace]',
    ]);
    expect(d.changesBefore[0]).toEqual({
      time: iso(T('02:07:00')),
      ref: { kind: 'Deployment', resourceType: 'deployment', namespace: NS, name: 'api', uid: 'deploy-uid' },
      change: 'updated',
      resourceVersion: String(T('02:07:00') % 100_000),
      summary: 'image app: 1.4.1 → 1.4.2',
      patch: image,
      relation: 'owner',
      beforeOnsetMs: 150_000,
    });
    expect(d.keptLogs).toEqual({
      namespace: NS,
      pod: 'api-2-x',
      container: 'app',
      restartCount: 0,
      finishedAt: iso(ONSET),
      exitCode: 1,
      reason: 'Error',
      lines: 1,
    });
    expect(d.related).toBeGreaterThanOrEqual(9);
    expect(d.hidden).toBeUndefined();
  });

  it('of the Deployment: failing through its newest ReplicaSet’s pod, its own change first', async () => {
    const d = (await diag(`namespaces/${NS}/deployment/api`)).body;
    expect(d.onset).toBe(iso(ONSET));
    expect(d.signals[0]).toEqual({
      type: 'NewReplicaSetFailing',
      message:
        'pod api-2-x of the newest ReplicaSet: container app is crash-looping: restarted 3 times, last exit code 1 (Error)',
    });
    expect(summaries(d)).toEqual([
      'deployment/api: image app: 1.4.1 → 1.4.2 [self]',
      'secret/api-secret: data changed [uses]',
      'horizontalpodautoscaler/api: maxReplicas 5 → 3 [autoscaler]',
      'configmap/api-conf: data changed: a [uses]',
      'resourcequota/diag-quota: hard changed [namespace]',
    ]);
    expect(d.keptLogs?.pod).toBe('api-2-x');
    // Named without a namespace, found across namespaces.
    expect((await diag('deployment/api')).body).toEqual(d);
  });

  it('window: only the changes that close before the onset', async () => {
    const d = (await diag(`namespaces/${NS}/pod/api-2-x?window=1m`)).body;
    expect(d.window).toEqual({ since: iso(ONSET - MIN), until: iso(ONSET + 5_000) });
    expect(summaries(d)).toEqual(['secret/api-secret: data changed [uses]']);
    const wide = (await diag(`namespaces/${NS}/pod/api-2-x?window=2h`)).body;
    expect(summaries(wide)).toContain('configmap/api-conf: too early [uses]');
  });

  it('of a NotReady node: since its Ready transition', async () => {
    const node = stack.sim.store.get('nodes', '', 'worker-3') as unknown as {
      status: { conditions: { type: string; lastTransitionTime: string }[] };
    };
    const ready = node.status.conditions.find((c) => c.type === 'Ready')!;
    const d = (await diag('node/worker-3')).body;
    expect(d.onset).toBe(iso(Date.parse(ready.lastTransitionTime)));
    expect(d.signals[0]!.type).toBe('NodeNotReady');
    expect(d.signals[1]).toMatchObject({ type: 'ConditionTransition', onset: true });
    expect(d.changesBefore).toEqual([]);
    expect(d.keptLogs).toBeUndefined();
  });

  it('of objects that are not failing: 200, onset null, and why', async () => {
    const healthy = await diag(`namespaces/${NS}/pod/api-1-a`);
    expect(healthy.status).toBe(200);
    expect(healthy.body).toEqual({
      object: { kind: 'Pod', resourceType: 'pod', namespace: NS, name: 'api-1-a', uid: 'old-pod-uid' },
      onset: null,
      signals: [{ type: 'NotFailing', message: 'the Pod is not failing: nothing in its status says so' }],
      changesBefore: [],
      related: 0,
    });
    const config = (await diag(`namespaces/${NS}/configmap/healthy`)).body;
    expect(config.onset).toBeNull();
    expect(config.signals[0]!.type).toBe('NotDiagnosed');
  });

  it('refuse what they cannot answer, with problems', async () => {
    const missing = await diag(`namespaces/${NS}/pod/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'resource_not_found' });
    expect((await diag(`namespaces/${NS}/pod/api-2-x?window=0s`)).status).toBe(400);
    const wide = await diag(`namespaces/${NS}/pod/api-2-x?window=8d`);
    expect(wide.body).toMatchObject({ code: 'invalid_query' });
    expect(JSON.stringify(wide.body)).toContain(
      'window must be a duration such as 30s, 30m, 2h or 1d, from 1s to 7d',
    );
    expect((await diag(`namespaces/${NS}/pod/api-2-x?window=7d`)).status).toBe(200);
    expect((await diag(`namespaces/${NS}/pod/api-2-x?window=1s`)).status).toBe(200);
    expect((await diag(`namespaces/${NS}/pod/api-2-x?window=soon`)).status).toBe(400);
    expect((await diag(`namespaces/${NS}/pods/api-2-x`)).body).toMatchObject({
      code: 'invalid_resource_type',
    });
    expect((await diag(`namespaces/${NS}/node/worker-1`)).status).toBe(400);
    expect((await diag(`namespaces/${NS}/pod/api-2-x?other=1`)).status).toBe(400);
    // A kind the cluster does not serve: the same problem the resource read gives.
    const unserved = await diag('widget.example.com/x');
    const read = await stack.get(`${stack.cluster}/kubernetes-proxy/widget.example.com/x`);
    expect([unserved.status, (unserved.body as { code?: string }).code]).toEqual([
      read.status,
      (read.body as { code?: string }).code,
    ]);
  });

  it('answer the same over IPC', async () => {
    const ctx = { principal, client: { via: 'ipc' as const }, signal: new AbortController().signal };
    const cluster = { workspaceId: 'default', clusterId: CLUSTER_ID };
    const reply = await stack.service.invoke(
      'getNamespacedDiagnosis',
      {
        params: { ...cluster, namespace: NS, resourceType: 'pod', resourceName: 'api-2-x' },
        query: {},
        body: undefined,
      },
      ctx,
    );
    expect(reply.data).toEqual((await diag(`namespaces/${NS}/pod/api-2-x`)).body);
    const plain = await stack.service.invoke(
      'getDiagnosis',
      {
        params: { ...cluster, resourceType: 'node', resourceName: 'worker-3' },
        query: { window: '1h' },
        body: undefined,
      },
      ctx,
    );
    expect(plain.data).toEqual((await diag('node/worker-3?window=1h')).body);
    await expect(
      stack.service.invoke(
        'getNamespacedDiagnosis',
        {
          params: { ...cluster, namespace: NS, resourceType: 'pod', resourceName: 'x' },
          query: { window: 'x' },
          body: undefined,
        },
        ctx,
      ),
    ).rejects.toMatchObject({ code: 'invalid_query' });
  });
});
