/** Services: ClusterIP, headless, NodePort and a LoadBalancer with an assigned ingress IP. */

import { managedEntry } from '../managed-fields';
import { hash32 } from '../random';
import type { Gen } from './context';

interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
  protocol?: 'TCP' | 'UDP';
  nodePort?: number;
}

interface ServiceSpec {
  namespace: string;
  name: string;
  selector?: Record<string, string>;
  ports: ServicePort[];
  type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer';
  headless?: boolean;
  clusterIP?: string;
  createdAgoMs: number;
  manager: string;
  labels?: Record<string, string>;
  loadBalancerIP?: string;
  /** Services with the same field structure share managedFields tries. */
  shape?: string;
}

export function buildService(gen: Gen, s: ServiceSpec): void {
  const created = gen.ago(s.createdAgoMs);
  const h = hash32(`${s.namespace}/${s.name}`);
  const clusterIP = s.headless ? 'None' : (s.clusterIP ?? `10.96.${(h >>> 8) % 250}.${(h % 250) + 2}`);
  const type = s.type ?? 'ClusterIP';
  const ports = s.ports.map((p, i) => ({
    ...(p.name ? { name: p.name } : {}),
    protocol: p.protocol ?? 'TCP',
    port: p.port,
    targetPort: p.targetPort ?? p.port,
    ...(type !== 'ClusterIP' ? { nodePort: p.nodePort ?? 30000 + ((h + i * 7) % 2767) } : {}),
  }));
  const spec = {
    ports,
    ...(s.selector ? { selector: s.selector } : {}),
    clusterIP,
    clusterIPs: [clusterIP],
    type,
    sessionAffinity: 'None',
    ...(type !== 'ClusterIP' ? { externalTrafficPolicy: 'Cluster' } : {}),
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    internalTrafficPolicy: 'Cluster',
    ...(type === 'LoadBalancer' ? { allocateLoadBalancerNodePorts: true } : {}),
  };
  const status = {
    loadBalancer: s.loadBalancerIP ? { ingress: [{ ip: s.loadBalancerIP, ipMode: 'VIP' }] } : {},
  };
  gen.add({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: s.name,
      namespace: s.namespace,
      uid: gen.uid(`svc/${s.namespace}/${s.name}`),
      resourceVersion: '',
      creationTimestamp: created,
      ...(s.labels ? { labels: s.labels } : {}),
      managedFields: [
        managedEntry({
          manager: s.manager,
          operation: s.manager === 'kubectl' ? 'Apply' : 'Update',
          apiVersion: 'v1',
          time: created,
          owned: {
            metadata: { labels: s.labels },
            spec: {
              ports,
              selector: s.selector,
              type,
              sessionAffinity: 'None',
              internalTrafficPolicy: 'Cluster',
            },
          },
        }),
        ...(s.loadBalancerIP
          ? [
              managedEntry({
                manager: 'cloud-controller-manager',
                apiVersion: 'v1',
                time: created,
                owned: { status },
                subresource: 'status',
                cacheKey: 'svc|lb-status',
              }),
            ]
          : []),
      ],
    },
    spec,
    status,
  });
}
