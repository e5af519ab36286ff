/**
 * The boring, healthy part of the cluster: kube-system (coredns, kube-proxy, metrics-server),
 * monitoring (prometheus, grafana, node-exporter) and default (hello-web, recently rolled out).
 * It runs past 300 lines because it is data: one builder call per healthy workload, read top to
 * bottom like the cluster it describes.
 */

import { DAY, MINUTE } from '../time';
import type { Gen } from './context';
import { buildDeployment } from './deployment';
import { objectEvent, startupEvents } from './events';
import { buildService } from './services';
import { buildDaemonSet, buildStatefulSet } from './workloads';

const CLUSTER_AGE = 30 * DAY;

export function buildKubeSystem(gen: Gen): void {
  const ns = 'kube-system';
  buildDeployment(gen, {
    namespace: ns,
    name: 'coredns',
    labels: { 'k8s-app': 'kube-dns' },
    selector: { 'k8s-app': 'kube-dns' },
    replicas: 2,
    strategy: 'RollingUpdate',
    createdAgoMs: CLUSTER_AGE,
    manager: 'kubeadm',
    template: {
      id: 'kube-system/coredns',
      labels: { 'k8s-app': 'kube-dns' },
      priorityClassName: 'system-cluster-critical',
      serviceAccountName: 'coredns',
      volumes: [
        {
          name: 'config-volume',
          configMap: { name: 'coredns', items: [{ key: 'Corefile', path: 'Corefile' }], defaultMode: 420 },
        },
      ],
      containers: [
        {
          name: 'coredns',
          image: 'registry.k8s.io/coredns/coredns:v1.11.3',
          log: 'coredns',
          args: ['-conf', '/etc/coredns/Corefile'],
          ports: [
            { name: 'dns', containerPort: 53, protocol: 'UDP' },
            { name: 'dns-tcp', containerPort: 53 },
            { name: 'metrics', containerPort: 9153 },
          ],
          requests: { cpu: '100m', memory: '70Mi' },
          limits: { memory: '170Mi' },
          readiness: { path: '/ready', port: 8181 },
          liveness: { path: '/health', port: 8080 },
          volumeMounts: [{ name: 'config-volume', mountPath: '/etc/coredns', readOnly: true }],
        },
      ],
    },
  });
  buildDaemonSet(gen, {
    namespace: ns,
    name: 'kube-proxy',
    labels: { 'k8s-app': 'kube-proxy' },
    selector: { 'k8s-app': 'kube-proxy' },
    createdAgoMs: CLUSTER_AGE,
    manager: 'kubeadm',
    nodes: gen.nodes,
    template: {
      id: 'kube-system/kube-proxy',
      labels: { 'k8s-app': 'kube-proxy' },
      priorityClassName: 'system-node-critical',
      serviceAccountName: 'kube-proxy',
      tolerateEverything: true,
      containers: [
        {
          name: 'kube-proxy',
          image: 'registry.k8s.io/kube-proxy:v1.31.4',
          log: 'kube-proxy',
          args: ['--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'],
          env: [
            { name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
          ],
        },
      ],
    },
  });
  buildDeployment(gen, {
    namespace: ns,
    name: 'metrics-server',
    labels: { 'k8s-app': 'metrics-server' },
    selector: { 'k8s-app': 'metrics-server' },
    replicas: 1,
    strategy: 'RollingUpdate',
    createdAgoMs: CLUSTER_AGE - DAY,
    manager: 'kubectl-client-side-apply',
    template: {
      id: 'kube-system/metrics-server',
      labels: { 'k8s-app': 'metrics-server' },
      priorityClassName: 'system-cluster-critical',
      serviceAccountName: 'metrics-server',
      containers: [
        {
          name: 'metrics-server',
          image: 'registry.k8s.io/metrics-server/metrics-server:v0.7.2',
          log: 'metrics-server',
          args: [
            '--cert-dir=/tmp',
            '--secure-port=10250',
            '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
            '--metric-resolution=15s',
          ],
          ports: [{ name: 'https', containerPort: 10250 }],
          requests: { cpu: '100m', memory: '200Mi' },
          readiness: { path: '/readyz', port: 10250 },
          liveness: { path: '/livez', port: 10250 },
        },
      ],
    },
  });
  buildService(gen, {
    namespace: ns,
    name: 'kube-dns',
    clusterIP: '10.96.0.10',
    selector: { 'k8s-app': 'kube-dns' },
    labels: {
      'k8s-app': 'kube-dns',
      'kubernetes.io/cluster-service': 'true',
      'kubernetes.io/name': 'CoreDNS',
    },
    ports: [
      { name: 'dns', port: 53, protocol: 'UDP' },
      { name: 'dns-tcp', port: 53 },
      { name: 'metrics', port: 9153 },
    ],
    createdAgoMs: CLUSTER_AGE,
    manager: 'kubeadm',
  });
  buildService(gen, {
    namespace: ns,
    name: 'metrics-server',
    selector: { 'k8s-app': 'metrics-server' },
    labels: { 'k8s-app': 'metrics-server' },
    ports: [{ name: 'https', port: 443, targetPort: 'https' }],
    createdAgoMs: CLUSTER_AGE - DAY,
    manager: 'kubectl-client-side-apply',
  });
}

export function buildMonitoring(gen: Gen): void {
  const ns = 'monitoring';
  const created = 20 * DAY;
  buildStatefulSet(gen, {
    namespace: ns,
    name: 'prometheus',
    serviceName: 'prometheus-operated',
    labels: { 'app.kubernetes.io/name': 'prometheus' },
    selector: { 'app.kubernetes.io/name': 'prometheus' },
    replicas: 1,
    createdAgoMs: created,
    manager: 'argocd-controller',
    storage: '50Gi',
    template: {
      id: 'monitoring/prometheus',
      labels: { 'app.kubernetes.io/name': 'prometheus', 'app.kubernetes.io/part-of': 'monitoring' },
      serviceAccountName: 'prometheus',
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-prometheus-0' } }],
      containers: [
        {
          name: 'prometheus',
          image: 'quay.io/prometheus/prometheus:v2.55.1',
          log: 'prometheus',
          args: ['--config.file=/etc/prometheus/prometheus.yml', '--storage.tsdb.retention.time=15d'],
          ports: [{ name: 'web', containerPort: 9090 }],
          requests: { cpu: '500m', memory: '2Gi' },
          limits: { memory: '4Gi' },
          readiness: { path: '/-/ready', port: 9090 },
          volumeMounts: [{ name: 'data', mountPath: '/prometheus' }],
        },
      ],
    },
  });
  buildDeployment(gen, {
    namespace: ns,
    name: 'grafana',
    labels: { 'app.kubernetes.io/name': 'grafana' },
    selector: { 'app.kubernetes.io/name': 'grafana' },
    replicas: 1,
    strategy: 'RollingUpdate',
    createdAgoMs: created,
    manager: 'argocd-controller',
    template: {
      id: 'monitoring/grafana',
      labels: { 'app.kubernetes.io/name': 'grafana', 'app.kubernetes.io/part-of': 'monitoring' },
      containers: [
        {
          name: 'grafana',
          image: 'docker.io/grafana/grafana:11.3.1',
          log: 'grafana',
          ports: [{ name: 'http', containerPort: 3000 }],
          requests: { cpu: '100m', memory: '256Mi' },
          limits: { memory: '512Mi' },
          readiness: { path: '/api/health', port: 3000 },
        },
      ],
    },
  });
  buildDaemonSet(gen, {
    namespace: ns,
    name: 'node-exporter',
    labels: { 'app.kubernetes.io/name': 'node-exporter' },
    selector: { 'app.kubernetes.io/name': 'node-exporter' },
    createdAgoMs: created,
    manager: 'argocd-controller',
    nodes: gen.nodes,
    template: {
      id: 'monitoring/node-exporter',
      labels: { 'app.kubernetes.io/name': 'node-exporter', 'app.kubernetes.io/part-of': 'monitoring' },
      tolerateEverything: true,
      containers: [
        {
          name: 'node-exporter',
          image: 'quay.io/prometheus/node-exporter:v1.8.2',
          log: 'node-exporter',
          args: ['--path.rootfs=/host'],
          ports: [{ name: 'metrics', containerPort: 9100 }],
          requests: { cpu: '50m', memory: '30Mi' },
          limits: { memory: '50Mi' },
        },
      ],
    },
  });
  for (const [name, port, selector] of [
    ['prometheus-operated', 9090, 'prometheus'],
    ['grafana', 3000, 'grafana'],
    ['node-exporter', 9100, 'node-exporter'],
  ] as const) {
    buildService(gen, {
      namespace: ns,
      name,
      selector: { 'app.kubernetes.io/name': selector },
      ports: [{ name: 'http', port }],
      headless: name === 'prometheus-operated',
      createdAgoMs: created,
      manager: 'argocd-controller',
    });
  }
}

export function buildDefault(gen: Gen): void {
  const rolledOut = 20 * MINUTE;
  const pods = buildDeployment(gen, {
    namespace: 'default',
    name: 'hello-web',
    labels: { app: 'hello-web' },
    selector: { app: 'hello-web' },
    replicas: 2,
    strategy: 'RollingUpdate',
    createdAgoMs: rolledOut,
    manager: 'kubectl-client-side-apply',
    template: {
      id: 'default/hello-web',
      labels: { app: 'hello-web' },
      containers: [
        {
          name: 'nginx',
          image: 'docker.io/library/nginx:1.27.3',
          log: 'nginx',
          ports: [{ containerPort: 80 }],
          requests: { cpu: '50m', memory: '64Mi' },
          limits: { cpu: '200m', memory: '128Mi' },
          readiness: { path: '/', port: 80 },
        },
      ],
    },
  });
  for (const pod of pods) startupEvents(gen, pod, rolledOut - 2000);
  const deploy = gen.objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'hello-web');
  const rs = gen.objects.find(
    (o) =>
      o.kind === 'ReplicaSet' &&
      o.metadata.namespace === 'default' &&
      o.metadata.name.startsWith('hello-web-'),
  );
  if (deploy && rs) {
    objectEvent(gen, deploy, {
      reason: 'ScalingReplicaSet',
      message: `Scaled up replica set ${rs.metadata.name} from 0 to 2`,
      component: 'deployment-controller',
      firstAgoMs: rolledOut,
    });
    for (const pod of pods) {
      objectEvent(gen, rs, {
        reason: 'SuccessfulCreate',
        message: `Created pod: ${pod.metadata.name}`,
        component: 'replicaset-controller',
        firstAgoMs: rolledOut - 500,
      });
    }
  }
  buildService(gen, {
    namespace: 'default',
    name: 'kubernetes',
    clusterIP: '10.96.0.1',
    labels: { component: 'apiserver', provider: 'kubernetes' },
    ports: [{ name: 'https', port: 443, targetPort: 6443 }],
    createdAgoMs: CLUSTER_AGE,
    manager: 'kube-apiserver',
  });
  buildService(gen, {
    namespace: 'default',
    name: 'hello-web',
    type: 'NodePort',
    selector: { app: 'hello-web' },
    ports: [{ port: 80, nodePort: 30080 }],
    createdAgoMs: rolledOut,
    manager: 'kubectl-client-side-apply',
  });
}
