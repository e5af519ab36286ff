/**
 * diagnose() without a service: a real ClusterConnection to the embedded simulator holding the
 * diagnosis tests' world (diagnosis.test-support.ts), a real SQLite database holding its
 * change_history and kept_logs rows, and access answers the test chooses. Fast enough to be the
 * module's own tests under mutation testing; diagnosis.it covers the same over HTTP and IPC.
 */
import type { KubeObjectInput } from '@skiff/kube-simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../../../src-shared/contract/diagnosis-operations';
import { OPEN_ACCESS, type ReadAccess, type ResourceAttributes } from '../../auth/rbac/access';
import { simPerFile } from '../../cache/cache.test-support';
import { resourceRows } from '../../cache/list-queries';
import { ClusterConnection } from '../../clusters/cluster';
import { type OpenStore, openStore } from '../../events/history/history.test-support';
import { EventHistory } from '../../events/history/index';
import { contextsFromYaml } from '../../kube/kubeconfig';
import { silentLogger } from '../../logger';
import { CLUSTER_ID, type Stack } from '../../test-support/harness.test-support';
import { insertRows } from '../changes/reads.test-support';
import { type DiagnoseDeps, diagnose, ONSET_GRACE_MS } from './diagnose';
import { iso, MIN, NS, ONSET, ROWS, seed, T } from './diagnosis.test-support';

const env = simPerFile();
let store: OpenStore;
let cluster: ClusterConnection;

beforeAll(async () => {
  seed({ sim: env.sim } as unknown as Stack);
  store = await openStore();
  await insertRows(store.backend, ROWS);
  for (const [restart, finished] of [
    [1, T('02:10:40')],
    [0, ONSET],
  ] as const)
    await store.backend.run(
      `INSERT INTO kept_logs (cluster_id, namespace, pod, pod_uid, container, restart_count, finished_at,
         finished_ms, exit_code, reason, lines, line_count, bytes, kept_at)
       VALUES ($cluster, $ns, 'api-2-x', 'pod-uid', 'app', $restart, $at, $ms, 1, 'Error', 'panic: bad config', 1, 17, $ms)`,
      { cluster: CLUSTER_ID, ns: NS, restart, at: iso(finished), ms: finished },
    );
  seedRollout();
  for (const [pod, finished] of [
    ['web-3-a', T('02:20:00')],
    ['web-3-b', T('02:15:00')],
    ['web-3-d', T('02:00:00')],
    ['web-2-a', T('01:50:00')],
  ] as const)
    await store.backend.run(
      `INSERT INTO kept_logs (cluster_id, namespace, pod, pod_uid, container, restart_count, finished_at,
         finished_ms, exit_code, reason, lines, line_count, bytes, kept_at)
       VALUES ($cluster, $ns, $pod, $uid, 'app', 0, $at, $ms, 2, 'Error', 'x', 1, 1, $ms)`,
      { cluster: CLUSTER_ID, ns: NS2, pod, uid: `${pod}-uid`, at: iso(finished), ms: finished },
    );
  const source = contextsFromYaml(env.sim.kubeconfigYaml(CLUSTER_ID))[0]!;
  cluster = new ClusterConnection(CLUSTER_ID, source, {
    timeoutMs: 5_000,
    logger: silentLogger(),
    watch: { baseMs: 60_000, capMs: 60_000, stableAfterMs: 60_000 },
  });
});
afterAll(async () => {
  await cluster?.close();
  await store?.close();
});

/**
 * A second rollout, in its own namespace: Deployment `web` with ReplicaSets of revisions 1, 3 and
 * 2 (3 is the newest), four failing pods and a healthy one in the newest, a failing one in
 * revision 2. Kept runs: web-3-a at 02:20, web-3-b at 02:15, web-3-d (the fourth failing pod, not
 * read) at 02:00, web-2-a (an older ReplicaSet's) at 01:50.
 */
const NS2 = 'diag-rollout';
function seedRollout() {
  const put = (o: Record<string, unknown>) => env.sim.store.upsert(o as unknown as KubeObjectInput);
  const owner = (kind: string, name: string, uid: string) => ({
    ownerReferences: [{ apiVersion: 'apps/v1', kind, name, uid, controller: true }],
  });
  put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS2 } });
  const template = {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'app', image: 'web:2' }] },
  };
  put({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: NS2, uid: 'web-uid' },
    spec: { replicas: 4, selector: { matchLabels: { app: 'web' } }, template },
  });
  for (const revision of ['1', '3', '2'])
    put({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `web-${revision}`,
        namespace: NS2,
        uid: `web-${revision}-uid`,
        annotations: { 'deployment.kubernetes.io/revision': revision },
        ...owner('Deployment', 'web', 'web-uid'),
      },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template },
    });
  const pod = (name: string, rs: string, failing: boolean) =>
    put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: NS2,
        uid: `${name}-uid`,
        creationTimestamp: iso(T('01:00:00')),
        ...owner('ReplicaSet', rs, `${rs}-uid`),
      },
      spec: { ...template.spec, nodeName: 'worker-1' },
      status: failing
        ? {
            phase: 'Running',
            containerStatuses: [
              {
                name: 'app',
                restartCount: 2,
                ready: false,
                state: { waiting: { reason: 'CrashLoopBackOff' } },
                lastState: { terminated: { exitCode: 2, reason: 'Error', finishedAt: iso(T('02:40:00')) } },
              },
            ],
          }
        : {
            phase: 'Running',
            conditions: [{ type: 'Ready', status: 'True' }],
            containerStatuses: [
              {
                name: 'app',
                restartCount: 0,
                ready: true,
                state: { running: { startedAt: iso(T('01:00:00')) } },
              },
            ],
          },
    });
  pod('web-3-0', 'web-3', false);
  for (const name of ['web-3-a', 'web-3-b', 'web-3-c', 'web-3-d']) pod(name, 'web-3', true);
  pod('web-2-a', 'web-2', true);
}

let flushes = 0;
afterEach(() => {
  flushes = 0;
});

/** Access that refuses what `denied` says no to, and remembers what it was asked. */
function access(denied: (a: ResourceAttributes) => boolean): ReadAccess & { asked: ResourceAttributes[] } {
  const asked: ResourceAttributes[] = [];
  return {
    open: false,
    asked,
    allows: async (a) => {
      asked.push(a);
      return !denied(a);
    },
    require: async () => {},
    namespaces: async () => 'all',
  };
}

async function run(
  resourceType: string,
  namespace: string,
  name: string,
  windowMs = 30 * MIN,
  over: Partial<DiagnoseDeps> = {},
): Promise<Diagnosis> {
  const signal = new AbortController().signal;
  const kind = (await cluster.kinds(signal)).find((k) => k.resourceType === resourceType)!;
  const cache = cluster.resources(kind);
  await cache.acquire(signal);
  const entry = resourceRows(cache.read().view, kind.namespaced ? namespace : '', undefined).find(
    (e) => e.name === name,
  )!;
  const deps: DiagnoseDeps = {
    cluster,
    history: new EventHistory({
      backend: store.backend,
      options: { record: 'off' },
      flags: () => ({ resourceEventsEnabled: true, systemEventsEnabled: true }),
      logger: silentLogger(),
    }),
    backend: store.backend,
    access: OPEN_ACCESS,
    flush: async () => {
      flushes++;
    },
    now: () => T('03:00:00'),
    signal,
    ...over,
  };
  return diagnose(deps, kind, entry, windowMs);
}

const summaries = (d: Diagnosis) =>
  d.changesBefore.map((c) => `${c.ref.resourceType}/${c.ref.name}: ${c.summary} [${c.relation}]`);

describe('diagnose', () => {
  it('a crash-looping pod: its onset, the related changes before it ranked, its first failed run', async () => {
    const d = await run('pod', NS, 'api-2-x');
    expect(flushes).toBe(1);
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
    expect(d.window).toEqual({ since: iso(ONSET - 30 * MIN), until: iso(ONSET + ONSET_GRACE_MS) });
    expect(ONSET_GRACE_MS).toBe(5_000);
    expect(summaries(d)).toEqual([
      'deployment/api: image app: 1.4.1 → 1.4.2 [owner]',
      'replicaset/api-2: created [owner]',
      'secret/api-secret: data changed [uses]',
      'horizontalpodautoscaler/api: maxReplicas 5 → 3 [autoscaler]',
      'configmap/api-conf: data changed: a [uses]',
      'node/worker-1: condition MemoryPressure False → True [node]',
      'resourcequota/diag-quota: hard changed [namespace]',
    ]);
    expect(d.changesBefore[0]).not.toHaveProperty('id');
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
    expect(d).not.toHaveProperty('hidden');
  });

  it('counts the related objects once each', async () => {
    const d = await run('pod', NS, 'api-2-x');
    // The pod itself, its ReplicaSet and Deployment, the ConfigMap, Secret, HPA, node, quota…
    expect(d.related).toBe(10);
    const window = await run('pod', NS, 'api-2-x', MIN);
    expect(window.related).toBe(d.related);
  });

  it('a Deployment: failing through its newest ReplicaSet’s pod, its own change first', async () => {
    const d = await run('deployment', NS, 'api');
    expect(d.onset).toBe(iso(ONSET));
    expect(d.object).toEqual({
      kind: 'Deployment',
      resourceType: 'deployment',
      namespace: NS,
      name: 'api',
      uid: 'deploy-uid',
    });
    expect(d.signals[0]).toEqual({
      type: 'NewReplicaSetFailing',
      message:
        'pod api-2-x of the newest ReplicaSet: container app is crash-looping: restarted 3 times, last exit code 1 (Error)',
    });
    expect(d.signals.filter((s) => s.type === 'NewReplicaSetFailing')).toHaveLength(1);
    expect(summaries(d)).toEqual([
      'deployment/api: image app: 1.4.1 → 1.4.2 [self]',
      'secret/api-secret: data changed [uses]',
      'horizontalpodautoscaler/api: maxReplicas 5 → 3 [autoscaler]',
      'configmap/api-conf: data changed: a [uses]',
      'resourcequota/diag-quota: hard changed [namespace]',
    ]);
    expect(d.keptLogs?.pod).toBe('api-2-x');
    expect(d.keptLogs?.restartCount).toBe(0);
  });

  it('the window: only the changes that close before the onset', async () => {
    const d = await run('pod', NS, 'api-2-x', MIN);
    expect(d.window).toEqual({ since: iso(ONSET - MIN), until: iso(ONSET + 5_000) });
    expect(summaries(d)).toEqual(['secret/api-secret: data changed [uses]']);
    const wide = await run('pod', NS, 'api-2-x', 120 * MIN);
    expect(summaries(wide)).toContain('configmap/api-conf: too early [uses]');
  });

  it('a NotReady node: since its Ready transition, no kept logs', async () => {
    const node = env.sim.store.get('nodes', '', 'worker-3') as unknown as {
      status: { conditions: { type: string; lastTransitionTime: string }[] };
    };
    const ready = node.status.conditions.find((c) => c.type === 'Ready')!;
    const d = await run('node', '', 'worker-3');
    expect(d.object).toEqual({
      kind: 'Node',
      resourceType: 'node',
      name: 'worker-3',
      uid: expect.any(String),
    });
    expect(d.onset).toBe(iso(Date.parse(ready.lastTransitionTime)));
    expect(d.signals[0]!.type).toBe('NodeNotReady');
    expect(d.changesBefore).toEqual([]);
    expect(d).not.toHaveProperty('keptLogs');
  });

  it('objects that are not failing: no onset, and why', async () => {
    expect(await run('pod', NS, 'api-1-a')).toEqual({
      object: { kind: 'Pod', resourceType: 'pod', namespace: NS, name: 'api-1-a', uid: 'old-pod-uid' },
      onset: null,
      signals: [{ type: 'NotFailing', message: 'the Pod is not failing: nothing in its status says so' }],
      changesBefore: [],
      related: 0,
    });
    const config = await run('configmap', NS, 'healthy');
    expect(config.onset).toBeNull();
    expect(config.signals[0]!.type).toBe('NotDiagnosed');
  });

  it('--authorize rbac: the changes of kinds the caller may not get are hidden and counted, once per kind and namespace', async () => {
    const a = access((x) => x.resource === 'secrets' || x.resource === 'nodes');
    const d = await run('pod', NS, 'api-2-x', 30 * MIN, { access: a });
    expect(summaries(d)).toEqual([
      'deployment/api: image app: 1.4.1 → 1.4.2 [owner]',
      'replicaset/api-2: created [owner]',
      'horizontalpodautoscaler/api: maxReplicas 5 → 3 [autoscaler]',
      'configmap/api-conf: data changed: a [uses]',
      'resourcequota/diag-quota: hard changed [namespace]',
    ]);
    expect(d.hidden).toBe(2);
    expect(d.keptLogs?.pod).toBe('api-2-x');
    const secrets = a.asked.filter((x) => x.resource === 'secrets');
    expect(secrets).toEqual([{ verb: 'get', group: '', resource: 'secrets', namespace: NS }]);
    expect(a.asked.filter((x) => x.resource === 'nodes')).toEqual([
      { verb: 'get', group: '', resource: 'nodes' },
    ]);
    expect(a.asked.find((x) => x.resource === 'deployments')).toEqual({
      verb: 'get',
      group: 'apps',
      resource: 'deployments',
      namespace: NS,
    });
    expect(a.asked.at(-1)).toEqual({
      verb: 'get',
      group: '',
      resource: 'pods',
      subresource: 'log',
      namespace: NS,
    });
  });

  it('--authorize rbac: the kept logs only with get pods/log', async () => {
    const d = await run('pod', NS, 'api-2-x', 30 * MIN, { access: access((x) => x.subresource === 'log') });
    expect(d).not.toHaveProperty('keptLogs');
    expect(d).not.toHaveProperty('hidden');
    expect(d.onset).toBe(iso(ONSET));
  });

  it('a Deployment: its newest ReplicaSet’s first three failing pods, and the earliest kept run of those', async () => {
    const d = await run('deployment', NS2, 'web');
    expect(d.signals.filter((s) => s.type === 'NewReplicaSetFailing').map((s) => s.message)).toEqual(
      ['web-3-a', 'web-3-b', 'web-3-c'].map(
        (p) =>
          `pod ${p} of the newest ReplicaSet: container app is crash-looping: restarted 2 times, last exit code 2 (Error)`,
      ),
    );
    expect(d.keptLogs).toMatchObject({ namespace: NS2, pod: 'web-3-b', finishedAt: iso(T('02:15:00')) });
    expect(d.onset).toBe(iso(T('02:15:00')));
  });
});
