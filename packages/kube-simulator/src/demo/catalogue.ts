/**
 * Stable names of the demo cluster's notable objects, for tests and docs. Names derive from
 * namespace and workload names only, so they are the same for every seed.
 */

import { deploymentPodName, ownedPodName } from './naming';

export interface NotablePod {
  namespace: string;
  name: string;
  container: string;
  /** What `kubectl get pods` would show in STATUS. */
  status: string;
  description: string;
}

const broken = (workload: string, status: string, description: string): NotablePod => ({
  namespace: 'demo-broken',
  name: deploymentPodName('demo-broken', workload, 1, 0),
  container: 'app',
  status,
  description,
});

export const DEMO_NAMESPACES = [
  'batch',
  'default',
  'demo-broken',
  'kube-node-lease',
  'kube-public',
  'kube-system',
  'monitoring',
  'shop',
] as const;

export const DEMO_NODES = {
  healthy: 'worker-1',
  memoryPressure: 'worker-2',
  notReady: 'worker-3',
} as const;

export const DEMO_PODS = {
  unschedulable: broken(
    'unschedulable',
    'Pending',
    'FailedScheduling: 24Gi request and disktype=ssd selector fit no node; its claim spark-scratch is Pending (WaitForFirstConsumer)',
  ),
  errImagePull: broken(
    'errimagepull',
    'ErrImagePull',
    'image name typo (ngnix); logs answer "image can\'t be pulled"',
  ),
  imagePullBackOff: broken(
    'imagepullbackoff',
    'ImagePullBackOff',
    'private registry without credentials; logs answer "trying and failing to pull image"',
  ),
  crashLoop: broken(
    'crashloop',
    'CrashLoopBackOff',
    'exits 1 after each start; restartCount 7, previous logs end in a panic',
  ),
  oomKilled: broken(
    'oomkilled',
    'Running',
    'Running again after OOMKilled (exit 137, lastState.terminated); restartCount 4',
  ),
  failedMount: broken('failedmount', 'ContainerCreating', 'FailedMount: configmap "app-config" not found'),
  unhealthy: broken(
    'unhealthy',
    'Running',
    'Running but not ready: readiness probe returns 503 (Unhealthy events)',
  ),
  configError: broken('configerror', 'CreateContainerConfigError', 'secret "db-credentials" not found'),
  checkout: {
    namespace: 'shop',
    name: deploymentPodName('shop', 'checkout', 1, 0),
    container: 'checkout',
    status: 'Running',
    description: 'JSON logs (level/ts/msg); containers checkout + envoy and init container migrate',
  },
  frontend: {
    namespace: 'shop',
    name: deploymentPodName('shop', 'frontend', 2, 0),
    container: 'frontend',
    status: 'Running',
    description: 'nginx access logs; rolled out 25 minutes ago (fresh startup events)',
  },
  payments: {
    namespace: 'shop',
    name: deploymentPodName('shop', 'payments', 1, 0),
    container: 'payments',
    status: 'Running',
    description: 'logfmt logs (level=… msg="…" ts=…); Deployment with Recreate strategy',
  },
  postgres: {
    namespace: 'shop',
    name: 'postgres-0',
    container: 'postgres',
    status: 'Running',
    description: 'StatefulSet pod',
  },
  coredns: {
    namespace: 'kube-system',
    name: deploymentPodName('kube-system', 'coredns', 1, 0),
    container: 'coredns',
    status: 'Running',
    description: '[INFO]/[ERROR]/[WARNING] bracketed logs',
  },
  kubeProxyOnNotReadyNode: {
    namespace: 'kube-system',
    name: ownedPodName('kube-system', 'kube-proxy', 2),
    container: 'kube-proxy',
    status: 'Running',
    description:
      'on NotReady worker-3: not ready, no metrics, log requests fail with 500 (kubelet unreachable)',
  },
  grafana: {
    namespace: 'monitoring',
    name: deploymentPodName('monitoring', 'grafana', 1, 0),
    container: 'grafana',
    status: 'Running',
    description: 'JSON logs with severity/message/timestamp',
  },
} satisfies Record<string, NotablePod>;

export const DEMO_WORKLOADS = {
  crashLoopDeployment: {
    namespace: 'demo-broken',
    name: 'crashloop',
    description: 'Progressing=False ProgressDeadlineExceeded, Available=False',
  },
  quotaBlockedDeployment: {
    namespace: 'demo-broken',
    name: 'quota-blocked',
    description: 'ReplicaFailure=True FailedCreate (exceeded quota pod-count), no pods',
  },
  recreateDeployment: { namespace: 'shop', name: 'payments', description: 'strategy Recreate' },
  rolledOutDeployment: {
    namespace: 'shop',
    name: 'frontend',
    description: 'revision 2, old ReplicaSet scaled to 0',
  },
  nightlyReport: {
    namespace: 'batch',
    name: 'nightly-report',
    description: 'CronJob: two Completed jobs, last one Failed (BackoffLimitExceeded, pod Error exit 1)',
  },
  hourlyCleanup: {
    namespace: 'batch',
    name: 'hourly-cleanup',
    description: 'CronJob with an active (Running) job',
  },
  dbMigrate: { namespace: 'batch', name: 'db-migrate', description: 'standalone Job, Succeeded' },
} as const;
