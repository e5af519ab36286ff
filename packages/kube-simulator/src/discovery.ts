/**
 * The legacy discovery documents (/version, /api, /apis, /api/v1, /apis/<group>/<version>) built
 * from the store's kinds (built-ins and CRDs), in the shapes and order a 1.31 apiserver answers:
 * groups by priority, a group version's resources and subresources by name. Verbs are the real
 * apiserver's; server.ts says which of them the simulator serves. The aggregated document
 * (discovery-aggregated.ts) is built from the same rows.
 */

import type { SimKinds } from './kinds';
import { METRICS_RESOURCES } from './metrics';
import type { ResourceDef } from './resources';

const KUBE_VERSION = 'v1.31.4';

export function versionInfo(): unknown {
  return {
    major: '1',
    minor: '31',
    gitVersion: KUBE_VERSION,
    gitCommit: 'a78aa47129b8539636eb86a9d00e31b2720fe06b',
    gitTreeState: 'clean',
    buildDate: '2024-12-10T18:44:18Z',
    goVersion: 'go1.22.9',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

export function apiVersions(serverAddress: string): unknown {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export const METRICS = { group: 'metrics.k8s.io', version: 'v1beta1' } as const;

/** The API groups besides the core one, in the apiserver's order; metrics.k8s.io last when served. */
export function servedGroups(
  kinds: SimKinds,
  includeMetrics: boolean,
): { group: string; versions: string[] }[] {
  const groups = kinds.groups().filter((g) => g.group !== '');
  return includeMetrics ? [...groups, { group: METRICS.group, versions: [METRICS.version] }] : groups;
}

export function apiGroupList(kinds: SimKinds, includeMetrics: boolean): unknown {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: servedGroups(kinds, includeMetrics).map(({ group, versions }) => {
      const gvs = versions.map((version) => ({ groupVersion: `${group}/${version}`, version }));
      return { name: group, versions: gvs, preferredVersion: gvs[0] };
    }),
  };
}

/** The kinds served at one group version, ordered by resource name as the apiserver lists them. */
export function defsAt(kinds: SimKinds, group: string, version: string): ResourceDef[] {
  if (group === METRICS.group && version === METRICS.version) return [...METRICS_RESOURCES];
  return kinds
    .served()
    .filter((d) => d.group === group && d.version === version)
    .sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
}

function resourceEntries(d: ResourceDef): Record<string, unknown>[] {
  const own = {
    name: d.resource,
    singularName: d.singular,
    namespaced: d.namespaced,
    kind: d.kind,
    verbs: d.verbs,
    ...(d.shortNames ? { shortNames: d.shortNames } : {}),
    ...(d.categories ? { categories: d.categories } : {}),
  };
  const subresources = (d.subresources ?? []).map((s) => {
    const rk = s.responseKind;
    const foreign = rk !== undefined && (rk.group !== d.group || rk.version !== d.version);
    return {
      name: `${d.resource}/${s.name}`,
      singularName: '',
      namespaced: d.namespaced,
      ...(foreign ? { group: rk.group, version: rk.version } : {}),
      kind: rk?.kind ?? d.kind,
      verbs: s.verbs,
    };
  });
  return [own, ...subresources];
}

/** APIResourceList for a group/version, or undefined when it is not served. */
export function resourceList(kinds: SimKinds, group: string, version: string): unknown | undefined {
  const defs = defsAt(kinds, group, version);
  if (defs.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    ...(group === '' ? {} : { apiVersion: 'v1' }),
    groupVersion: group === '' ? version : `${group}/${version}`,
    resources: defs.flatMap(resourceEntries),
  };
}
