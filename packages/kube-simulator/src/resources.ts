/**
 * The built-in resource types of a Kubernetes 1.31 apiserver, one row each: group, version, names,
 * scope, verbs, short names, categories and subresources as that apiserver's discovery reports
 * them. Discovery documents, routing and the store all read this table (through each store's
 * SimKinds, which adds the kinds of CustomResourceDefinitions), so a row here is enough to have a
 * kind discovered, listed and watched. Rows are in the apiserver's own order: groups by priority,
 * resources by name within a group version.
 */

interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface SubresourceDef {
  /** e.g. "status", "scale", "log". */
  name: string;
  verbs: readonly string[];
  /** What the subresource answers with; undefined when that is the parent's own kind. */
  responseKind?: GroupVersionKind;
}

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
  /** The verbs discovery reports, as the real apiserver reports them (see server.ts for what is served). */
  verbs: readonly string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: readonly SubresourceDef[];
  /** Extra field selector labels accepted besides metadata.name / metadata.namespace. */
  fieldLabels: readonly string[];
  /**
   * The store's table for this kind. Every version of one kind shares it (autoscaling v2 and v1,
   * a CRD's versions); objects go out with the requested version's apiVersion.
   */
  key: string;
  /** Served from another kind's table, converted on the way out (events.k8s.io/v1 events). */
  storage?: string;
}

export const FULL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const NO_DELETECOLLECTION = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const CREATE_ONLY = ['create'];
const PROXY_VERBS = ['create', 'delete', 'get', 'patch', 'update'];
const STATUS_VERBS = ['get', 'patch', 'update'];
const ALL = ['all'];
const API_EXTENSIONS = ['api-extensions'];

const gvk = (group: string, version: string, kind: string): GroupVersionKind => ({ group, version, kind });
const status: SubresourceDef = { name: 'status', verbs: STATUS_VERBS };
const scale: SubresourceDef = {
  name: 'scale',
  verbs: STATUS_VERBS,
  responseKind: gvk('autoscaling', 'v1', 'Scale'),
};

interface RowOptions {
  shortNames?: string[];
  categories?: string[];
  verbs?: readonly string[];
  subresources?: readonly SubresourceDef[];
  fieldLabels?: readonly string[];
  /** Default: the lower-cased kind plus "s". */
  plural?: string;
  key?: string;
}

function row(gv: string, kind: string, namespaced: boolean, opts: RowOptions = {}): ResourceDef {
  const [group, version] = gv.includes('/') ? (gv.split('/') as [string, string]) : ['', gv];
  const resource = opts.plural ?? `${kind.toLowerCase()}s`;
  return {
    resource,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    group,
    version,
    namespaced,
    verbs: opts.verbs ?? FULL_VERBS,
    ...(opts.shortNames ? { shortNames: opts.shortNames } : {}),
    ...(opts.categories ? { categories: opts.categories } : {}),
    ...(opts.subresources ? { subresources: opts.subresources } : {}),
    fieldLabels: opts.fieldLabels ?? [],
    key: opts.key ?? resource,
  };
}

const POD_SUBRESOURCES: SubresourceDef[] = [
  { name: 'attach', verbs: ['create', 'get'], responseKind: gvk('', 'v1', 'PodAttachOptions') },
  { name: 'binding', verbs: CREATE_ONLY, responseKind: gvk('', 'v1', 'Binding') },
  { name: 'ephemeralcontainers', verbs: STATUS_VERBS },
  { name: 'eviction', verbs: CREATE_ONLY, responseKind: gvk('policy', 'v1', 'Eviction') },
  { name: 'exec', verbs: ['create', 'get'], responseKind: gvk('', 'v1', 'PodExecOptions') },
  { name: 'log', verbs: ['get'] },
  { name: 'portforward', verbs: ['create', 'get'], responseKind: gvk('', 'v1', 'PodPortForwardOptions') },
  { name: 'proxy', verbs: PROXY_VERBS, responseKind: gvk('', 'v1', 'PodProxyOptions') },
  status,
];

export const RESOURCES: readonly ResourceDef[] = [
  // core/v1
  row('v1', 'Binding', true, { verbs: CREATE_ONLY }),
  row('v1', 'ComponentStatus', false, {
    plural: 'componentstatuses',
    shortNames: ['cs'],
    verbs: ['get', 'list'],
  }),
  row('v1', 'ConfigMap', true, { shortNames: ['cm'] }),
  row('v1', 'Endpoints', true, { plural: 'endpoints', shortNames: ['ep'] }),
  row('v1', 'Event', true, {
    shortNames: ['ev'],
    fieldLabels: [
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
    ],
  }),
  row('v1', 'LimitRange', true, { shortNames: ['limits'] }),
  row('v1', 'Namespace', false, {
    shortNames: ['ns'],
    verbs: NO_DELETECOLLECTION,
    subresources: [{ name: 'finalize', verbs: ['update'] }, status],
    fieldLabels: ['status.phase'],
  }),
  row('v1', 'Node', false, {
    shortNames: ['no'],
    subresources: [
      { name: 'proxy', verbs: PROXY_VERBS, responseKind: gvk('', 'v1', 'NodeProxyOptions') },
      status,
    ],
    fieldLabels: ['spec.unschedulable'],
  }),
  row('v1', 'PersistentVolumeClaim', true, { shortNames: ['pvc'], subresources: [status] }),
  row('v1', 'PersistentVolume', false, { shortNames: ['pv'], subresources: [status] }),
  row('v1', 'Pod', true, {
    shortNames: ['po'],
    categories: ALL,
    subresources: POD_SUBRESOURCES,
    fieldLabels: [
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'status.phase',
      'status.podIP',
      'status.nominatedNodeName',
    ],
  }),
  row('v1', 'PodTemplate', true),
  row('v1', 'ReplicationController', true, {
    shortNames: ['rc'],
    categories: ALL,
    subresources: [scale, status],
  }),
  row('v1', 'ResourceQuota', true, { shortNames: ['quota'], subresources: [status] }),
  row('v1', 'Secret', true, { fieldLabels: ['type'] }),
  row('v1', 'ServiceAccount', true, {
    shortNames: ['sa'],
    subresources: [
      { name: 'token', verbs: CREATE_ONLY, responseKind: gvk('authentication.k8s.io', 'v1', 'TokenRequest') },
    ],
  }),
  row('v1', 'Service', true, {
    shortNames: ['svc'],
    categories: ALL,
    subresources: [
      { name: 'proxy', verbs: PROXY_VERBS, responseKind: gvk('', 'v1', 'ServiceProxyOptions') },
      status,
    ],
    fieldLabels: ['spec.clusterIP', 'spec.type'],
  }),
  // apiregistration.k8s.io/v1
  row('apiregistration.k8s.io/v1', 'APIService', false, {
    plural: 'apiservices',
    categories: API_EXTENSIONS,
    subresources: [status],
  }),
  // apps/v1
  row('apps/v1', 'ControllerRevision', true),
  row('apps/v1', 'DaemonSet', true, { shortNames: ['ds'], categories: ALL, subresources: [status] }),
  row('apps/v1', 'Deployment', true, {
    shortNames: ['deploy'],
    categories: ALL,
    subresources: [scale, status],
  }),
  row('apps/v1', 'ReplicaSet', true, {
    shortNames: ['rs'],
    categories: ALL,
    subresources: [scale, status],
    fieldLabels: ['status.replicas'],
  }),
  row('apps/v1', 'StatefulSet', true, {
    shortNames: ['sts'],
    categories: ALL,
    subresources: [scale, status],
    fieldLabels: ['status.successful'],
  }),
  // authentication.k8s.io/v1, authorization.k8s.io/v1: create-only reviews
  row('authentication.k8s.io/v1', 'SelfSubjectReview', false, { verbs: CREATE_ONLY }),
  row('authentication.k8s.io/v1', 'TokenReview', false, { verbs: CREATE_ONLY }),
  row('authorization.k8s.io/v1', 'LocalSubjectAccessReview', true, { verbs: CREATE_ONLY }),
  row('authorization.k8s.io/v1', 'SelfSubjectAccessReview', false, { verbs: CREATE_ONLY }),
  row('authorization.k8s.io/v1', 'SelfSubjectRulesReview', false, { verbs: CREATE_ONLY }),
  row('authorization.k8s.io/v1', 'SubjectAccessReview', false, { verbs: CREATE_ONLY }),
  // autoscaling: v2 is preferred; v1 serves the same objects
  row('autoscaling/v2', 'HorizontalPodAutoscaler', true, {
    shortNames: ['hpa'],
    categories: ALL,
    subresources: [status],
  }),
  row('autoscaling/v1', 'HorizontalPodAutoscaler', true, {
    shortNames: ['hpa'],
    categories: ALL,
    subresources: [status],
  }),
  // batch/v1
  row('batch/v1', 'CronJob', true, { shortNames: ['cj'], categories: ALL, subresources: [status] }),
  row('batch/v1', 'Job', true, {
    categories: ALL,
    subresources: [status],
    fieldLabels: ['status.successful'],
  }),
  // certificates.k8s.io/v1
  row('certificates.k8s.io/v1', 'CertificateSigningRequest', false, {
    shortNames: ['csr'],
    subresources: [{ name: 'approval', verbs: STATUS_VERBS }, status],
  }),
  // networking.k8s.io/v1
  row('networking.k8s.io/v1', 'IngressClass', false, { plural: 'ingressclasses' }),
  row('networking.k8s.io/v1', 'Ingress', true, {
    plural: 'ingresses',
    shortNames: ['ing'],
    subresources: [status],
  }),
  row('networking.k8s.io/v1', 'NetworkPolicy', true, { plural: 'networkpolicies', shortNames: ['netpol'] }),
  // policy/v1
  row('policy/v1', 'PodDisruptionBudget', true, { shortNames: ['pdb'], subresources: [status] }),
  // rbac.authorization.k8s.io/v1
  row('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', false),
  row('rbac.authorization.k8s.io/v1', 'ClusterRole', false),
  row('rbac.authorization.k8s.io/v1', 'RoleBinding', true),
  row('rbac.authorization.k8s.io/v1', 'Role', true),
  // storage.k8s.io/v1
  row('storage.k8s.io/v1', 'CSIDriver', false),
  row('storage.k8s.io/v1', 'CSINode', false),
  row('storage.k8s.io/v1', 'CSIStorageCapacity', true, { plural: 'csistoragecapacities' }),
  row('storage.k8s.io/v1', 'StorageClass', false, { plural: 'storageclasses', shortNames: ['sc'] }),
  row('storage.k8s.io/v1', 'VolumeAttachment', false, { subresources: [status] }),
  // admissionregistration.k8s.io/v1
  row('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration', false, {
    categories: API_EXTENSIONS,
  }),
  row('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', false, {
    plural: 'validatingadmissionpolicies',
    categories: API_EXTENSIONS,
    subresources: [status],
  }),
  row('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicyBinding', false, {
    categories: API_EXTENSIONS,
  }),
  row('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', false, {
    categories: API_EXTENSIONS,
  }),
  // apiextensions.k8s.io/v1
  row('apiextensions.k8s.io/v1', 'CustomResourceDefinition', false, {
    shortNames: ['crd', 'crds'],
    categories: API_EXTENSIONS,
    subresources: [status],
  }),
  // scheduling.k8s.io/v1, coordination.k8s.io/v1, node.k8s.io/v1, discovery.k8s.io/v1
  row('scheduling.k8s.io/v1', 'PriorityClass', false, { plural: 'priorityclasses', shortNames: ['pc'] }),
  row('coordination.k8s.io/v1', 'Lease', true),
  row('node.k8s.io/v1', 'RuntimeClass', false, { plural: 'runtimeclasses' }),
  row('discovery.k8s.io/v1', 'EndpointSlice', true),
  // flowcontrol.apiserver.k8s.io/v1
  row('flowcontrol.apiserver.k8s.io/v1', 'FlowSchema', false, { subresources: [status] }),
  row('flowcontrol.apiserver.k8s.io/v1', 'PriorityLevelConfiguration', false, { subresources: [status] }),
];

/** The order the apiserver lists its built-in groups in (/apis and aggregated discovery). */
export const GROUP_ORDER: readonly string[] = [
  '',
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io',
];

export function apiVersionOf(def: Pick<ResourceDef, 'group' | 'version'>): string {
  return def.group === '' ? def.version : `${def.group}/${def.version}`;
}

/** A kind the store keeps objects of: one whose verbs include list. */
export function isStored(def: ResourceDef): boolean {
  return def.verbs.includes('list');
}

// The first row of a name wins: a kind's preferred version comes first.
const byResource = new Map<string, ResourceDef>();
const byKind = new Map<string, ResourceDef>();
for (const d of RESOURCES) {
  if (!byResource.has(d.resource)) byResource.set(d.resource, d);
  if (!byKind.has(d.kind)) byKind.set(d.kind, d);
}

/** Among the built-ins: a plural resource ("pods"), a Kind ("Pod") or a singular name ("pod"). */
export function resolveResource(nameOrKind: string): ResourceDef | undefined {
  return (
    byResource.get(nameOrKind) ?? byKind.get(nameOrKind) ?? RESOURCES.find((d) => d.singular === nameOrKind)
  );
}

/** Among the built-ins: the kind's preferred version (the first row of it). */
export function resourceForKind(kind: string): ResourceDef | undefined {
  return byKind.get(kind);
}

/**
 * events.k8s.io/v1 is a second view of the core/v1 events; it is kept out of RESOURCES because
 * lookups by kind ("Event") must resolve to the stored core type.
 */
const EVENTS_V1: ResourceDef = {
  resource: 'events',
  singular: 'event',
  kind: 'Event',
  listKind: 'EventList',
  group: 'events.k8s.io',
  version: 'v1',
  namespaced: true,
  verbs: FULL_VERBS,
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
  key: 'events',
  storage: 'events',
};

export const SERVED: readonly ResourceDef[] = [...RESOURCES, EVENTS_V1];
