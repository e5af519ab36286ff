import type { KindEntry } from '../../kube/kind-catalog';

/**
 * The tree's groups, as people think of kinds: Workloads, Networking, Config & storage, Access
 * control, Cluster, then Custom resources by API group. A built-in kind is placed by its group and
 * plural (a canonical resourceType may be qualified, these never change); inside a group the table's
 * order comes first and the rest follow by label. Kinds a CRD defines (they carry `columns`) and kinds
 * of groups outside Kubernetes' own are custom resources; an unplaced built-in kind goes to Cluster.
 * Empty kinds hide unless asked for, except the one open now and any whose count is not known.
 */

export type GroupId = 'workloads' | 'networking' | 'config' | 'access' | 'cluster';

export interface KindGroup {
  /** 'workloads' … 'cluster', or 'crd:<api group>' for custom resources. */
  id: string;
  label: string;
  kinds: KindEntry[];
  /** How many of the group's kinds are hidden for being empty. */
  hidden: number;
}

export interface GroupedKinds {
  builtIn: KindGroup[];
  custom: KindGroup[];
}

const RBAC = 'rbac.authorization.k8s.io';
const NET = 'networking.k8s.io';
const STORAGE = 'storage.k8s.io';

const PLACES: ReadonlyArray<[GroupId, string, string[]]> = [
  [
    'workloads',
    'Workloads',
    [
      ':pods',
      'apps:deployments',
      'apps:replicasets',
      'apps:statefulsets',
      'apps:daemonsets',
      'batch:jobs',
      'batch:cronjobs',
      'autoscaling:horizontalpodautoscalers',
      'policy:poddisruptionbudgets',
      ':replicationcontrollers',
      ':podtemplates',
      'apps:controllerrevisions',
    ],
  ],
  [
    'networking',
    'Networking',
    [
      ':services',
      `${NET}:ingresses`,
      `${NET}:ingressclasses`,
      'discovery.k8s.io:endpointslices',
      ':endpoints',
      `${NET}:networkpolicies`,
    ],
  ],
  [
    'config',
    'Config & storage',
    [
      ':configmaps',
      ':secrets',
      ':persistentvolumeclaims',
      ':persistentvolumes',
      `${STORAGE}:storageclasses`,
      ':resourcequotas',
      ':limitranges',
      `${STORAGE}:volumeattachments`,
      `${STORAGE}:csidrivers`,
      `${STORAGE}:csinodes`,
      `${STORAGE}:csistoragecapacities`,
    ],
  ],
  [
    'access',
    'Access control',
    [
      ':serviceaccounts',
      `${RBAC}:roles`,
      `${RBAC}:rolebindings`,
      `${RBAC}:clusterroles`,
      `${RBAC}:clusterrolebindings`,
    ],
  ],
  [
    'cluster',
    'Cluster',
    [
      ':nodes',
      ':namespaces',
      'apiextensions.k8s.io:customresourcedefinitions',
      'scheduling.k8s.io:priorityclasses',
      'node.k8s.io:runtimeclasses',
    ],
  ],
];

const PLACE = new Map<string, { group: GroupId; order: number }>(
  PLACES.flatMap(([group, , keys]) => keys.map((k, order) => [k, { group, order }] as const)),
);

const BUILT_IN_GROUPS = new Set(['', 'apps', 'batch', 'autoscaling', 'policy']);

/** A group Kubernetes itself serves: the core, the unsuffixed ones, and `*.k8s.io`. */
export function isKubernetesGroup(group: string): boolean {
  return BUILT_IN_GROUPS.has(group) || group === 'k8s.io' || group.endsWith('.k8s.io');
}

/** Where a kind goes: a built-in group id, or the API group it is a custom resource of. */
export function placeOf(k: KindEntry): { group: GroupId; order: number } | { custom: string } {
  const known = PLACE.get(`${k.group}:${k.plural}`);
  if (known && k.columns === undefined) return known;
  if (k.columns !== undefined || !isKubernetesGroup(k.group)) return { custom: k.group };
  return { group: 'cluster', order: Number.POSITIVE_INFINITY };
}

export interface Visibility {
  /** Per resourceType; a kind with no entry has no known count. */
  counts: ReadonlyMap<string, number>;
  showEmpty: boolean;
  /** The kind open now stays in the tree even when it is empty. */
  current: string | null;
}

export function groupKinds(kinds: readonly KindEntry[], v: Visibility): GroupedKinds {
  const shown = (k: KindEntry) =>
    v.showEmpty || k.resourceType === v.current || (v.counts.get(k.resourceType) ?? 1) > 0;
  const byLabel = (a: KindEntry, b: KindEntry) =>
    a.label.plural.localeCompare(b.label.plural) || a.resourceType.localeCompare(b.resourceType);
  const builtIn: KindGroup[] = PLACES.map(([id, label]) => ({ id, label, kinds: [], hidden: 0 }));
  const order = new Map<KindEntry, number>();
  const custom = new Map<string, KindGroup>();
  for (const k of kinds) {
    const place = placeOf(k);
    let target: KindGroup;
    if ('custom' in place) {
      target = custom.get(place.custom) ?? {
        id: `crd:${place.custom}`,
        label: place.custom,
        kinds: [],
        hidden: 0,
      };
      custom.set(place.custom, target);
    } else {
      target = builtIn.find((g) => g.id === place.group)!;
      order.set(k, place.order);
    }
    if (shown(k)) target.kinds.push(k);
    else target.hidden++;
  }
  for (const g of builtIn) {
    g.kinds.sort(
      (a, b) =>
        (order.get(a) ?? Number.POSITIVE_INFINITY) - (order.get(b) ?? Number.POSITIVE_INFINITY) ||
        byLabel(a, b),
    );
  }
  const customGroups = [...custom.values()].sort((a, b) => a.label.localeCompare(b.label));
  for (const g of customGroups) g.kinds.sort(byLabel);
  return { builtIn, custom: customGroups };
}
