import { z } from 'zod';
import { defineOperation } from './define';
import { clusterParams, objectReads } from './object-reads';
import { namespaceParam, pageQuery } from './params';

/**
 * How objects hang together, for the Related pane and scripts: an object's owners, dependents,
 * what it uses and what uses it, what it selects and what selects it (`…/relations/…`); per-kind
 * object counts for the tree (`…/counts`); and the palette's jump to any object by name prefix
 * (`…/search`). All are answered from the service's watch caches, never a cluster read per request
 * (counts of kinds nobody has opened excepted, see docs/api.md). Kinds are named as everywhere: the
 * resourceType of `GET …/kinds`.
 */

/** Any kind's resourceType, resolved against the cluster's discovery by the operation. */
const kindParam = z
  .string()
  .regex(
    /^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/,
    'resourceType must be a kind’s singular name, or singular.group (letters, digits, "-" and ".")',
  )
  .meta({
    description:
      'The kind, as `GET …/kinds` names it: the lower-case singular (`configmap`), or `singular.group` (`certificate.cert-manager.io`); case-insensitive. A plural or short name is 400 invalid_resource_type with the canonical name as the hint.',
    examples: ['pod', 'deployment', 'certificate.cert-manager.io'],
  });

/** An object name as Kubernetes allows it in a path: any text but `.`, `..`, `/` and `%`. */
const objectNameParam = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(?!\.\.?$)[^/%]+$/, 'the name must be a path segment name (no "/" or "%", not "." or "..")')
  .meta({ description: 'The object’s name (RBAC names such as `system:masters` included).' });

const refFields = {
  resourceType: z.string().meta({
    description:
      'The kind as `GET …/kinds` names it. A kind the cluster does not serve (an owner whose CRD was removed) is named by its lower-cased Kind and group, e.g. `widget.example.com`.',
  }),
  namespace: z.string().optional().meta({ description: 'Absent for a cluster-scoped kind.' }),
  name: z.string(),
  uid: z.string().optional().meta({
    description: 'The object’s uid when it exists; for a missing owner, the uid its ownerReference names.',
  }),
  status: z.string().optional().meta({
    description:
      'One word as kubectl prints it: a pod’s STATUS (CrashLoopBackOff, Init:0/2, Completed), a workload’s READY count (2/3), a claim’s or volume’s phase, a node’s Ready, a Job’s Complete/Failed, else the `Ready` or `Available` condition (Ready, NotReady, Available, Unavailable). Absent when the object says nothing.',
  }),
  missing: z.literal(true).optional().meta({
    description:
      'The object is named but does not exist: its kind’s cache has listed and holds no object of that name (or, for an owner, none with that uid). Never set from a kind that could not be read; such kinds are in `gaps`.',
  }),
};

export const relationRef = z
  .strictObject({
    ...refFields,
    via: z.array(z.string()).optional().meta({
      description:
        'uses, usedBy, selects and selectedBy: the fields that name the related object, as paths in the object that names it, e.g. `spec.volumes[config]`, `spec.containers[app].env[DB_PASSWORD]`, `spec.template.spec.serviceAccountName`, `spec.scaleTargetRef`; a claim’s volume and StorageClass read `persistentvolumeclaim/<name>: spec.volumeName`.',
    }),
    optional: z.literal(true).optional().meta({
      description:
        'uses: every reference to it says `optional: true`, so the pod starts without it (a missing optional object explains no failure).',
    }),
    missingKeys: z.array(z.string()).optional().meta({
      description:
        'uses: the keys a pod requires (configMapKeyRef, secretKeyRef, a volume’s items, none marked optional) that the ConfigMap or Secret does not hold: the data behind “couldn’t find key X in Secret Y”.',
    }),
  })
  .meta({ id: 'RelationRef' });
export type RelationRef = z.infer<typeof relationRef>;

/** Outside the getter, which zod reads once: what it holds is fixed when the module loads. */
const CHILDREN = {
  description:
    'The objects whose ownerReferences name this one, ordered by resourceType, namespace and name; absent when none (or when cut, see truncated).',
};

/**
 * One node of the dependents tree. Declared without spreads: a recursive schema's type is inferred
 * only from a literal shape (zod 4's getter form).
 */
export const dependentRef = z.strictObject({
  resourceType: refFields.resourceType,
  namespace: refFields.namespace,
  name: refFields.name,
  uid: refFields.uid,
  status: refFields.status,
  missing: refFields.missing,
  get children() {
    return z.array(dependentRef).optional().meta(CHILDREN);
  },
  truncated: z.literal(true).optional().meta({
    description:
      'This object has dependents the answer leaves out: the tree’s depth (4) or size (1,000 refs) bound was reached here.',
  }),
});
z.globalRegistry.add(dependentRef, { id: 'DependentRef' });
export type DependentRef = z.infer<typeof dependentRef>;

export const relationGap = z
  .strictObject({
    resourceType: z.string(),
    detail: z
      .string()
      .meta({ description: 'Why it could not be read: the cluster’s problem, or not served.' }),
  })
  .meta({ id: 'RelationGap' });

/** One relation's flat list of refs, described by what it holds (a fresh schema for each: its own description). */
const refList = (description: string) => z.array(relationRef).meta({ description });
/** How many refs a flat list left off; absent when it was not cut. */
const leftOffCount = () => z.number().int().min(1).optional();

export const relations = z
  .strictObject({
    object: relationRef,
    owners: refList(
      'The controller ownerReferences up to the root, nearest first: a Pod’s [ReplicaSet, Deployment]. A missing owner ends the chain, marked missing.',
    ),
    dependents: z.array(dependentRef).meta({
      description:
        'The tree of objects whose ownerReferences name this one (Deployment → ReplicaSets → Pods), at most 4 levels and 1,000 refs in all, breadth first.',
    }),
    uses: refList(
      'The objects it names: for a pod or a workload’s pod template, the ConfigMaps, Secrets and claims of its volumes (projected and ephemeral ones too), env and envFrom, each claim’s PersistentVolume and StorageClass, its ServiceAccount, Node, PriorityClass and image pull secrets; a claim’s volume and StorageClass; a volume’s StorageClass and claim; an Ingress’s TLS Secrets and IngressClass; a ServiceAccount’s Secrets.',
    ),
    usedBy: refList(
      'What names this object in its uses: pods, and the workloads with no controller above them whose pod template does (a Deployment, not its ReplicaSets); claims, volumes, Ingresses and ServiceAccounts as their uses say.',
    ),
    selects: refList(
      'A Service’s, PodDisruptionBudget’s or NetworkPolicy’s pods by its selector, an HPA’s scaleTargetRef, an Ingress’s backend Services (and resources).',
    ),
    selectedBy: refList(
      'The inverse of selects: a pod’s Services, PodDisruptionBudgets and NetworkPolicies; a workload’s HPAs; a Service’s Ingresses.',
    ),
    truncated: z.literal(true).optional().meta({
      description:
        'Something was cut: a dependents node says where, and leftOff how many refs a flat list (at most 1,000 each) left off.',
    }),
    leftOff: z
      .strictObject({
        uses: leftOffCount(),
        usedBy: leftOffCount(),
        selects: leftOffCount(),
        selectedBy: leftOffCount(),
      })
      .optional()
      .meta({ description: 'How many refs each cut flat list left off, in its order.' }),
    gaps: z.array(relationGap).optional().meta({
      description:
        'Kinds a relation needed that could not be read (not served, forbidden, failing): nothing of them is in the answer, and nothing is marked missing from them.',
    }),
    hidden: z.number().int().min(1).optional().meta({
      description:
        'With `--authorize rbac`: how many related objects were left out because the caller may not `get` them (their kind in their namespace); a dependents node left out counts with its subtree. Absent when none.',
    }),
  })
  .meta({ id: 'Relations' });
export type Relations = z.infer<typeof relations>;

export const kindCount = z
  .strictObject({
    resourceType: z.string(),
    count: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Absent when it could not be read (see error).' }),
    exact: z.boolean().meta({
      description:
        'False when the count is a lower bound: the cluster answered a list with more to come but no remainingItemCount.',
    }),
    source: z.enum(['cache', 'list', 'snapshot']).meta({
      description:
        '`cache`: the kind’s running watch cache, as of now. `list`: one `limit=1` list whose `metadata.remainingItemCount` gives the rest, at most 15 s old. `snapshot`: the opened snapshot’s file.',
    }),
    error: z.string().optional().meta({ description: 'Why there is no count: the cluster’s problem.' }),
  })
  .meta({ id: 'KindCount' });
export type KindCount = z.infer<typeof kindCount>;

export const searchHit = z
  .strictObject({
    resourceType: refFields.resourceType,
    namespace: refFields.namespace,
    name: refFields.name,
    uid: refFields.uid,
    status: refFields.status,
  })
  .meta({ id: 'SearchHit' });
export type SearchHit = z.infer<typeof searchHit>;

/** A comma-separated list of resourceTypes; each is resolved (and refused) as the path's would be. */
const resourceTypesQuery = z
  .string()
  .regex(/^[A-Za-z0-9.,-]{1,2000}$/, 'resourceTypes must be resourceTypes separated by commas')
  .optional()
  .meta({ description: 'Comma-separated resourceTypes to restrict the answer to, e.g. `pod,configmap`.' });

const RELATIONS = '/v1/workspaces/:workspaceId/observability/:clusterId/relations';

const relationReads = objectReads({
  base: RELATIONS,
  result: relations,
  resourceType: kindParam,
  namespacedResourceType: kindParam,
  resourceName: objectNameParam,
  summary:
    'The owners, dependents, uses, usedBy, selects and selectedBy of one object, from the watch caches. A namespaced kind named without a namespace is found across namespaces (409 when several hold the name).',
  namespacedSummary:
    'The relations of one object of a namespaced kind in a namespace; a cluster-scoped kind is 400 invalid_resource_type.',
});

export const relationsOperations = {
  getRelations: relationReads.anywhere,
  getNamespacedRelations: relationReads.namespaced,
  listCounts: defineOperation({
    method: 'GET',
    path: '/v1/workspaces/:workspaceId/observability/:clusterId/counts',
    summary:
      'How many objects of each listable kind the cluster holds (in a namespace: of each namespaced kind), ordered by resourceType: from a running cache, else a `limit=1` list, without starting a watch.',
    auth: 'credential',
    params: z.strictObject(clusterParams),
    query: z.strictObject({
      namespace: namespaceParam.optional(),
      resourceTypes: resourceTypesQuery,
      ...pageQuery,
    }),
    body: z.undefined(),
    result: z.array(kindCount),
    paginated: true,
  }),
  searchObjects: defineOperation({
    method: 'GET',
    path: '/v1/workspaces/:workspaceId/observability/:clusterId/search',
    summary:
      'Objects whose name starts with `q` (case-insensitive) across the common kinds and every kind whose cache runs, from the caches: exact names first, then by name, resourceType and namespace.',
    auth: 'credential',
    params: z.strictObject(clusterParams),
    query: z.strictObject({
      q: z
        .string()
        .min(1, 'q must not be empty')
        .max(253)
        .meta({ description: 'The start of a name, e.g. `checkout-7`.' }),
      namespace: namespaceParam.optional(),
      resourceTypes: resourceTypesQuery,
      ...pageQuery,
    }),
    body: z.undefined(),
    result: z.array(searchHit),
    paginated: true,
  }),
} as const;
