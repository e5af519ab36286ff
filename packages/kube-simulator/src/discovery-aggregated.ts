/**
 * Aggregated discovery (apidiscovery.k8s.io/v2), what /api and /apis answer a client whose Accept
 * asks for `application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`: every group,
 * version and resource of the cluster in one document, in the shapes of k8s.io/api/apidiscovery/v2.
 * An aggregated API that is down (metrics.k8s.io with metricsDown) stays listed with the resources
 * last read from it, its version marked `freshness: Stale`, as kube-aggregator reports it.
 */

import { defsAt, METRICS, servedGroups } from './discovery';
import type { SimKinds } from './kinds';
import type { ResourceDef } from './resources';

export const AGGREGATED_CONTENT_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/**
 * True when the Accept header takes the v2 aggregated document. Media type parameters are matched
 * case-insensitively in name and value order-free, as the apiserver's negotiation does.
 */
export function wantsAggregated(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    if (type !== 'application/json') return false;
    const has = (p: string) => params.includes(p);
    return has('g=apidiscovery.k8s.io') && has('v=v2') && has('as=apigroupdiscoverylist');
  });
}

function resourceEntry(d: ResourceDef): Record<string, unknown> {
  return {
    resource: d.resource,
    responseKind: { group: d.group, version: d.version, kind: d.kind },
    scope: d.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: d.singular,
    verbs: d.verbs,
    ...(d.shortNames ? { shortNames: d.shortNames } : {}),
    ...(d.categories ? { categories: d.categories } : {}),
    ...(d.subresources
      ? {
          subresources: d.subresources.map((s) => ({
            subresource: s.name,
            responseKind: s.responseKind ?? { group: d.group, version: d.version, kind: d.kind },
            verbs: s.verbs,
          })),
        }
      : {}),
  };
}

function versionEntry(
  kinds: SimKinds,
  group: string,
  version: string,
  stale: boolean,
): Record<string, unknown> {
  return {
    version,
    resources: defsAt(kinds, group, version).map(resourceEntry),
    freshness: stale ? 'Stale' : 'Current',
  };
}

/** The document /api answers: the core group alone, its name left out as it is empty. */
export function aggregatedCore(kinds: SimKinds): unknown {
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: [{ metadata: { creationTimestamp: null }, versions: [versionEntry(kinds, '', 'v1', false)] }],
  };
}

/** The document /apis answers: every named group, metrics.k8s.io last and Stale while it is down. */
export function aggregatedGroups(kinds: SimKinds, metrics: { served: boolean; down: boolean }): unknown {
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: servedGroups(kinds, metrics.served).map(({ group, versions }) => ({
      metadata: { name: group, creationTimestamp: null },
      versions: versions.map((v) => versionEntry(kinds, group, v, group === METRICS.group && metrics.down)),
    })),
  };
}
