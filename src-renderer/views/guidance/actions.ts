import { createContext, useContext } from 'react';
import type { GuidanceAction, GuidanceFieldPath } from '../../../src-shared/guidance';
import type { ResourceType } from '../../../src-shared/kube/kinds';

/**
 * What a guidance button does depends on where it is shown: in a pod's pane "Node" opens that
 * pod's node, in a node's pane it scrolls to the node's own conditions. The pane provides this.
 */
export interface ActionTarget {
  run(action: GuidanceAction, container?: string): void;
  /** Why the action cannot be done here, or null when it can. */
  unavailable(action: GuidanceAction): string | null;
}

export const GuidanceActions = createContext<ActionTarget | null>(null);

export function useGuidanceActions(): ActionTarget | null {
  return useContext(GuidanceActions);
}

/** The detail-pane section that shows a field a check points at; undefined: show it in the YAML. */
export function sectionForField(path: GuidanceFieldPath, kind: ResourceType): string | undefined {
  if (kind === 'node') {
    if (path === 'spec.taints' || path === 'spec.unschedulable') return 'taints';
    if (path === 'status.nodeInfo') return 'system-info';
    return undefined;
  }
  if (kind !== 'pod') {
    if (path === 'spec.replicas') return 'replicas';
    if (path === 'spec.strategy' || path === 'spec.progressDeadlineSeconds') return 'strategy';
    if (path === 'spec.backoffLimit' || path === 'spec.podFailurePolicy') return 'job';
    if (
      path.startsWith('spec.schedule') ||
      path === 'spec.startingDeadlineSeconds' ||
      path === 'spec.concurrencyPolicy'
    )
      return 'schedule';
    if (path.startsWith('spec.containers') || path === 'spec.imagePullSecrets') return 'template';
    return undefined;
  }
  if (path.startsWith('spec.containers[]')) return 'containers';
  if (path === 'spec.initContainers') return 'init-containers';
  if (path === 'spec.imagePullSecrets' || path === 'spec.serviceAccountName') return 'pull-secrets';
  if (
    path === 'spec.nodeName' ||
    path === 'spec.nodeSelector' ||
    path === 'spec.affinity' ||
    path === 'spec.tolerations' ||
    path === 'spec.topologySpreadConstraints' ||
    path === 'spec.priorityClassName' ||
    path === 'spec.schedulingGates'
  )
    return 'scheduling';
  if (path === 'status.message' || path === 'status.qosClass' || path === 'spec.restartPolicy')
    return 'status';
  if (path === 'spec.securityContext' || path === 'spec.terminationGracePeriodSeconds') return 'scheduling';
  if (path === 'spec.activeDeadlineSeconds' || path === 'spec.readinessGates') return 'status';
  return undefined;
}
