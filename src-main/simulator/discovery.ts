/**
 * Discovery documents (/version, /api, /apis, /api/v1, /apis/<group>/<version>) built from the
 * resource table. Verbs list what the simulator actually serves (get, list, watch), so a client
 * that reads discovery to decide what it may do is told the truth.
 */

import { apiVersionOf, type ResourceDef, SERVED } from './resources';

export const KUBE_VERSION = 'v1.31.4';

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

interface GroupVersion {
  group: string;
  version: string;
}

const METRICS: GroupVersion = { group: 'metrics.k8s.io', version: 'v1beta1' };

function groups(includeMetrics: boolean): GroupVersion[] {
  const seen = new Map<string, GroupVersion>();
  for (const d of SERVED) if (d.group !== '') seen.set(d.group, { group: d.group, version: d.version });
  if (includeMetrics) seen.set(METRICS.group, METRICS);
  return [...seen.values()];
}

export function apiGroupList(includeMetrics: boolean): unknown {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups(includeMetrics).map(({ group, version }) => {
      const gv = { groupVersion: `${group}/${version}`, version };
      return { name: group, versions: [gv], preferredVersion: gv };
    }),
  };
}

function resourceEntry(d: ResourceDef): Record<string, unknown> {
  return {
    name: d.resource,
    singularName: d.singular,
    namespaced: d.namespaced,
    kind: d.kind,
    verbs: ['get', 'list', 'watch'],
    ...(d.shortNames ? { shortNames: d.shortNames } : {}),
    ...(d.categories ? { categories: d.categories } : {}),
  };
}

/** APIResourceList for a group/version, or undefined when it is not served. */
export function resourceList(group: string, version: string): unknown | undefined {
  const groupVersion = group === '' ? version : `${group}/${version}`;
  if (group === METRICS.group && version === METRICS.version) {
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion,
      resources: [
        { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
        { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
      ],
    };
  }
  const defs = SERVED.filter((d) => apiVersionOf(d) === groupVersion);
  if (defs.length === 0) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const d of defs) {
    resources.push(resourceEntry(d));
    if (d.resource === 'pods' && d.group === '') {
      resources.push({ name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] });
    }
  }
  return { kind: 'APIResourceList', ...(group === '' ? {} : { apiVersion: 'v1' }), groupVersion, resources };
}
