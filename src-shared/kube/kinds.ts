/**
 * The tailored kinds, one row each: the nine Skiff has its own columns and details for. Everything
 * needed to build API paths, to turn what a user typed (`Pod`, `pods`, `po`) into one canonical
 * type, and to name the kind on screen. Every other kind a cluster serves comes from its discovery
 * (src-main/service/clusters/kind-info.ts); these rows are the same shape, so a tailored kind is
 * also a KindInfo. A tailored kind's bare singular always names it, whatever else a cluster serves.
 * Adding a tailored kind starts here; the compiler then asks for its folder in the renderer's registry.
 */

const CORE = { group: '', version: 'v1', apiPath: '/api/v1' } as const;
const APPS = { group: 'apps', version: 'v1', apiPath: '/apis/apps/v1' } as const;
const BATCH = { group: 'batch', version: 'v1', apiPath: '/apis/batch/v1' } as const;

type ApiGroup = typeof CORE | typeof APPS | typeof BATCH;

interface KindRow {
  /** The canonical name in URLs: the singular (a tailored kind's bare name is never qualified). */
  resourceType: string;
  singular: string;
  plural: string;
  kind: string;
  group: ApiGroup['group'];
  version: string;
  apiPath: ApiGroup['apiPath'];
  /** What people read: the tree, list headings and counters say "StatefulSets", not "statefulsets". */
  label: { singular: string; plural: string };
  namespaced: boolean;
  /** kubectl short names; accepted only as a "did you mean" hint. */
  shortNames: readonly string[];
  /** The apiserver's categories: the namespaced ones are in `all` (`kubectl get all`). */
  categories: readonly string[];
}

/** In the order the tree shows a namespace's kinds, cluster-scoped kinds first. */
const KIND_TABLE = [
  row('node', 'Node', CORE, false, ['no']),
  row('namespace', 'Namespace', CORE, false, ['ns']),
  row('deployment', 'Deployment', APPS, true, ['deploy']),
  row('statefulset', 'StatefulSet', APPS, true, ['sts']),
  row('daemonset', 'DaemonSet', APPS, true, ['ds']),
  row('job', 'Job', BATCH, true, []),
  row('cronjob', 'CronJob', BATCH, true, ['cj']),
  row('pod', 'Pod', CORE, true, ['po']),
  row('service', 'Service', CORE, true, ['svc']),
] as const;

/**
 * One row. The plural adds an "s" (true of every kind so far); a kind such as Ingress or
 * NetworkPolicy would pass its plural and label in explicitly.
 */
function row<const S extends string>(
  singular: S,
  kind: string,
  api: ApiGroup,
  namespaced: boolean,
  shortNames: readonly string[],
  plural = `${singular}s`,
  label = { singular: kind, plural: `${kind}s` },
): KindRow & { singular: S; resourceType: S } {
  const categories = namespaced ? ['all'] : [];
  return {
    resourceType: singular,
    singular,
    plural,
    kind,
    label,
    ...api,
    namespaced,
    shortNames,
    categories,
  };
}

export type ResourceType = (typeof KIND_TABLE)[number]['singular'];

export const RESOURCE_TYPES: readonly ResourceType[] = KIND_TABLE.map((r) => r.singular);

export type ResourceKindInfo = Omit<KindRow, 'singular' | 'resourceType'> & {
  /** Upper-case singular, used as the wire/enum value, e.g. 'POD'. */
  type: Uppercase<ResourceType>;
  singular: ResourceType;
  resourceType: ResourceType;
};

export const RESOURCE_KINDS: Readonly<Record<ResourceType, ResourceKindInfo>> = Object.fromEntries(
  KIND_TABLE.map((r) => [r.singular, { ...r, type: r.singular.toUpperCase() as Uppercase<ResourceType> }]),
) as Record<ResourceType, ResourceKindInfo>;

/** The kinds that live in a namespace, in table order: what the tree lists under each namespace. */
export const NAMESPACED_TYPES: readonly ResourceType[] = RESOURCE_TYPES.filter(
  (t) => RESOURCE_KINDS[t].namespaced,
);

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
