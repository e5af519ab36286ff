import type { ResourceType } from '../../../src-shared/kube/kinds';

/** The kinds under a namespace in the tree, in the order people look for them. */
export const NAMESPACED_KINDS: readonly ResourceType[] = [
  'deployment',
  'statefulset',
  'daemonset',
  'job',
  'cronjob',
  'pod',
  'service',
];

export const KIND_LABELS: Record<ResourceType, string> = {
  node: 'Nodes',
  namespace: 'Namespaces',
  deployment: 'Deployments',
  statefulset: 'StatefulSets',
  daemonset: 'DaemonSets',
  job: 'Jobs',
  cronjob: 'CronJobs',
  pod: 'Pods',
  service: 'Services',
};
