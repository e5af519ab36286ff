/**
 * shop: a healthy web shop. frontend was rolled out 25 minutes ago (so its old pods' Killing
 * events and the new pods' startup events are still within the event TTL), checkout has an
 * init container and an envoy sidecar, payments uses the Recreate strategy.
 */

import { DAY, MINUTE, SECOND } from '../time';
import type { KubeObject } from '../types';
import type { Gen } from './context';
import { buildDeployment } from './deployment';
import { objectEvent, startupEvents } from './events';
import { deploymentPodName, replicaSetName } from './naming';
import { buildService } from './services';
import { buildStatefulSet } from './workloads';

const NS = 'shop';
const CREATED = 12 * DAY;
const FRONTEND_ROLLOUT_AGO = 25 * MINUTE;

function labels(name: string, component: string) {
  return {
    app: name,
    'app.kubernetes.io/name': name,
    'app.kubernetes.io/component': component,
    'app.kubernetes.io/part-of': 'shop',
    tier: component,
  };
}

export function buildShop(gen: Gen): void {
  const frontendPods = buildDeployment(gen, {
    namespace: NS,
    name: 'frontend',
    labels: labels('frontend', 'web'),
    selector: { app: 'frontend' },
    replicas: 3,
    strategy: 'RollingUpdate',
    revision: 2,
    rolledOutAgoMs: FRONTEND_ROLLOUT_AGO,
    createdAgoMs: CREATED,
    manager: 'helm',
    template: {
      id: 'shop/frontend',
      labels: labels('frontend', 'web'),
      containers: [
        {
          name: 'frontend',
          image: 'registry.example.com/shop/frontend:2.14.0',
          log: 'nginx',
          ports: [{ name: 'http', containerPort: 8080 }],
          requests: { cpu: '100m', memory: '128Mi' },
          limits: { cpu: '500m', memory: '256Mi' },
          readiness: { path: '/healthz', port: 8080 },
          liveness: { path: '/healthz', port: 8080 },
        },
      ],
    },
  });
  for (const [i, pod] of frontendPods.entries())
    startupEvents(gen, pod, FRONTEND_ROLLOUT_AGO - i * 20 * SECOND);
  frontendRolloutEvents(gen);

  buildDeployment(gen, {
    namespace: NS,
    name: 'checkout',
    labels: labels('checkout', 'api'),
    selector: { app: 'checkout' },
    replicas: 2,
    strategy: 'RollingUpdate',
    createdAgoMs: CREATED,
    manager: 'helm',
    template: {
      id: 'shop/checkout',
      labels: labels('checkout', 'api'),
      initContainers: [
        {
          name: 'migrate',
          image: 'registry.example.com/shop/checkout-migrations:3.8.2',
          log: 'migrate',
          requests: { cpu: '50m', memory: '64Mi' },
        },
      ],
      containers: [
        {
          name: 'checkout',
          image: 'registry.example.com/shop/checkout:3.8.2',
          log: 'checkout',
          ports: [{ name: 'http', containerPort: 8080 }],
          env: [
            { name: 'PAYMENTS_ADDR', value: 'payments.shop.svc.cluster.local:9090' },
            { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'checkout-db', key: 'password' } } },
          ],
          requests: { cpu: '250m', memory: '256Mi' },
          limits: { cpu: '1', memory: '512Mi' },
          readiness: { path: '/ready', port: 8080 },
          liveness: { path: '/live', port: 8080 },
        },
        {
          name: 'envoy',
          image: 'docker.io/envoyproxy/envoy:v1.32.2',
          log: 'envoy',
          ports: [{ name: 'proxy', containerPort: 15001 }],
          requests: { cpu: '50m', memory: '64Mi' },
          limits: { memory: '128Mi' },
        },
      ],
    },
  });

  buildDeployment(gen, {
    namespace: NS,
    name: 'payments',
    labels: labels('payments', 'api'),
    selector: { app: 'payments' },
    replicas: 1,
    strategy: 'Recreate',
    createdAgoMs: CREATED,
    manager: 'helm',
    template: {
      id: 'shop/payments',
      labels: labels('payments', 'api'),
      containers: [
        {
          name: 'payments',
          image: 'registry.example.com/shop/payments:1.14.0',
          log: 'payments',
          ports: [{ name: 'grpc', containerPort: 9090 }],
          requests: { cpu: '200m', memory: '192Mi' },
          limits: { cpu: '200m', memory: '192Mi' },
        },
      ],
    },
  });

  buildStatefulSet(gen, {
    namespace: NS,
    name: 'cart-redis',
    serviceName: 'cart-redis',
    labels: labels('cart-redis', 'cache'),
    selector: { app: 'cart-redis' },
    replicas: 1,
    createdAgoMs: CREATED,
    manager: 'helm',
    template: {
      id: 'shop/cart-redis',
      labels: labels('cart-redis', 'cache'),
      containers: [
        {
          name: 'redis',
          image: 'docker.io/library/redis:7.4.1',
          log: 'redis',
          ports: [{ name: 'redis', containerPort: 6379 }],
          requests: { cpu: '100m', memory: '128Mi' },
          limits: { memory: '256Mi' },
        },
      ],
    },
  });
  buildStatefulSet(gen, {
    namespace: NS,
    name: 'postgres',
    serviceName: 'postgres',
    labels: labels('postgres', 'database'),
    selector: { app: 'postgres' },
    replicas: 1,
    createdAgoMs: CREATED,
    manager: 'helm',
    storage: '20Gi',
    template: {
      id: 'shop/postgres',
      labels: labels('postgres', 'database'),
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-postgres-0' } }],
      containers: [
        {
          name: 'postgres',
          image: 'docker.io/library/postgres:16.6',
          log: 'postgres',
          ports: [{ name: 'postgres', containerPort: 5432 }],
          requests: { cpu: '500m', memory: '1Gi' },
          limits: { memory: '2Gi' },
          volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }],
        },
      ],
    },
  });
  // The PVC itself is not served; events about objects the client cannot fetch are normal.
  const pvc = {
    kind: 'PersistentVolumeClaim',
    apiVersion: 'v1',
    metadata: {
      name: 'data-postgres-0',
      namespace: NS,
      uid: gen.uid('pvc/shop/data-postgres-0'),
      resourceVersion: '',
      creationTimestamp: gen.ago(CREATED),
    },
  };
  objectEvent(gen, pvc, {
    reason: 'VolumeResizeFailed',
    type: 'Warning',
    message: `resize volume "pvc-${gen.uid('pv/data-postgres-0')}" by resizer "ebs.csi.aws.com" failed: rpc error: code = Internal desc = Could not resize volume "vol-0c3f9a2b7d1e4f5a6": operation error EC2: ModifyVolume, VolumeModificationRateExceeded: You've reached the maximum modification rate per volume limit. Wait at least 6 hours between modifications per EBS volume.`,
    component: 'external-resizer ebs.csi.aws.com',
    count: 4,
    firstAgoMs: 50 * MINUTE,
    lastAgoMs: 6 * MINUTE,
    recurEvery: 30,
  });

  const svc = (
    name: string,
    port: number,
    target: number | string,
    extra: Partial<Parameters<typeof buildService>[1]> = {},
  ) =>
    buildService(gen, {
      namespace: NS,
      name,
      selector: { app: name },
      labels: { app: name },
      ports: [{ name: 'http', port, targetPort: target }],
      createdAgoMs: CREATED,
      manager: 'helm',
      ...extra,
    });
  svc('frontend', 80, 'http', { type: 'LoadBalancer', loadBalancerIP: '203.0.113.10' });
  svc('checkout', 8080, 'http');
  svc('payments', 9090, 'grpc');
  svc('cart-redis', 6379, 'redis', { headless: true });
  svc('postgres', 5432, 'postgres', { headless: true });
}

function frontendRolloutEvents(gen: Gen): void {
  const deploy = gen.objects.find(
    (o): o is KubeObject =>
      o.kind === 'Deployment' && o.metadata.namespace === NS && o.metadata.name === 'frontend',
  );
  if (!deploy) return;
  const oldRs = replicaSetName(NS, 'frontend', 1);
  const newRs = replicaSetName(NS, 'frontend', 2);
  const t = FRONTEND_ROLLOUT_AGO;
  const scale = (message: string, ago: number) =>
    objectEvent(gen, deploy, {
      reason: 'ScalingReplicaSet',
      message,
      component: 'deployment-controller',
      firstAgoMs: ago,
    });
  scale(`Scaled up replica set ${newRs} from 0 to 1`, t);
  scale(`Scaled down replica set ${oldRs} from 3 to 2`, t - 20 * SECOND);
  scale(`Scaled up replica set ${newRs} from 1 to 2`, t - 20 * SECOND);
  scale(`Scaled down replica set ${oldRs} from 2 to 1`, t - 40 * SECOND);
  scale(`Scaled up replica set ${newRs} from 2 to 3`, t - 40 * SECOND);
  scale(`Scaled down replica set ${oldRs} from 1 to 0`, t - 60 * SECOND);
  // Pods of the old ReplicaSet are gone; their Killing events remain until the TTL expires.
  for (let i = 0; i < 3; i++) {
    const name = deploymentPodName(NS, 'frontend', 1, i);
    const gone = {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {
        name,
        namespace: NS,
        uid: gen.uid(`pod/${NS}/${name}`),
        resourceVersion: '',
        creationTimestamp: gen.ago(12 * DAY),
      },
    };
    objectEvent(gen, gone, {
      reason: 'Killing',
      message: 'Stopping container frontend',
      component: 'kubelet',
      host: gen.readyNodes()[i % gen.readyNodes().length]?.name ?? 'worker-1',
      fieldPath: 'spec.containers{frontend}',
      firstAgoMs: t - 20 * SECOND * (i + 1),
    });
  }
}
