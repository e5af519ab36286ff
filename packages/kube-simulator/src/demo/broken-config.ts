/** demo-broken, continued: volume, probe, configuration and quota failures. */

import { MINUTE, SECOND } from '../time';
import { AGE, app, BROKEN_NS, broken, POD_QUOTA } from './broken-kit';
import type { Gen } from './context';
import { buildDeployment } from './deployment';
import { kubeletEvent, objectEvent, schedulerEvent, startupEvents } from './events';
import { replicaSetName } from './naming';

export function buildBrokenConfig(gen: Gen): void {
  const w1 = gen.node('worker-1');

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

  // ReplicaFailure: the namespace's pod quota (more-kinds.ts) is full with the pods above.
  const quotaRs = replicaSetName(BROKEN_NS, 'quota-blocked', 1);
  const podsHere = gen.objects.filter((o) => o.kind === 'Pod' && o.metadata.namespace === BROKEN_NS).length;
  const quotaMsg = `pods "${quotaRs}-${'x2b7k'}" is forbidden: exceeded quota: ${POD_QUOTA}, requested: pods=1, used: pods=${podsHere}, limited: pods=${podsHere}`;
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
