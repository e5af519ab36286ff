/**
 * Why an Ingress does not serve: no address published yet (no controller took it on), or backend
 * Services that do not exist in its namespace. A Service that cannot be looked up is not called
 * missing: only a look-up that answers "no such object" makes that finding.
 */

import { type ExplainContext, explained, type Finding, type ObjectLike } from './findings';
import { requireGuidance } from './registry';
import type { GuidanceCheck, GuidanceRef } from './types';

type BackendLike = { service?: { name?: string } | null } | null | undefined;

type IngressLike = ObjectLike & {
  metadata?: { annotations?: Record<string, string> | null };
  spec?: {
    ingressClassName?: string | null;
    defaultBackend?: BackendLike;
    rules?: readonly { http?: { paths?: readonly { backend?: BackendLike }[] | null } | null }[] | null;
  } | null;
  status?: { loadBalancer?: { ingress?: readonly unknown[] | null } | null } | null;
};

/** The Services the Ingress sends traffic to, each once, default backend first. */
function backendServices(ingress: IngressLike): string[] {
  const backends = [
    ingress.spec?.defaultBackend,
    ...(ingress.spec?.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend)),
  ];
  const names = backends.map((b) => b?.service?.name).filter((n): n is string => !!n);
  return [...new Set(names)];
}

function noAddress(ingress: IngressLike): Finding {
  const className =
    ingress.spec?.ingressClassName ?? ingress.metadata?.annotations?.['kubernetes.io/ingress.class'];
  const checks: GuidanceCheck[] = className
    ? [
        {
          text: `IngressClass ${className}: its controller publishes the address.`,
          ref: { resourceType: 'ingressclass', name: className },
        },
      ]
    : [
        {
          text: 'The Ingress names no class: an IngressClass must be marked default for a controller to take it.',
        },
      ];
  return explained('status', 'NoAddress', requireGuidance('ingress-status', 'NoAddress'), { checks });
}

export async function explainIngress(obj: ObjectLike, ctx: ExplainContext): Promise<Finding[]> {
  const ingress = obj as IngressLike;
  const namespace = ingress.metadata?.namespace ?? '';
  const findings: Finding[] = [];
  if ((ingress.status?.loadBalancer?.ingress ?? []).length === 0) findings.push(noAddress(ingress));
  const refs: GuidanceRef[] = backendServices(ingress).map((name) => ({
    resourceType: 'service',
    namespace,
    name,
  }));
  const found = await Promise.all(refs.map((ref) => ctx.find(ref)));
  const missing = refs.filter((_, i) => found[i] === null);
  if (missing.length > 0) {
    const names = missing.map((r) => r.name).join(', ');
    findings.push(
      explained('status', 'ServiceNotFound', requireGuidance('ingress-status', 'ServiceNotFound'), {
        message: `Backend Service${missing.length > 1 ? 's' : ''} not found in ${namespace}: ${names}`,
        checks: missing.map((ref) => ({ text: `Service ${ref.name} does not exist.`, ref })),
      }),
    );
  }
  return findings;
}
