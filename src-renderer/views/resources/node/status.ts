import type { Tone } from '../../../kube/meta';
import type { Node } from './types';

/** kubectl's STATUS column for a node: Ready, NotReady or Unknown, and SchedulingDisabled when cordoned. */
export function nodeStatus(n: Node): string {
  const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
  const base = ready?.status === 'True' ? 'Ready' : ready?.status === 'False' ? 'NotReady' : 'Unknown';
  return n.spec?.unschedulable ? `${base},SchedulingDisabled` : base;
}

/** A cordoned but ready node warns; a node that is not ready is bad. */
export function nodeTone(status: string): Tone {
  return status === 'Ready' ? 'ok' : status.startsWith('Ready') ? 'warn' : 'bad';
}

export function nodeRoles(n: Node): string {
  const roles = Object.keys(n.metadata.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length));
  return roles.length ? roles.join(',') : '<none>';
}
