import type { Service } from './types';

/** Ports as kubectl prints them: port[:nodePort]/protocol. */
export function servicePorts(svc: Service): string {
  return (svc.spec?.ports ?? [])
    .map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`)
    .join(', ');
}

/** Where the service is reachable from outside, or why not yet: <pending> while a load balancer is made. */
export function externalIp(svc: Service): string {
  const ingress = svc.status?.loadBalancer?.ingress ?? [];
  const ips = [...(svc.spec?.externalIPs ?? []), ...ingress.map((i) => i.ip ?? i.hostname ?? '')].filter(
    Boolean,
  );
  if (ips.length) return ips.join(',');
  if (svc.spec?.type === 'ExternalName') return svc.spec.externalName ?? '';
  return svc.spec?.type === 'LoadBalancer' ? '<pending>' : '<none>';
}
