/**
 * The diagnosis tests' world (diagnosis.it, diagnosis-rbac.it): in namespace `diag`, a Deployment
 * rolled out to a ReplicaSet whose pod crash-loops, what they use, an HPA, a healthy pod; and the
 * change_history and kept_logs rows of that story, written through the storage backend in no order
 * the answer has.
 */
import type { KubeObject } from '@skiff/kube-simulator';
import { CLUSTER_ID, type Stack } from '../../test-support/harness.test-support';
import { type FixtureRow, insertRows } from '../changes/reads.test-support';

export const NS = 'diag';
export const MIN = 60_000;
export const T = (hhmmss: string) => Date.parse(`2026-01-31T${hhmmss}Z`);
export const iso = (ms: number) => new Date(ms).toISOString();
/** The pod's first failed run ended here; its first BackOff came 30 s later. */
export const ONSET = T('02:09:30');

const owner = (o: KubeObject) => ({
  ownerReferences: [
    { apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, uid: o.metadata.uid, controller: true },
  ],
});

export function seed(s: Stack) {
  const put = (o: Record<string, unknown>) => s.sim.store.upsert(o as unknown as KubeObject);
  put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  const template = {
    metadata: { labels: { app: 'api' } },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'api:1.4.2',
          envFrom: [{ configMapRef: { name: 'api-conf' } }],
          env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'api-secret', key: 'token' } } }],
        },
      ],
    },
  };
  const deploy = put({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'api',
      namespace: NS,
      uid: 'deploy-uid',
      annotations: { 'deployment.kubernetes.io/revision': '2' },
    },
    spec: { replicas: 1, selector: { matchLabels: { app: 'api' } }, template },
    status: { conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' }] },
  });
  const rs = (name: string, revision: string) =>
    put({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace: NS,
        uid: `${name}-uid`,
        annotations: { 'deployment.kubernetes.io/revision': revision },
        ...owner(deploy),
      },
      spec: { replicas: 1, selector: { matchLabels: { app: 'api' } }, template },
    });
  const oldRs = rs('api-1', '1');
  const newRs = rs('api-2', '2');
  put({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'api-1-a',
      namespace: NS,
      uid: 'old-pod-uid',
      creationTimestamp: iso(T('00:00:00')),
      ...owner(oldRs),
    },
    spec: { ...template.spec, nodeName: 'worker-1' },
    status: {
      phase: 'Running',
      containerStatuses: [
        { name: 'app', restartCount: 0, ready: true, state: { running: {} }, lastState: {} },
      ],
    },
  });
  put({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'api-2-x',
      namespace: NS,
      uid: 'pod-uid',
      creationTimestamp: iso(T('02:07:02')),
      ...owner(newRs),
    },
    spec: { ...template.spec, nodeName: 'worker-1' },
    status: {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'app',
          restartCount: 3,
          ready: false,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: iso(T('02:25:00')) } },
        },
      ],
    },
  });
  put({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'api-2-x.backoff', namespace: NS },
    involvedObject: { kind: 'Pod', namespace: NS, name: 'api-2-x', uid: 'pod-uid', apiVersion: 'v1' },
    reason: 'BackOff',
    type: 'Warning',
    message: 'Back-off restarting failed container app',
    firstTimestamp: iso(T('02:10:00')),
    lastTimestamp: iso(T('02:25:10')),
    count: 9,
    source: { component: 'kubelet' },
  });
  put({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'api-conf', namespace: NS },
    data: { a: '1' },
  });
  put({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'api-secret', namespace: NS },
    data: { token: 'eA==' },
  });
  put({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'api', namespace: NS },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' },
      minReplicas: 1,
      maxReplicas: 3,
    },
  });
  put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'healthy', namespace: NS }, data: {} });
}

const row = (r: Partial<FixtureRow> & Pick<FixtureRow, 'timeMs' | 'change'>): FixtureRow => ({
  cluster: CLUSTER_ID,
  namespace: NS,
  resourceVersion: String(r.timeMs % 100_000),
  ...r,
});
export const image = [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'api:1.4.2' }];
const status = [{ op: 'replace', path: '/status/readyReplicas', value: 0 }];

/** The fixture rows, in no order the answer has. */
export const ROWS: FixtureRow[] = [
  row({
    timeMs: T('02:05:00'),
    change: 'updated',
    resourceType: 'node',
    kind: 'Node',
    namespace: '',
    name: 'worker-1',
    uid: 'n',
    summary: 'condition MemoryPressure False → True',
    patch: [{ op: 'replace', path: '/status/conditions/1/status', value: 'True' }],
  }),
  row({
    timeMs: T('02:07:01'),
    change: 'created',
    resourceType: 'replicaset',
    kind: 'ReplicaSet',
    name: 'api-2',
    uid: 'api-2-uid',
    summary: 'created',
  }),
  row({
    timeMs: T('01:50:00'),
    change: 'updated',
    resourceType: 'configmap',
    kind: 'ConfigMap',
    name: 'api-conf',
    uid: 'c',
    summary: 'data changed: a',
    patch: [{ op: 'replace', path: '/data/a', value: '1' }],
  }),
  row({
    timeMs: T('02:00:00'),
    change: 'updated',
    resourceType: 'resourcequota',
    kind: 'ResourceQuota',
    name: 'diag-quota',
    uid: 'q',
    summary: 'hard changed',
    patch: [{ op: 'replace', path: '/spec/hard/pods', value: '5' }],
  }),
  row({
    timeMs: T('02:08:00'),
    change: 'updated',
    resourceType: 'horizontalpodautoscaler',
    kind: 'HorizontalPodAutoscaler',
    name: 'api',
    uid: 'h',
    summary: 'maxReplicas 5 → 3',
    patch: [{ op: 'replace', path: '/spec/maxReplicas', value: 3 }],
  }),
  row({
    timeMs: T('02:07:02'),
    change: 'created',
    resourceType: 'pod',
    kind: 'Pod',
    name: 'api-2-x',
    uid: 'pod-uid',
    summary: 'created',
  }),
  row({
    timeMs: T('02:09:20'),
    change: 'updated',
    resourceType: 'pod',
    kind: 'Pod',
    name: 'api-2-x',
    uid: 'pod-uid',
    summary: 'status',
    patch: status,
  }),
  row({
    timeMs: T('02:08:00'),
    change: 'updated',
    resourceType: 'deployment',
    kind: 'Deployment',
    name: 'api',
    uid: 'deploy-uid',
    summary: 'status',
    patch: status,
  }),
  row({
    timeMs: T('01:30:00'),
    change: 'updated',
    resourceType: 'configmap',
    kind: 'ConfigMap',
    name: 'api-conf',
    uid: 'c',
    summary: 'too early',
  }),
  row({
    timeMs: T('02:08:00'),
    change: 'updated',
    resourceType: 'configmap',
    kind: 'ConfigMap',
    name: 'unrelated',
    uid: 'u',
    summary: 'unrelated',
  }),
  row({
    timeMs: T('02:09:33'),
    change: 'updated',
    resourceType: 'secret',
    kind: 'Secret',
    name: 'api-secret',
    uid: 's',
    summary: 'data changed',
    patch: [{ op: 'replace', path: '/keys/token', value: 8 }],
  }),
  row({
    timeMs: T('02:08:00'),
    change: 'updated',
    resourceType: 'deployment',
    kind: 'Deployment',
    name: 'api',
    uid: 'deploy-uid',
    summary: 'other cluster',
    cluster: 'elsewhere',
  }),
  row({
    timeMs: T('02:06:00'),
    change: 'seen',
    resourceType: 'deployment',
    kind: 'Deployment',
    name: 'api',
    uid: 'deploy-uid',
    summary: 'seen',
  }),
  row({
    timeMs: T('02:07:00'),
    change: 'updated',
    resourceType: 'deployment',
    kind: 'Deployment',
    name: 'api',
    uid: 'deploy-uid',
    summary: 'image app: 1.4.1 → 1.4.2',
    patch: image,
  }),
  row({
    timeMs: T('02:09:36'),
    change: 'updated',
    resourceType: 'configmap',
    kind: 'ConfigMap',
    name: 'api-conf',
    uid: 'c',
    summary: 'after the grace',
  }),
];

/** The rows above and two kept runs of the crash-looping pod (restart 0 ended at the onset). */
export async function record(s: Stack): Promise<void> {
  const { backend } = s.service.recorded.deps;
  await insertRows(backend, ROWS);
  for (const [restart, finished] of [
    [1, T('02:10:40')],
    [0, ONSET],
  ] as const)
    await backend.run(
      `INSERT INTO kept_logs (cluster_id, namespace, pod, pod_uid, container, restart_count, finished_at,
         finished_ms, exit_code, reason, lines, line_count, bytes, kept_at)
       VALUES ($cluster, $ns, 'api-2-x', 'pod-uid', 'app', $restart, $at, $ms, 1, 'Error', 'panic: bad config', 1, 17, $ms)`,
      { cluster: CLUSTER_ID, ns: NS, restart, at: iso(finished), ms: finished },
    );
}
