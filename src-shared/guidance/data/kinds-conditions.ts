import type { GuidanceEntry } from '../types';
import { CONDITIONS, EVENTS, OWNER, PODS, RESOURCES } from './actions';

/**
 * Conditions of a HorizontalPodAutoscaler and a ReplicaSet, and the Ready/Available convention
 * that custom resources follow (cert-manager, Flux, Crossplane, Cluster API, APIServices): an
 * object whose Ready or Available condition is False says why in its reason and message.
 */
export const HPA_CONDITIONS: GuidanceEntry[] = [
  {
    id: 'hpa-condition-scalingactive-false',
    subject: 'hpa-condition',
    match: 'ScalingActive',
    status: 'False',
    title: 'Autoscaler cannot read its metrics',
    severity: 'error',
    meaning:
      'The HorizontalPodAutoscaler cannot compute a replica count (reason FailedGetResourceMetric, FailedGetPodsMetric, …), so it does not scale at all: the target keeps its current size whatever the load. Reason ScalingDisabled means the target was scaled to 0, which turns autoscaling off.',
    causes: [
      'metrics-server is missing or unhealthy: the APIService v1beta1.metrics.k8s.io is not Available.',
      'A container of the target has no request for the metric (“missing request for cpu”): utilization targets need a request on every container, sidecars included.',
      'The pods are too new or not ready, so they have no metrics yet.',
      'A custom or external metric needs an adapter (prometheus-adapter, KEDA) that is not installed.',
    ],
    checks: [
      { text: 'Read the condition’s message.', action: CONDITIONS },
      { text: 'Does the metrics API answer? `kubectl -n <namespace> top pods`.' },
      { text: 'Check the requests of every container of the target’s pods.', action: RESOURCES },
    ],
  },
  {
    id: 'hpa-condition-abletoscale-false',
    subject: 'hpa-condition',
    match: 'AbleToScale',
    status: 'False',
    title: 'Autoscaler cannot read or change its target',
    severity: 'error',
    meaning:
      'The autoscaler could not get or update the scale of its scaleTargetRef (reason FailedGetScale or FailedUpdateScale), so it does nothing.',
    causes: [
      'The target does not exist, or scaleTargetRef names the wrong kind, name or apiVersion.',
      'The target kind has no scale subresource.',
      'An admission webhook or the controller’s permissions refuse the update.',
    ],
    checks: [
      { text: 'Check that the scaleTargetRef object exists.' },
      { text: 'Read the autoscaler’s events.', action: EVENTS },
    ],
  },
  {
    id: 'hpa-condition-scalinglimited-true',
    subject: 'hpa-condition',
    match: 'ScalingLimited',
    status: 'True',
    aliases: ['TooManyReplicas'],
    title: 'Autoscaler is at its maximum',
    severity: 'warning',
    meaning:
      'The autoscaler wants more replicas than maxReplicas (reason TooManyReplicas) and holds at the maximum: load above the target is no longer absorbed. (TooFewReplicas, held at minReplicas under low load, is normal.)',
    causes: [
      'Load has grown past what maxReplicas was sized for.',
      'Requests set too low make utilization read high, so the autoscaler asks for more than is needed.',
      'A metric stuck high: a pod spinning or leaking, or a slow dependency keeping workers busy.',
    ],
    checks: [
      {
        text: 'Compare current and target metrics: `kubectl -n <namespace> describe hpa <name>`.',
        action: CONDITIONS,
      },
      { text: 'Look at the target’s pods and their usage.', action: PODS },
      { text: 'If the load is real, raise maxReplicas (and check the cluster has room).' },
    ],
  },
];

export const REPLICASET_CONDITIONS: GuidanceEntry[] = [
  {
    id: 'replicaset-condition-replicafailure-true',
    subject: 'replicaset-condition',
    match: 'ReplicaFailure',
    status: 'True',
    aliases: ['FailedCreate'],
    title: 'ReplicaSet cannot create pods',
    severity: 'error',
    meaning:
      'The API server refuses the pods the ReplicaSet creates (reason FailedCreate); the message quotes the refusal. No pod appears, so this condition and the FailedCreate events are the only trace.',
    causes: [
      'A ResourceQuota is exceeded (“exceeded quota: …, requested: …, used: …, limited: …”), or it requires requests and limits the template does not set.',
      'A LimitRange minimum or maximum is violated.',
      'Pod Security admission or a validating webhook rejects the pod.',
      'The template’s service account does not exist.',
    ],
    checks: [
      { text: 'Read the message: the text after “forbidden:” names the policy.', action: CONDITIONS },
      { text: 'Quota usage: `kubectl -n <namespace> describe resourcequota`.', action: RESOURCES },
      { text: 'The Deployment that owns the ReplicaSet carries the same condition.', action: OWNER },
    ],
  },
];

export const OBJECT_CONDITIONS: GuidanceEntry[] = [
  {
    id: 'object-condition-ready-false',
    subject: 'object-condition',
    match: 'Ready',
    status: 'False',
    title: 'Not Ready, by its controller’s account',
    severity: 'error',
    meaning:
      'The controller of this kind reports the object is not ready. The condition’s reason and message are the controller’s own words and usually the whole story: cert-manager, Flux, Crossplane, Cluster API and most operators report this way.',
    causes: [
      'The controller’s work failed: an issuance refused, a reconcile or build error, a dependency not ready.',
      'An object it needs is missing: a Secret, an Issuer, a source.',
      'The controller is not running, so the condition is old: compare its observedGeneration with metadata.generation.',
    ],
    checks: [
      { text: 'Read the reason and message, and the other conditions beside it.', action: CONDITIONS },
      { text: 'Read the Warning events about the object.', action: EVENTS },
      { text: 'Read the controller’s logs: `kubectl -n <controller-namespace> logs deploy/<controller>`.' },
    ],
  },
  {
    id: 'object-condition-available-false',
    subject: 'object-condition',
    match: 'Available',
    status: 'False',
    title: 'Not Available, by its controller’s account',
    severity: 'error',
    meaning:
      'The object reports that what it provides cannot be used. For an APIService the aggregated API does not answer (FailedDiscoveryCheck, MissingEndpoints, ServiceNotFound), so every request to that group fails and tools listing all kinds report it.',
    causes: [
      'The pods behind it are down or not ready.',
      'The Service or endpoints it points at are missing.',
      'A network policy or certificate problem between the API server and the backend.',
    ],
    checks: [
      { text: 'Read the reason and message.', action: CONDITIONS },
      { text: 'Read the Warning events about the object.', action: EVENTS },
    ],
  },
];
