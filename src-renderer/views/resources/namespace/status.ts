import type { Tone } from '../../../kube/meta';
import type { Namespace } from './types';

export function namespacePhase(ns: Namespace): string {
  return ns.status?.phase ?? 'Unknown';
}

/** Active is the normal state; Terminating (or anything else) deserves a look. */
export function namespaceTone(phase: string): Tone {
  return phase === 'Active' ? 'ok' : 'warn';
}
