/**
 * The resource kinds Skiff knows, with everything needed to build API paths and to
 * turn what a user typed (`Pod`, `pods`, `po`) into one canonical type.
 */

export const RESOURCE_TYPES = [
  'node',
  'namespace',
  'deployment',
  'statefulset',
  'daemonset',
  'job',
  'cronjob',
  'pod',
  'service',
] as const;

export type ResourceType = (typeof RESOURCE_TYPES)[number];

export type ResourceKindInfo = {
  /** Upper-case singular, used as the wire/enum value, e.g. 'POD'. */
  type: Uppercase<ResourceType>;
  singular: ResourceType;
  plural: string;
  kind: string;
  group: '' | 'apps' | 'batch';
  version: string;
  apiPath: '/api/v1' | '/apis/apps/v1' | '/apis/batch/v1';
  namespaced: boolean;
  /** kubectl short names; accepted only as a "did you mean" hint. */
  shortNames: readonly string[];
};

const CORE = { group: '', version: 'v1', apiPath: '/api/v1' } as const;
const APPS = { group: 'apps', version: 'v1', apiPath: '/apis/apps/v1' } as const;
const BATCH = { group: 'batch', version: 'v1', apiPath: '/apis/batch/v1' } as const;

export const RESOURCE_KINDS: Readonly<Record<ResourceType, ResourceKindInfo>> = {
  node: {
    type: 'NODE',
    singular: 'node',
    plural: 'nodes',
    kind: 'Node',
    ...CORE,
    namespaced: false,
    shortNames: ['no'],
  },
  namespace: {
    type: 'NAMESPACE',
    singular: 'namespace',
    plural: 'namespaces',
    kind: 'Namespace',
    ...CORE,
    namespaced: false,
    shortNames: ['ns'],
  },
  deployment: {
    type: 'DEPLOYMENT',
    singular: 'deployment',
    plural: 'deployments',
    kind: 'Deployment',
    ...APPS,
    namespaced: true,
    shortNames: ['deploy'],
  },
  statefulset: {
    type: 'STATEFULSET',
    singular: 'statefulset',
    plural: 'statefulsets',
    kind: 'StatefulSet',
    ...APPS,
    namespaced: true,
    shortNames: ['sts'],
  },
  daemonset: {
    type: 'DAEMONSET',
    singular: 'daemonset',
    plural: 'daemonsets',
    kind: 'DaemonSet',
    ...APPS,
    namespaced: true,
    shortNames: ['ds'],
  },
  job: {
    type: 'JOB',
    singular: 'job',
    plural: 'jobs',
    kind: 'Job',
    ...BATCH,
    namespaced: true,
    shortNames: [],
  },
  cronjob: {
    type: 'CRONJOB',
    singular: 'cronjob',
    plural: 'cronjobs',
    kind: 'CronJob',
    ...BATCH,
    namespaced: true,
    shortNames: ['cj'],
  },
  pod: {
    type: 'POD',
    singular: 'pod',
    plural: 'pods',
    kind: 'Pod',
    ...CORE,
    namespaced: true,
    shortNames: ['po'],
  },
  service: {
    type: 'SERVICE',
    singular: 'service',
    plural: 'services',
    kind: 'Service',
    ...CORE,
    namespaced: true,
    shortNames: ['svc'],
  },
};

export type ResolveResourceTypeResult =
  | { ok: true; info: ResourceKindInfo }
  | { ok: false; message: string; hint?: string };

function isResourceType(s: string): s is ResourceType {
  return (RESOURCE_TYPES as readonly string[]).includes(s);
}

/** Levenshtein distance, small inputs only; used to suggest a fix for typos. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * Accepts only the singular, case-insensitively. Plurals, kubectl short names and
 * `deployments.apps`-style names are refused but answered with a hint, so the
 * canonical spelling stays the only one in URLs and saved views.
 */
export function resolveResourceType(input: string): ResolveResourceTypeResult {
  const raw = input.trim();
  const lower = raw.toLowerCase();
  if (isResourceType(lower)) return { ok: true, info: RESOURCE_KINDS[lower] };

  const accepted = `expected one of: ${RESOURCE_TYPES.join(', ')}`;
  const message =
    raw === '' ? `missing resource type; ${accepted}` : `unknown resource type "${raw}"; ${accepted}`;
  if (raw === '') return { ok: false, message };

  // `deployments.apps`, `pods.v1.` → drop the group/version suffix before matching.
  const base = lower.split('.')[0] ?? lower;
  for (const t of RESOURCE_TYPES) {
    const info = RESOURCE_KINDS[t];
    if (base === t || base === info.plural || info.shortNames.includes(base)) {
      return { ok: false, message, hint: `did you mean ${t}?` };
    }
  }
  let best: { t: ResourceType; d: number } | undefined;
  for (const t of RESOURCE_TYPES) {
    const d = editDistance(base, t);
    if (d <= 2 && (best === undefined || d < best.d)) best = { t, d };
  }
  return best ? { ok: false, message, hint: `did you mean ${best.t}?` } : { ok: false, message };
}
