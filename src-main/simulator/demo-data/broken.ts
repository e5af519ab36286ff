/**
 * demo-broken: one workload per failure mode, each with the pod status and the events a real
 * cluster shows for it. All pods run on worker-1 except the unschedulable one.
 */

import { HOUR, MINUTE, SECOND } from '../time';
import type { Pod } from '../types';
import type { Gen } from './context';
import { kubeletEvent, objectEvent, schedulerEvent, startupEvents } from './events';
import { replicaSetName } from './naming';
import type { ContainerTemplate, PodState, PodTemplate } from './pods';
import { buildDeployment } from './workloads';

export const BROKEN_NS = 'demo-broken';
const AGE = 3 * HOUR;

function schedulingMessage(gen: Gen): string {
  const n = gen.nodes.length;
  const notReady = gen.nodes.filter((x) => !x.ready).length;
  const reasons = [
    '1 Insufficient memory',
    `${notReady} node(s) had untolerated taint {node.kubernetes.io/not-ready: }`,
    `${n - 1 - notReady} node(s) didn't match Pod's node affinity/selector`,
  ].sort();
  return `0/${n} nodes are available: ${reasons.join(', ')}. preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`;
}

function app(
  image: string,
  log: ContainerTemplate['log'],
  extra: Partial<ContainerTemplate> = {},
): ContainerTemplate {
  return {
    name: 'app',
    image,
    log,
    requests: { cpu: '100m', memory: '128Mi' },
    limits: { memory: '256Mi' },
    ...extra,
  };
}

function broken(
  gen: Gen,
  name: string,
  container: ContainerTemplate,
  state: PodState,
  extra: Partial<PodTemplate> = {},
  opts: { progressDeadlineExceeded?: boolean } = {},
): Pod {
  const labels = { app: name, 'app.kubernetes.io/part-of': 'demo-broken' };
  const pods = buildDeployment(gen, {
    namespace: BROKEN_NS,
    name,
    labels,
    selector: { app: name },
    replicas: 1,
    strategy: 'RollingUpdate',
    createdAgoMs: AGE,
    manager: 'kubectl',
    node: gen.node('worker-1'),
    states: [state],
    progressDeadlineExceeded: opts.progressDeadlineExceeded ?? true,
    template: { id: `${BROKEN_NS}/${name}`, labels, containers: [container], ...extra },
  });
  return pods[0] as Pod;
}

export function buildBroken(gen: Gen): void {
  const w1 = gen.node('worker-1');

  // Pending: no node fits.
  const message = schedulingMessage(gen);
  const pending = broken(
    gen,
    'unschedulable',
    app('registry.example.com/analytics/spark-driver:3.5.3', 'worker', {
      requests: { cpu: '500m', memory: '24Gi' },
      limits: { memory: '24Gi' },
    }),
    { kind: 'unschedulable', message },
    { nodeSelector: { disktype: 'ssd' } },
  );
  schedulerEvent(gen, pending, {
    reason: 'FailedScheduling',
    type: 'Warning',
    message,
    count: 37,
    firstAgoMs: AGE - MINUTE,
    lastAgoMs: 70 * SECOND,
    action: 'Scheduling',
    recurEvery: 5,
  });

  // ErrImagePull: a typo in the image name.
  const typo = 'docker.io/library/ngnix:1.27';
  const notFound = `failed to pull and unpack image "${typo}": failed to resolve reference "${typo}": ${typo}: not found`;
  const errPull = broken(gen, 'errimagepull', app(typo, 'nginx'), {
    kind: 'errimagepull',
    message: `rpc error: code = NotFound desc = ${notFound}`,
  });
  schedulerEvent(gen, errPull, {
    reason: 'Scheduled',
    message: `Successfully assigned ${BROKEN_NS}/${errPull.metadata.name} to ${w1.name}`,
    firstAgoMs: AGE - 2 * SECOND,
    action: 'Binding',
  });
  kubeletEvent(gen, errPull, {
    reason: 'Pulling',
    message: `Pulling image "${typo}"`,
    count: 38,
    firstAgoMs: AGE - 3 * SECOND,
    lastAgoMs: 4 * MINUTE,
  });
  kubeletEvent(gen, errPull, {
    reason: 'Failed',
    type: 'Warning',
    message: `Failed to pull image "${typo}": rpc error: code = NotFound desc = ${notFound}`,
    count: 38,
    firstAgoMs: AGE - 4 * SECOND,
    lastAgoMs: 4 * MINUTE,
    recurEvery: 7,
  });
  kubeletEvent(gen, errPull, {
    reason: 'Failed',
    type: 'Warning',
    message: 'Error: ErrImagePull',
    count: 38,
    firstAgoMs: AGE - 4 * SECOND,
    lastAgoMs: 4 * MINUTE,
  });
  kubeletEvent(gen, errPull, {
    reason: 'ErrImagePull',
    type: 'Warning',
    message: `rpc error: code = NotFound desc = ${notFound}`,
    count: 38,
    firstAgoMs: AGE - 4 * SECOND,
    lastAgoMs: 4 * MINUTE,
  });

  // ImagePullBackOff: a private registry without pull credentials.
  const priv = 'registry.example.com/private/billing-api:2.3.1';
  const denied = `failed to pull and unpack image "${priv}": failed to resolve reference "${priv}": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`;
  const backoff = broken(gen, 'imagepullbackoff', app(priv, 'worker'), {
    kind: 'imagepullbackoff',
    message: `Back-off pulling image "${priv}": ErrImagePull: ${denied}`,
  });
  schedulerEvent(gen, backoff, {
    reason: 'Scheduled',
    message: `Successfully assigned ${BROKEN_NS}/${backoff.metadata.name} to ${w1.name}`,
    firstAgoMs: AGE - 2 * SECOND,
    action: 'Binding',
  });
  kubeletEvent(gen, backoff, {
    reason: 'Pulling',
    message: `Pulling image "${priv}"`,
    count: 36,
    firstAgoMs: AGE - 3 * SECOND,
    lastAgoMs: 5 * MINUTE,
  });
  kubeletEvent(gen, backoff, {
    reason: 'Failed',
    type: 'Warning',
    message: `Failed to pull image "${priv}": ${denied}`,
    count: 36,
    firstAgoMs: AGE - 4 * SECOND,
    lastAgoMs: 5 * MINUTE,
  });
  kubeletEvent(gen, backoff, {
    reason: 'Failed',
    type: 'Warning',
    message: 'Error: ErrImagePull',
    count: 36,
    firstAgoMs: AGE - 4 * SECOND,
    lastAgoMs: 5 * MINUTE,
  });
  kubeletEvent(gen, backoff, {
    reason: 'BackOff',
    message: `Back-off pulling image "${priv}"`,
    count: 790,
    firstAgoMs: AGE - 10 * SECOND,
    lastAgoMs: 15 * SECOND,
    recurEvery: 4,
  });
  kubeletEvent(gen, backoff, {
    reason: 'Failed',
    type: 'Warning',
    message: 'Error: ImagePullBackOff',
    count: 790,
    firstAgoMs: AGE - 10 * SECOND,
    lastAgoMs: 15 * SECOND,
  });
  kubeletEvent(gen, backoff, {
    reason: 'ImagePullBackOff',
    type: 'Warning',
    message: `Back-off pulling image "${priv}"`,
    count: 790,
    firstAgoMs: AGE - 10 * SECOND,
    lastAgoMs: 15 * SECOND,
  });

  // CrashLoopBackOff: exits 1 a few seconds after every start.
  const crashImage = 'registry.example.com/tools/order-sync:2.4.1';
  const crash = broken(gen, 'crashloop', app(crashImage, 'crashloop'), {
    kind: 'crashloop',
    restarts: 7,
    exitCode: 1,
    lastFinishedAgoMs: 40 * SECOND,
  });
  gen.crashers.push({ namespace: BROKEN_NS, pod: crash.metadata.name, container: 'app', mode: 'crashloop' });
  schedulerEvent(gen, crash, {
    reason: 'Scheduled',
    message: `Successfully assigned ${BROKEN_NS}/${crash.metadata.name} to ${w1.name}`,
    firstAgoMs: AGE - 2 * SECOND,
    action: 'Binding',
  });
  for (const [reason, msg] of [
    ['Pulled', `Container image "${crashImage}" already present on machine`],
    ['Created', 'Created container: app'],
    ['Started', 'Started container app'],
  ] as const) {
    kubeletEvent(gen, crash, {
      reason,
      message: msg,
      count: 8,
      firstAgoMs: AGE - 5 * SECOND,
      lastAgoMs: 50 * SECOND,
    });
  }
  const backoffMsg = `Back-off restarting failed container app in pod ${crash.metadata.name}_${BROKEN_NS}(${crash.metadata.uid})`;
  kubeletEvent(gen, crash, {
    reason: 'BackOff',
    type: 'Warning',
    message: backoffMsg,
    count: 161,
    firstAgoMs: AGE - MINUTE,
    lastAgoMs: 20 * SECOND,
    recurEvery: 3,
  });
  kubeletEvent(gen, crash, {
    reason: 'CrashLoopBackOff',
    type: 'Warning',
    message: backoffMsg,
    count: 161,
    firstAgoMs: AGE - MINUTE,
    lastAgoMs: 20 * SECOND,
  });

  // OOMKilled: runs again, last instance was killed at its 256Mi limit.
  const oomImage = 'registry.example.com/media/image-resizer:1.9.0';
  const oom = broken(
    gen,
    'oomkilled',
    app(oomImage, 'oom', {
      requests: { cpu: '200m', memory: '128Mi' },
      limits: { cpu: '1', memory: '256Mi' },
    }),
    { kind: 'running', restarts: 4, lastExit: { exitCode: 137, reason: 'OOMKilled', agoMs: 6 * MINUTE } },
    {},
    { progressDeadlineExceeded: false },
  );
  gen.crashers.push({ namespace: BROKEN_NS, pod: oom.metadata.name, container: 'app', mode: 'oom' });
  startupEvents(gen, oom, AGE - 2 * SECOND);
  kubeletEvent(gen, oom, {
    reason: 'OOMKilled',
    type: 'Warning',
    message: 'Container app was OOM-killed: memory limit 256Mi exceeded (exit code 137)',
    count: 4,
    firstAgoMs: 2 * HOUR,
    lastAgoMs: 6 * MINUTE,
  });
  kubeletEvent(gen, oom, {
    reason: 'BackOff',
    type: 'Warning',
    message: `Back-off restarting failed container app in pod ${oom.metadata.name}_${BROKEN_NS}(${oom.metadata.uid})`,
    count: 9,
    firstAgoMs: 2 * HOUR,
    lastAgoMs: 6 * MINUTE,
  });
  const node1 = gen.objects.find((o) => o.kind === 'Node' && o.metadata.name === w1.name);
  if (node1) {
    objectEvent(gen, node1, {
      reason: 'SystemOOM',
      type: 'Warning',
      message: 'System OOM encountered, victim process: image-resizer, pid: 48213',
      component: 'kubelet',
      host: w1.name,
      count: 4,
      firstAgoMs: 2 * HOUR,
      lastAgoMs: 6 * MINUTE,
    });
  }

  // ContainerCreating: a configMap volume that does not exist.
  const mount = broken(
    gen,
    'failedmount',
    app('registry.example.com/shop/recommendations:1.2.0', 'worker', {
      volumeMounts: [{ name: 'config', mountPath: '/etc/app' }],
    }),
    { kind: 'containercreating' },
    { volumes: [{ name: 'config', configMap: { name: 'app-config', defaultMode: 420 } }] },
  );
  schedulerEvent(gen, mount, {
    reason: 'Scheduled',
    message: `Successfully assigned ${BROKEN_NS}/${mount.metadata.name} to ${w1.name}`,
    firstAgoMs: AGE - 2 * SECOND,
    action: 'Binding',
  });
  kubeletEvent(gen, mount, {
    reason: 'FailedMount',
    type: 'Warning',
    message: 'MountVolume.SetUp failed for volume "config" : configmap "app-config" not found',
    count: 93,
    firstAgoMs: AGE - 3 * SECOND,
    lastAgoMs: 90 * SECOND,
    recurEvery: 6,
  });

  // Running but not ready: the readiness probe keeps failing.
  const unhealthy = broken(
    gen,
    'unhealthy',
    app('registry.example.com/search/search-api:0.9.0', 'unhealthy', {
      readiness: { path: '/ready', port: 8080 },
      ports: [{ name: 'http', containerPort: 8080 }],
    }),
    { kind: 'running', ready: false },
  );
  startupEvents(gen, unhealthy, AGE - 2 * SECOND);
  kubeletEvent(gen, unhealthy, {
    reason: 'Unhealthy',
    type: 'Warning',
    message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
    count: 2150,
    firstAgoMs: AGE - 20 * SECOND,
    lastAgoMs: 5 * SECOND,
    recurEvery: 2,
  });

  // CreateContainerConfigError: env from a secret that does not exist.
  const cfgImage = 'registry.example.com/shop/ledger:4.0.0';
  const cfg = broken(
    gen,
    'configerror',
    app(cfgImage, 'worker', {
      env: [
        { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db-credentials', key: 'password' } } },
      ],
    }),
    { kind: 'configerror', message: 'secret "db-credentials" not found' },
  );
  schedulerEvent(gen, cfg, {
    reason: 'Scheduled',
    message: `Successfully assigned ${BROKEN_NS}/${cfg.metadata.name} to ${w1.name}`,
    firstAgoMs: AGE - 2 * SECOND,
    action: 'Binding',
  });
  kubeletEvent(gen, cfg, {
    reason: 'Pulled',
    message: `Container image "${cfgImage}" already present on machine`,
    count: 820,
    firstAgoMs: AGE - 3 * SECOND,
    lastAgoMs: 25 * SECOND,
  });
  kubeletEvent(gen, cfg, {
    reason: 'Failed',
    type: 'Warning',
    message: 'Error: secret "db-credentials" not found',
    count: 820,
    firstAgoMs: AGE - 3 * SECOND,
    lastAgoMs: 25 * SECOND,
    recurEvery: 5,
  });

  // ReplicaFailure: the namespace quota forbids the pods.
  const quotaRs = replicaSetName(BROKEN_NS, 'quota-blocked', 1);
  const quotaMsg = `pods "${quotaRs}-${'x2b7k'}" is forbidden: exceeded quota: compute-quota, requested: limits.memory=2Gi, used: limits.memory=3Gi, limited: limits.memory=4Gi`;
  buildDeployment(gen, {
    namespace: BROKEN_NS,
    name: 'quota-blocked',
    labels: { app: 'quota-blocked' },
    selector: { app: 'quota-blocked' },
    replicas: 2,
    strategy: 'RollingUpdate',
    createdAgoMs: AGE,
    manager: 'kubectl',
    replicaFailure: quotaMsg,
    template: {
      id: `${BROKEN_NS}/quota-blocked`,
      labels: { app: 'quota-blocked' },
      containers: [
        app('registry.example.com/shop/exporter:0.3.0', 'worker', {
          requests: { cpu: '100m', memory: '1Gi' },
          limits: { memory: '2Gi' },
        }),
      ],
    },
  });
  const rs = gen.objects.find((o) => o.kind === 'ReplicaSet' && o.metadata.name === quotaRs);
  if (rs) {
    objectEvent(gen, rs, {
      reason: 'FailedCreate',
      type: 'Warning',
      message: `Error creating: ${quotaMsg}`,
      component: 'replicaset-controller',
      count: 18,
      firstAgoMs: AGE,
      lastAgoMs: 12 * MINUTE,
    });
  }
}
