import { type Service, view } from '../../../kube/types';
import type { KindColumn, Row } from '../columns';

const s = (r: Row) => view<Service>(r.resource);

export function servicePorts(svc: Service): string {
  return (svc.spec?.ports ?? [])
    .map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`)
    .join(', ');
}

export function externalIp(svc: Service): string {
  const ingress = svc.status?.loadBalancer?.ingress ?? [];
  const ips = [...(svc.spec?.externalIPs ?? []), ...ingress.map((i) => i.ip ?? i.hostname ?? '')].filter(
    Boolean,
  );
  if (ips.length) return ips.join(',');
  if (svc.spec?.type === 'ExternalName') return svc.spec.externalName ?? '';
  return svc.spec?.type === 'LoadBalancer' ? '<pending>' : '<none>';
}

export const serviceColumns: KindColumn[] = [
  { id: 'type', header: 'Type', width: '7.5rem', value: (r) => s(r).spec?.type ?? 'ClusterIP' },
  { id: 'clusterIP', header: 'Cluster IP', width: '8rem', value: (r) => s(r).spec?.clusterIP ?? '' },
  { id: 'externalIP', header: 'External IP', width: '8rem', value: (r) => externalIp(s(r)) },
  { id: 'ports', header: 'Ports', width: 'minmax(8rem, 1.5fr)', value: (r) => servicePorts(s(r)) },
];
