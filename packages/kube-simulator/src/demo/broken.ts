/**
 * demo-broken: one workload per failure mode, each with the pod status and the events a real
 * cluster shows for it. All pods run on worker-1 except the unschedulable one. This file has
 * the scheduling, image-pull and crash failures; broken-config.ts the rest.
 */

import { HOUR, MINUTE, SECOND } from '../time';
import { buildBrokenConfig } from './broken-config';
import { AGE, app, BROKEN_NS, broken, SCRATCH_CLAIM, schedulingMessage } from './broken-kit';
import type { Gen } from './context';
import { kubeletEvent, objectEvent, schedulerEvent, startupEvents } from './events';

export { BROKEN_NS } from './broken-kit';

export function buildBroken(gen: Gen): void {
  const w1 = gen.node('worker-1');

  // Pending: no node fits. Its scratch claim (more-kinds.ts) uses a WaitForFirstConsumer class, so
  // it stays Pending too until the pod is scheduled; that class constrains no node, so the
  // scheduler's message is about memory and the selector alone.
  const message = schedulingMessage(gen);
  const pending = broken(
    gen,
    'unschedulable',
    app('registry.example.com/analytics/spark-driver:3.5.3', 'worker', {
      requests: { cpu: '500m', memory: '24Gi' },
      limits: { memory: '24Gi' },
      volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
    }),
    { kind: 'unschedulable', message },
    {
      nodeSelector: { disktype: 'ssd' },
      volumes: [{ name: 'scratch', persistentVolumeClaim: { claimName: SCRATCH_CLAIM } }],
    },
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

  buildBrokenConfig(gen);
}
