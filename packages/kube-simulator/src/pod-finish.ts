/**
 * A pod that finishes, as a Job's pod does (issue 27 kept logs): every running container exits and
 * stays terminated, and the pod's phase becomes Succeeded (all exited 0) or Failed. Only a pod whose
 * restartPolicy is Never or OnFailure finishes (OnFailure with a non-zero exit would restart: use 0).
 */
import type { SimStore } from './store';
import type { KubeObject, Pod } from './types';

export interface FinishOptions {
  /** Exit code of every container (default 0). */
  exitCode?: number;
  reason?: string;
}

export function finishPod(
  store: SimStore,
  namespace: string,
  name: string,
  opts: FinishOptions = {},
): KubeObject {
  const found = store.peek('pods', namespace, name) as Pod | undefined;
  if (!found) throw new Error(`pods "${name}" not found in namespace ${namespace}`);
  // A Job's pod: an Always pod's containers would be restarted, never finished.
  if ((found.spec.restartPolicy ?? 'Always') === 'Always')
    throw new Error(`pod ${name} has restartPolicy Always: only a Never or OnFailure pod finishes`);
  const exitCode = opts.exitCode ?? 0;
  for (const s of found.status.containerStatuses ?? []) {
    if (!s.state.running) continue;
    store.terminateContainer(namespace, name, s.name, {
      exitCode,
      ...(opts.reason !== undefined ? { reason: opts.reason } : {}),
    });
  }
  const pod = store.peek('pods', namespace, name) as Pod;
  return store.upsert({
    ...pod,
    status: { ...pod.status, phase: exitCode === 0 ? 'Succeeded' : 'Failed' },
  } as KubeObject);
}
