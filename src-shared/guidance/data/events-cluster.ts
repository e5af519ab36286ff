import type { GuidanceEntry } from '../types';
import { EVENTS, field, NODES, PODS, RESOURCES } from './actions';

/** Autoscaling, Service networking and node-lifecycle events from cluster-level controllers. */
export const CLUSTER_EVENTS: GuidanceEntry[] = [
  {
    id: 'event-successfulrescale',
    subject: 'event-reason',
    match: 'SuccessfulRescale',
    title: 'Autoscaler changed replicas',
    severity: 'info',
    meaning:
      'The HorizontalPodAutoscaler set a new size ("New size: 5; reason: cpu resource utilization (percentage of request) above target").',
    causes: ['Load changed relative to the target.'],
    checks: [
      {
        text: 'Review the HPA: `kubectl -n <namespace> describe hpa <name>`.',
        action: field('spec.replicas'),
      },
    ],
  },
  {
    id: 'event-failedgetresourcemetric',
    subject: 'event-reason',
    match: 'FailedGetResourceMetric',
    aliases: ['FailedComputeMetricsReplicas', 'FailedGetPodsMetric', 'FailedGetExternalMetric'],
    title: 'Autoscaler cannot read metrics',
    severity: 'warning',
    meaning: 'The HPA could not compute a desired size, so it does not scale.',
    causes: [
      'metrics-server is missing or unhealthy ("no metrics returned from resource metrics API"); check `kubectl top pods`.',
      'A container has no request for the metric ("missing request for cpu in container …") — utilization targets need requests on every container.',
      'Pods are too new to have metrics yet.',
    ],
    checks: [
      { text: 'Check requests on every container, including sidecars.', action: RESOURCES },
      { text: 'Check metrics-server: `kubectl get apiservice v1beta1.metrics.k8s.io`.' },
    ],
  },
  {
    id: 'event-nottriggerscaleup',
    subject: 'event-reason',
    match: 'NotTriggerScaleUp',
    title: 'Cluster autoscaler will not add a node',
    severity: 'warning',
    meaning:
      'The cluster autoscaler found no node group whose new node would fit this Pending pod ("pod didn\'t trigger scale-up").',
    causes: [
      'Requests larger than any node type in the groups.',
      'Selectors/taints/zones that no node group template matches.',
      'Node groups at their max size.',
    ],
    checks: [
      { text: "Check the pod's requests and selectors.", action: RESOURCES },
      {
        text: 'Check node group limits: `kubectl -n kube-system get cm cluster-autoscaler-status -o yaml`.',
        action: NODES,
      },
    ],
  },
  {
    id: 'event-triggeredscaleup',
    subject: 'event-reason',
    match: 'TriggeredScaleUp',
    title: 'Cluster autoscaler is adding a node',
    severity: 'info',
    meaning: 'A node is being added for this pending pod; it usually takes a few minutes to become Ready.',
    causes: ['No existing node had room.'],
    checks: [{ text: 'Watch for the new node to register and become Ready.', action: NODES }],
  },
  {
    id: 'event-syncloadbalancerfailed',
    subject: 'event-reason',
    match: 'SyncLoadBalancerFailed',
    title: 'Cloud load balancer could not be set up',
    severity: 'error',
    meaning:
      'The cloud controller failed to create or update the LoadBalancer for a Service; EXTERNAL-IP stays <pending>.',
    causes: [
      'Cloud quota, missing IAM permissions, or no suitable subnets (untagged subnets on AWS).',
      'Invalid or conflicting service annotations, or a requested static IP that is unavailable.',
    ],
    checks: [
      {
        text: 'Read the message; then check annotations: `kubectl -n <namespace> get svc <name> -o yaml`.',
        action: EVENTS,
      },
    ],
  },
  {
    id: 'event-failedtoupdateendpoint',
    subject: 'event-reason',
    match: 'FailedToUpdateEndpoint',
    aliases: ['FailedToUpdateEndpointSlices'],
    title: 'Endpoints could not be updated',
    severity: 'warning',
    meaning:
      "The endpoints controller could not write the Service's endpoints; traffic may go to stale pods.",
    causes: [
      'API server conflicts or overload; usually transient.',
      'A webhook intercepting Endpoints objects.',
    ],
    checks: [
      {
        text: 'Compare `kubectl -n <namespace> get endpointslices -l kubernetes.io/service-name=<name>` with ready pods.',
        action: PODS,
      },
    ],
  },
  {
    id: 'event-registerednode',
    subject: 'event-reason',
    match: 'RegisteredNode',
    title: 'Node registered',
    severity: 'info',
    meaning: 'The node controller registered the node in the cluster.',
    causes: ['A new node joined (scale-up, replacement).'],
    checks: [{ text: 'Check that it becomes Ready and gets its CNI pods.', action: NODES }],
  },
  {
    id: 'event-removingnode',
    subject: 'event-reason',
    match: 'RemovingNode',
    title: 'Node removed',
    severity: 'info',
    meaning:
      'The node controller is removing the node because its machine no longer exists in the cloud provider.',
    causes: ['Scale-down, instance termination, spot reclaim.'],
    checks: [{ text: 'Check that its pods were rescheduled.', action: PODS }],
  },
  {
    id: 'event-cidrnotavailable',
    subject: 'event-reason',
    match: 'CIDRNotAvailable',
    title: 'No pod CIDR left for the node',
    severity: 'error',
    meaning:
      'The node IPAM controller could not assign a pod CIDR; the node cannot run pods with networking.',
    causes: [
      'The cluster CIDR is exhausted for the configured node CIDR mask size (e.g. a /16 cluster CIDR with /24 per node allows 256 nodes).',
    ],
    checks: [
      {
        text: 'Compare node count with the cluster CIDR size; see `kubectl get nodes -o custom-columns=NAME:.metadata.name,CIDR:.spec.podCIDR`.',
        action: NODES,
      },
    ],
  },
];
