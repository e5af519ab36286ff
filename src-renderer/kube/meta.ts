import type { KubeObject } from '../../src-shared/contract/models';
import type { LabelSelector } from '../../src-shared/kube/selector-text';

export type { LabelSelector };

/**
 * What every kind shares: metadata, conditions, label selectors and quantities. Each kind's own
 * shape lives beside its views (`views/resources/<kind>/types.ts`). All fields are optional: the
 * service passes manifests through as the apiserver wrote them, so nothing is guaranteed to exist.
 */

export type Meta = KubeObject['metadata'] & { deletionTimestamp?: string; generation?: number };

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastHeartbeatTime?: string;
  lastUpdateTime?: string;
}

/** Quantities by resource name (cpu, memory, pods, ephemeral-storage, …). */
export interface ResourceList {
  cpu?: string;
  memory?: string;
  [name: string]: string | undefined;
}

/** The part every pod-owning workload has: the selector that finds its pods. */
export interface Workload {
  metadata: Meta;
  spec?: { selector?: LabelSelector };
}

/** How a status word looks: ok, a warning, bad, or nothing to say. */
export type Tone = 'ok' | 'warn' | 'bad' | 'neutral';

/** Views a manifest through one of the kinds' shapes; fields stay optional, so reading them is safe. */
export function view<T>(obj: KubeObject): T {
  return obj as unknown as T;
}
