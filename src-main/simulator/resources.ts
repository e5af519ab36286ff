/**
 * The resource types the simulator serves. Discovery documents, routing and the store all read
 * this table, so adding a kind here is enough to have it listed, watched and discovered.
 */

export interface ResourceDef {
  /** Plural resource name used in URLs, e.g. "pods". */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  /** API group; "" is the legacy core group served under /api/v1. */
  group: string;
  version: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Extra field selector labels accepted besides metadata.name / metadata.namespace. */
  fieldLabels: readonly string[];
  /** Served from another resource's storage (events.k8s.io/v1 events read core/v1 events). */
  storage?: string;
}

const ALL = ['all'];

export const RESOURCES: readonly ResourceDef[] = [
  def('namespaces', 'Namespace', '', false, ['ns'], undefined, ['status.phase']),
  def('nodes', 'Node', '', false, ['no'], undefined, ['spec.unschedulable']),
  def('pods', 'Pod', '', true, ['po'], ALL, [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ]),
  def('services', 'Service', '', true, ['svc'], ALL, ['spec.clusterIP', 'spec.type']),
  def('events', 'Event', '', true, ['ev'], undefined, [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ]),
  def('deployments', 'Deployment', 'apps', true, ['deploy'], ALL, []),
  def('replicasets', 'ReplicaSet', 'apps', true, ['rs'], ALL, ['status.replicas']),
  def('statefulsets', 'StatefulSet', 'apps', true, ['sts'], ALL, ['status.successful']),
  def('daemonsets', 'DaemonSet', 'apps', true, ['ds'], ALL, []),
  def('jobs', 'Job', 'batch', true, [], ALL, ['status.successful']),
  def('cronjobs', 'CronJob', 'batch', true, ['cj'], ALL, []),
];

function def(
  resource: string,
  kind: string,
  group: string,
  namespaced: boolean,
  shortNames: string[],
  categories: string[] | undefined,
  fieldLabels: string[],
): ResourceDef {
  const version = 'v1';
  return {
    resource,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    group,
    version,
    namespaced,
    ...(shortNames.length > 0 ? { shortNames } : {}),
    ...(categories ? { categories } : {}),
    fieldLabels,
  };
}

export function apiVersionOf(def: ResourceDef): string {
  return def.group === '' ? def.version : `${def.group}/${def.version}`;
}

const byResource = new Map(RESOURCES.map((d) => [d.resource, d]));
const byKind = new Map(RESOURCES.map((d) => [d.kind, d]));
const byGroupResource = new Map(RESOURCES.map((d) => [`${d.group}/${d.resource}`, d]));

/** Accepts a plural resource ("pods"), a Kind ("Pod") or a singular name ("pod"). */
export function resolveResource(nameOrKind: string): ResourceDef | undefined {
  return (
    byResource.get(nameOrKind) ?? byKind.get(nameOrKind) ?? RESOURCES.find((d) => d.singular === nameOrKind)
  );
}

export function resourceForKind(kind: string): ResourceDef | undefined {
  return byKind.get(kind);
}

export function resourceInGroup(group: string, version: string, resource: string): ResourceDef | undefined {
  const d =
    group === EVENTS_V1.group && resource === 'events'
      ? EVENTS_V1
      : byGroupResource.get(`${group}/${resource}`);
  return d && d.version === version ? d : undefined;
}

/**
 * events.k8s.io/v1 is a second view of the core/v1 events; it is kept out of RESOURCES because
 * lookups by kind ("Event") must resolve to the stored core type.
 */
export const EVENTS_V1: ResourceDef = {
  resource: 'events',
  singular: 'event',
  kind: 'Event',
  listKind: 'EventList',
  group: 'events.k8s.io',
  version: 'v1',
  namespaced: true,
  shortNames: ['ev'],
  fieldLabels: [
    'regarding.kind',
    'regarding.namespace',
    'regarding.name',
    'regarding.uid',
    'reason',
    'type',
    'reportingController',
  ],
  storage: 'events',
};

export const SERVED: readonly ResourceDef[] = [...RESOURCES, EVENTS_V1];
