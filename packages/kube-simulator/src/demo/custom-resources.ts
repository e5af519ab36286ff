/**
 * cert-manager as the demo runs it: its two CustomResourceDefinitions (Certificate, namespaced,
 * and ClusterIssuer, cluster-scoped) with the printer columns cert-manager v1.16 ships, one issuer,
 * and two Certificates: shop-tls Ready with its Secret, grafana-tls failing (Ready=False, the
 * ACME rate limit in its Issuing condition and a Warning event, no Secret). Also the APIServices a
 * cluster registers for every group version it serves, metrics.k8s.io the one aggregated API.
 */

import { apiVersionOf, SERVED } from '../resources';
import { DAY, HOUR, MINUTE } from '../time';
import type { KubeObject } from '../types';
import type { Gen } from './context';
import { objectEvent } from './events';
import { add, meta } from './more-kinds';

const CM_LABELS = {
  app: 'cert-manager',
  'app.kubernetes.io/instance': 'cert-manager',
  'app.kubernetes.io/name': 'cert-manager',
  'app.kubernetes.io/version': 'v1.16.2',
};
const AGE_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.';
const READY_STATUS = '.status.conditions[?(@.type == "Ready")].status';
const READY_MESSAGE = '.status.conditions[?(@.type == "Ready")].message';

function crd(
  gen: Gen,
  kind: string,
  plural: string,
  scope: 'Namespaced' | 'Cluster',
  columns: Record<string, unknown>[],
  shortNames?: string[],
): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: meta(gen, 'CustomResourceDefinition', `${plural}.cert-manager.io`, undefined, 25 * DAY, {
      labels: CM_LABELS,
      annotations: { 'helm.sh/resource-policy': 'keep' },
    }),
    spec: {
      group: 'cert-manager.io',
      names: {
        kind,
        listKind: `${kind}List`,
        plural,
        singular: kind.toLowerCase(),
        categories: ['cert-manager'],
        ...(shortNames ? { shortNames } : {}),
      },
      scope,
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: columns,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              },
            },
          },
        },
      ],
    },
  };
}

const condition = (
  gen: Gen,
  type: string,
  status: string,
  reason: string,
  message: string,
  agoMs: number,
) => ({
  type,
  status,
  lastTransitionTime: gen.ago(agoMs),
  reason,
  message,
  observedGeneration: 1,
});

export function buildCustomResources(gen: Gen): void {
  const age = {
    jsonPath: '.metadata.creationTimestamp',
    name: 'Age',
    type: 'date',
    description: AGE_DESCRIPTION,
  };
  add(
    gen,
    crd(
      gen,
      'Certificate',
      'certificates',
      'Namespaced',
      [
        { jsonPath: READY_STATUS, name: 'Ready', type: 'string' },
        { jsonPath: '.spec.secretName', name: 'Secret', type: 'string' },
        { jsonPath: '.spec.issuerRef.name', name: 'Issuer', type: 'string', priority: 1 },
        { jsonPath: READY_MESSAGE, name: 'Status', type: 'string', priority: 1 },
        age,
      ],
      ['cert', 'certs'],
    ),
  );
  add(
    gen,
    crd(gen, 'ClusterIssuer', 'clusterissuers', 'Cluster', [
      { jsonPath: READY_STATUS, name: 'Ready', type: 'string' },
      { jsonPath: READY_MESSAGE, name: 'Status', type: 'string', priority: 1 },
      age,
    ]),
  );
  add(gen, {
    apiVersion: 'cert-manager.io/v1',
    kind: 'ClusterIssuer',
    metadata: meta(gen, 'ClusterIssuer', 'letsencrypt', undefined, 25 * DAY),
    spec: {
      acme: {
        server: 'https://acme-v02.api.letsencrypt.org/directory',
        email: 'platform@example.com',
        privateKeySecretRef: { name: 'letsencrypt-account-key' },
        solvers: [{ http01: { ingress: { ingressClassName: 'nginx' } } }],
      },
    },
    status: {
      acme: { uri: 'https://acme-v02.api.letsencrypt.org/acme/acct/1928374650' },
      conditions: [
        condition(
          gen,
          'Ready',
          'True',
          'ACMEAccountRegistered',
          'The ACME account was registered with the ACME server',
          25 * DAY,
        ),
      ],
    },
  });
  const issuerRef = { name: 'letsencrypt', kind: 'ClusterIssuer', group: 'cert-manager.io' };
  add(gen, {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: meta(gen, 'Certificate', 'shop-tls', 'shop', 12 * DAY),
    spec: { secretName: 'shop-tls', dnsNames: ['shop.example.com'], issuerRef },
    status: {
      conditions: [
        condition(gen, 'Ready', 'True', 'Ready', 'Certificate is up to date and has not expired', 12 * DAY),
      ],
      notBefore: gen.ago(12 * DAY),
      notAfter: new Date(gen.now + 78 * DAY).toISOString().replace(/\.\d+Z$/, 'Z'),
      renewalTime: new Date(gen.now + 48 * DAY).toISOString().replace(/\.\d+Z$/, 'Z'),
      revision: 1,
    },
  });
  add(gen, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: meta(gen, 'Secret', 'shop-tls', 'shop', 12 * DAY, {
      annotations: {
        'cert-manager.io/certificate-name': 'shop-tls',
        'cert-manager.io/issuer-kind': 'ClusterIssuer',
        'cert-manager.io/issuer-name': 'letsencrypt',
      },
    }),
    type: 'kubernetes.io/tls',
    data: {
      'tls.crt': Buffer.from('-----BEGIN CERTIFICATE-----\ndemo\n-----END CERTIFICATE-----\n').toString(
        'base64',
      ),
      'tls.key': Buffer.from('-----BEGIN EC PRIVATE KEY-----\ndemo\n-----END EC PRIVATE KEY-----\n').toString(
        'base64',
      ),
    },
  });
  const order = 'grafana-tls-1-3906172542';
  const failure = `The certificate request has failed to complete and will be retried: Failed to wait for order resource "${order}" to become ready: order is in "errored" state: Failed to create Order: 429 urn:ietf:params:acme:error:rateLimited: too many certificates (5) already issued for this exact set of identifiers in the last 168h0m0s`;
  const failing = add(gen, {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: meta(gen, 'Certificate', 'grafana-tls', 'monitoring', 2 * HOUR),
    spec: { secretName: 'grafana-tls', dnsNames: ['grafana.example.com'], issuerRef },
    status: {
      conditions: [
        condition(
          gen,
          'Ready',
          'False',
          'DoesNotExist',
          'Issuing certificate as Secret does not exist',
          2 * HOUR,
        ),
        condition(gen, 'Issuing', 'False', 'Failed', failure, 40 * MINUTE),
      ],
      failedIssuanceAttempts: 3,
      lastFailureTime: gen.ago(40 * MINUTE),
    },
  });
  objectEvent(gen, failing, {
    reason: 'Failed',
    type: 'Warning',
    message: failure,
    component: 'cert-manager-certificates-issuing',
    count: 3,
    firstAgoMs: 2 * HOUR - MINUTE,
    lastAgoMs: 40 * MINUTE,
  });
  buildApiServices(gen);
}

/** `v1.`, `v1.apps`, …: what the apiserver registers for its own groups, and metrics-server's. */
function buildApiServices(gen: Gen): void {
  const local = [...new Set([...SERVED.map((d) => apiVersionOf(d)), 'cert-manager.io/v1'])];
  for (const gv of local) {
    const [group, version] = gv.includes('/') ? (gv.split('/') as [string, string]) : ['', gv];
    add(gen, {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: meta(
        gen,
        'APIService',
        `${version}.${group}`,
        undefined,
        group === 'cert-manager.io' ? 25 * DAY : 30 * DAY,
        {
          labels: {
            'kube-aggregator.kubernetes.io/automanaged': group === 'cert-manager.io' ? 'true' : 'onstart',
          },
        },
      ),
      spec: { ...(group ? { group } : {}), version, groupPriorityMinimum: 1000, versionPriority: 15 },
      status: {
        conditions: [
          {
            type: 'Available',
            status: 'True',
            lastTransitionTime: gen.ago(30 * DAY),
            reason: 'Local',
            message: 'Local APIServices are always available',
          },
        ],
      },
    });
  }
  add(gen, {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: meta(gen, 'APIService', 'v1beta1.metrics.k8s.io', undefined, 30 * DAY, {
      labels: { 'k8s-app': 'metrics-server' },
    }),
    spec: {
      service: { name: 'metrics-server', namespace: 'kube-system', port: 443 },
      group: 'metrics.k8s.io',
      version: 'v1beta1',
      insecureSkipTLSVerify: true,
      groupPriorityMinimum: 100,
      versionPriority: 100,
    },
    status: {
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastTransitionTime: gen.ago(30 * DAY),
          reason: 'Passed',
          message: 'all checks passed',
        },
      ],
    },
  });
}
