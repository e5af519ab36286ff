/**
 * Types for the troubleshooting knowledge base. Entries are plain data so the
 * service can serve them over the API and the renderer can show them offline.
 */

export type GuidanceSubject =
  | 'pod-phase'
  | 'container-waiting'
  | 'container-terminated'
  | 'node-condition'
  | 'deployment-condition'
  | 'pod-condition'
  | 'event-reason'
  | 'exit-code'
  // Kinds beyond the pod's world (issue 23): a claim's phase, an Ingress's address and backends,
  // an autoscaler's and a ReplicaSet's conditions, and any object's Ready/Available condition.
  | 'pvc-status'
  | 'ingress-status'
  | 'hpa-condition'
  | 'replicaset-condition'
  | 'object-condition';

export type GuidanceSeverity = 'info' | 'warning' | 'error';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** Object fields a check can point at; the UI highlights that part of the spec/status. */
export type GuidanceFieldPath =
  | 'spec.containers[].image'
  | 'spec.containers[].imagePullPolicy'
  | 'spec.containers[].command'
  | 'spec.containers[].args'
  | 'spec.containers[].env'
  | 'spec.containers[].envFrom'
  | 'spec.containers[].ports'
  | 'spec.containers[].securityContext'
  | 'spec.containers[].lifecycle'
  | 'spec.initContainers'
  | 'spec.imagePullSecrets'
  | 'spec.serviceAccountName'
  | 'spec.nodeName'
  | 'spec.nodeSelector'
  | 'spec.affinity'
  | 'spec.tolerations'
  | 'spec.topologySpreadConstraints'
  | 'spec.priorityClassName'
  | 'spec.schedulingGates'
  | 'spec.readinessGates'
  | 'spec.securityContext'
  | 'spec.restartPolicy'
  | 'spec.terminationGracePeriodSeconds'
  | 'spec.activeDeadlineSeconds'
  | 'status.message'
  | 'status.qosClass'
  // Node fields
  | 'spec.taints'
  | 'spec.unschedulable'
  | 'status.nodeInfo'
  // Workload fields
  | 'spec.replicas'
  | 'spec.strategy'
  | 'spec.progressDeadlineSeconds'
  | 'spec.backoffLimit'
  | 'spec.podFailurePolicy'
  | 'spec.schedule'
  | 'spec.startingDeadlineSeconds'
  | 'spec.concurrencyPolicy';

/**
 * A pointer at data inside Skiff that answers a check's question. Every variant is
 * renderable as one button (see `describeAction`); the UI decides what it opens
 * relative to the object the guidance is shown for.
 */
export type GuidanceAction =
  /** Container logs; `previous` = the last terminated instance (`kubectl logs --previous`). */
  | { kind: 'open-logs'; previous: boolean }
  | { kind: 'show-field'; path: GuidanceFieldPath }
  /** Events involving the object. */
  | { kind: 'open-events' }
  /** The controlling owner (ReplicaSet → Deployment, Job → CronJob, …). */
  | { kind: 'open-owner' }
  /** The node the pod runs on (or the node itself). */
  | { kind: 'open-node' }
  /** Node capacity/allocatable vs. the sum of pod requests on it. */
  | { kind: 'open-node-allocatable' }
  /** Pods of this workload, or pods on this node. */
  | { kind: 'open-pods' }
  /** All nodes, with taints, labels and conditions. */
  | { kind: 'open-nodes' }
  | { kind: 'show-conditions' }
  | { kind: 'show-probes' }
  | { kind: 'show-volumes' }
  | { kind: 'show-resources' };

/**
 * The one object a check is about, so the UI can link to it: `resourceType` is the canonical
 * lower-case singular (`configmap`, `persistentvolumeclaim`, `certificate.cert-manager.io`).
 * Knowledge-base entries are generic and never carry one; an explanation of a concrete object does.
 */
export type GuidanceRef = {
  resourceType: string;
  /** Absent for a cluster-scoped kind. */
  namespace?: string;
  name: string;
  /** True when the object was looked up and does not exist; absent when it exists or was not looked up. */
  missing?: boolean;
};

export type GuidanceCheck = {
  /**
   * What to look at, often with a kubectl command. Commands use the placeholders
   * `<namespace>`, `<pod>`, `<container>`, `<node>` and `<name>`; see `fillPlaceholders`.
   */
  text: string;
  action?: GuidanceAction;
  ref?: GuidanceRef;
};

export type GuidanceEntry = {
  /** Stable, unique; safe to use as a React key or URL fragment. */
  id: string;
  subject: GuidanceSubject;
  /** The phase, reason, condition type or exit code this entry explains (exact API spelling). */
  match: string;
  /** For condition subjects: the condition status this entry explains (e.g. Ready=Unknown). */
  status?: ConditionStatus;
  /** Other spellings that mean the same thing, e.g. a condition's `reason` values. */
  aliases?: readonly string[];
  title: string;
  severity: GuidanceSeverity;
  meaning: string;
  causes: string[];
  checks: GuidanceCheck[];
};

/** A short label for the button that performs `action`. */
export function describeAction(action: GuidanceAction): string {
  switch (action.kind) {
    case 'open-logs':
      return action.previous ? 'Logs of the previous container' : 'Logs';
    case 'show-field':
      return `Show ${action.path}`;
    case 'open-events':
      return 'Events';
    case 'open-owner':
      return 'Owner';
    case 'open-node':
      return 'Node';
    case 'open-node-allocatable':
      return 'Node capacity vs. requests';
    case 'open-pods':
      return 'Pods';
    case 'open-nodes':
      return 'All nodes';
    case 'show-conditions':
      return 'Conditions';
    case 'show-probes':
      return 'Probes';
    case 'show-volumes':
      return 'Volumes';
    case 'show-resources':
      return 'Requests and limits';
  }
}

export type PlaceholderValues = {
  namespace?: string;
  pod?: string;
  container?: string;
  node?: string;
  name?: string;
};

/** Substitutes known placeholders in a check's text; unknown ones stay visible. */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  return text.replace(/<(namespace|pod|container|node|name)>/g, (whole, key: keyof PlaceholderValues) => {
    return values[key] ?? whole;
  });
}
