/**
 * Objects of the kinds beyond the tailored nine, agreeing with the rest of the demo: the ConfigMaps
 * and ServiceAccounts its pods name, the claims its StatefulSets hold with their volumes and
 * StorageClass, and a few of each kind people open next (Ingress, HPA, PDB, NetworkPolicy, RBAC).
 * What a scenario says is missing stays missing: ConfigMap app-config (FailedMount) and Secret
 * db-credentials (CreateContainerConfigError) are never made; everything else a pod uses is
 * (demo-agreement.test.ts). demo-broken's claims and quota are in broken-storage.ts. Built after the tailored kinds'
 * objects, so those keep the resourceVersions they always had.
 */

import { managedEntry } from '../managed-fields';
import { DAY, HOUR } from '../time';
import type { KubeObject } from '../types';
import type { Gen } from './context';

/** Metadata with a stable uid; gen.add assigns the resourceVersion. */
export function meta(
  gen: Gen,
  kind: string,
  name: string,
  namespace: string | undefined,
  agoMs: number,
  extra: Partial<KubeObject['metadata']> = {},
): KubeObject['metadata'] {
  return {
    name,
    ...(namespace ? { namespace } : {}),
    uid: gen.uid(`${kind}/${namespace ?? ''}/${name}`),
    resourceVersion: '',
    creationTimestamp: gen.ago(agoMs),
    ...extra,
  };
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Adds an object with the managedFields of the one writer that made it, as every demo object has. */
export function add<T extends KubeObject>(gen: Gen, obj: T, manager = 'kubectl-client-side-apply'): T {
  const { apiVersion, kind: _k, metadata, status: _s, ...rest } = obj;
  metadata.managedFields = [
    managedEntry({
      manager,
      apiVersion,
      time: metadata.creationTimestamp,
      owned: { metadata: { labels: metadata.labels, annotations: metadata.annotations }, ...rest },
    }),
  ];
  return gen.add(obj);
}

export function buildMoreKinds(gen: Gen): void {
  const namespaces = gen.objects.filter((o) => o.kind === 'Namespace');
  // Every namespace gets the CA bundle and the default ServiceAccount, as their controllers make them.
  for (const ns of namespaces) {
    const name = ns.metadata.name;
    const age = gen.now - Date.parse(ns.metadata.creationTimestamp);
    add(gen, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta(gen, 'ConfigMap', 'kube-root-ca.crt', name, age, {
        annotations: {
          'kubernetes.io/description':
            'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.',
        },
      }),
      data: {
        'ca.crt':
          '-----BEGIN CERTIFICATE-----\nMIIBdzCCAR2gAwIBAgIBADAKBggqhkjOPQQDAjAjMSEwHwYDVQQDDBhrM3Mtc2Vy\n-----END CERTIFICATE-----\n',
      },
    });
    add(gen, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: meta(gen, 'ServiceAccount', 'default', name, age),
    });
  }
  for (const [ns, sa] of [
    ['kube-system', 'coredns'],
    ['kube-system', 'kube-proxy'],
    ['kube-system', 'metrics-server'],
    ['monitoring', 'prometheus'],
  ] as const) {
    add(gen, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: meta(gen, 'ServiceAccount', sa, ns, 30 * DAY),
    });
  }
  add(gen, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(gen, 'ConfigMap', 'coredns', 'kube-system', 30 * DAY),
    data: {
      Corefile:
        '.:53 {\n    errors\n    health\n    ready\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n       pods insecure\n       fallthrough in-addr.arpa ip6.arpa\n    }\n    prometheus :9153\n    forward . /etc/resolv.conf\n    cache 30\n    loop\n    reload\n    loadbalance\n}\n',
    },
  });
  add(gen, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(gen, 'ConfigMap', 'checkout-config', 'shop', 12 * DAY, { labels: { app: 'checkout' } }),
    data: { PAYMENTS_URL: 'http://payments.shop.svc:9090', LOG_LEVEL: 'info' },
  });
  add(gen, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: meta(gen, 'Secret', 'postgres-credentials', 'shop', 12 * DAY, { labels: { app: 'postgres' } }),
    type: 'Opaque',
    data: { username: b64('shop'), password: b64('demo-only-not-a-secret') },
  });
  // checkout reads DB_PASSWORD from it, and runs: so it exists.
  add(gen, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: meta(gen, 'Secret', 'checkout-db', 'shop', 12 * DAY, { labels: { app: 'checkout' } }),
    type: 'Opaque',
    data: { password: b64('demo-only-not-a-secret') },
  });
  buildStorage(gen);
  buildNetworking(gen);
  buildPolicy(gen);
  buildRbac(gen);
}

function buildStorage(gen: Gen): void {
  add(gen, {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: meta(gen, 'StorageClass', 'gp3', undefined, 30 * DAY, {
      annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
    }),
    provisioner: 'ebs.csi.aws.com',
    parameters: { type: 'gp3', fsType: 'ext4' },
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
    allowVolumeExpansion: true,
  });
  // The claims the StatefulSets' volumeClaimTemplates made, bound to their volumes.
  for (const [ns, name, size, pvKey, ago] of [
    ['shop', 'data-postgres-0', '20Gi', 'pv/data-postgres-0', 12 * DAY],
    ['monitoring', 'data-prometheus-0', '50Gi', 'pv/data-prometheus-0', 20 * DAY],
  ] as const) {
    const pvName = `pvc-${gen.uid(pvKey)}`;
    const claimUid = gen.uid(`pvc/${ns}/${name}`);
    add(gen, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        ...meta(gen, 'PersistentVolumeClaim', name, ns, ago),
        uid: claimUid,
        annotations: {
          'pv.kubernetes.io/bind-completed': 'yes',
          'volume.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com',
        },
        finalizers: ['kubernetes.io/pvc-protection'],
      },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: size } },
        storageClassName: 'gp3',
        volumeMode: 'Filesystem',
        volumeName: pvName,
      },
      status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: size } },
    });
    add(gen, {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: meta(gen, 'PersistentVolume', pvName, undefined, ago, {
        finalizers: ['kubernetes.io/pv-protection', 'external-provisioner.volume.kubernetes.io/finalizer'],
      }),
      spec: {
        accessModes: ['ReadWriteOnce'],
        capacity: { storage: size },
        claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: ns, name, uid: claimUid },
        csi: {
          driver: 'ebs.csi.aws.com',
          fsType: 'ext4',
          volumeHandle: `vol-${gen.uid(pvKey).slice(0, 17).replace(/-/g, '')}`,
        },
        persistentVolumeReclaimPolicy: 'Delete',
        storageClassName: 'gp3',
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Bound' },
    });
  }
}

function buildNetworking(gen: Gen): void {
  add(gen, {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: meta(gen, 'IngressClass', 'nginx', undefined, 30 * DAY, {
      annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' },
    }),
    spec: { controller: 'k8s.io/ingress-nginx' },
  });
  add(gen, {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: meta(gen, 'Ingress', 'shop', 'shop', 12 * DAY, {
      annotations: { 'cert-manager.io/cluster-issuer': 'letsencrypt' },
    }),
    spec: {
      ingressClassName: 'nginx',
      tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
      rules: [
        {
          host: 'shop.example.com',
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: 'frontend', port: { number: 80 } } },
              },
              {
                path: '/api/checkout',
                pathType: 'Prefix',
                backend: { service: { name: 'checkout', port: { number: 8080 } } },
              },
            ],
          },
        },
      ],
    },
    status: { loadBalancer: { ingress: [{ ip: '203.0.113.20' }] } },
  });
  add(gen, {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: meta(gen, 'NetworkPolicy', 'postgres-from-checkout', 'shop', 12 * DAY),
    spec: {
      podSelector: { matchLabels: { app: 'postgres' } },
      policyTypes: ['Ingress'],
      ingress: [
        {
          from: [{ podSelector: { matchLabels: { app: 'checkout' } } }],
          ports: [{ protocol: 'TCP', port: 5432 }],
        },
      ],
    },
  });
  add(gen, {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: meta(gen, 'EndpointSlice', 'kubernetes', 'default', 30 * DAY, {
      labels: {
        'kubernetes.io/service-name': 'kubernetes',
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      },
    }),
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.0.0.10'], conditions: { ready: true, serving: true, terminating: false } }],
    ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
  });
}

function buildPolicy(gen: Gen): void {
  add(gen, {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: meta(gen, 'HorizontalPodAutoscaler', 'frontend', 'shop', 12 * DAY),
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'frontend' },
      minReplicas: 2,
      maxReplicas: 6,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
        },
      ],
    },
    status: {
      currentReplicas: 2,
      desiredReplicas: 2,
      currentMetrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', current: { averageUtilization: 23, averageValue: '23m' } },
        },
      ],
      conditions: [
        {
          type: 'AbleToScale',
          status: 'True',
          lastTransitionTime: gen.ago(12 * DAY),
          reason: 'ReadyForNewScale',
          message: 'recommended size matches current size',
        },
        {
          type: 'ScalingActive',
          status: 'True',
          lastTransitionTime: gen.ago(12 * DAY),
          reason: 'ValidMetricFound',
          message:
            'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
        },
        {
          type: 'ScalingLimited',
          status: 'True',
          lastTransitionTime: gen.ago(HOUR),
          reason: 'TooFewReplicas',
          message: 'the desired replica count is less than the minimum replica count',
        },
      ],
    },
  });
  add(gen, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: meta(gen, 'PodDisruptionBudget', 'postgres', 'shop', 12 * DAY),
    spec: { maxUnavailable: 0, selector: { matchLabels: { app: 'postgres' } } },
    status: {
      currentHealthy: 1,
      desiredHealthy: 1,
      disruptionsAllowed: 0,
      expectedPods: 1,
      observedGeneration: 1,
    },
  });
}

function buildRbac(gen: Gen): void {
  const rbac = 'rbac.authorization.k8s.io/v1';
  add(gen, {
    apiVersion: rbac,
    kind: 'ClusterRole',
    metadata: meta(gen, 'ClusterRole', 'cluster-admin', undefined, 30 * DAY, {
      labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    }),
    rules: [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ],
  });
  add(gen, {
    apiVersion: rbac,
    kind: 'ClusterRole',
    metadata: meta(gen, 'ClusterRole', 'view', undefined, 30 * DAY, {
      labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    }),
    rules: [
      {
        apiGroups: ['', 'apps', 'batch'],
        resources: ['pods', 'services', 'deployments', 'jobs'],
        verbs: ['get', 'list', 'watch'],
      },
    ],
  });
  add(gen, {
    apiVersion: rbac,
    kind: 'ClusterRoleBinding',
    metadata: meta(gen, 'ClusterRoleBinding', 'cluster-admin', undefined, 30 * DAY),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }],
  });
  add(gen, {
    apiVersion: rbac,
    kind: 'Role',
    metadata: meta(gen, 'Role', 'prometheus-read', 'monitoring', 20 * DAY),
    rules: [
      { apiGroups: [''], resources: ['pods', 'endpoints', 'services'], verbs: ['get', 'list', 'watch'] },
    ],
  });
  add(gen, {
    apiVersion: rbac,
    kind: 'RoleBinding',
    metadata: meta(gen, 'RoleBinding', 'prometheus-read', 'monitoring', 20 * DAY),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'prometheus-read' },
    subjects: [{ kind: 'ServiceAccount', name: 'prometheus', namespace: 'monitoring' }],
  });
}
