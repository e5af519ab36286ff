/**
 * The one word (or count) a tree shows beside an object, in the words kubectl prints: a pod's
 * STATUS column (CrashLoopBackOff, Init:0/2, Completed, Terminating), a workload's READY count, a
 * claim's or volume's phase, a node's Ready, a Job's Complete or Failed, and for any other kind its
 * `Ready` or `Available` condition, which operators (cert-manager, Flux, Argo) report themselves by.
 * Undefined when the object says nothing of the kind. Pure, and safe on any JSON.
 */

import { isObj, num, type Obj, objAt, objs, str } from './json';

const conditionStatus = (status: Obj | undefined, type: string): string | undefined =>
  str(objs(status?.conditions).find((c) => c.type === type)?.status);

function containerReason(c: Obj): string | undefined {
  const state = objAt(c, 'state');
  const waiting = objAt(state, 'waiting');
  const terminated = objAt(state, 'terminated');
  const reason = str(waiting?.reason);
  if (reason) return reason;
  if (terminated) return str(terminated.reason) ?? `ExitCode:${num(terminated.exitCode) ?? 0}`;
  return undefined;
}

/** kubectl's STATUS column for a pod, shortened: the first telling reason, else the phase. */
export function podStatus(pod: Obj): string {
  const metadata = objAt(pod, 'metadata');
  if (metadata?.deletionTimestamp !== undefined) return 'Terminating';
  const status = objAt(pod, 'status');
  const inits = objs(status?.initContainerStatuses);
  for (const [i, c] of inits.entries()) {
    const terminated = objAt(objAt(c, 'state'), 'terminated');
    if (terminated && num(terminated.exitCode) === 0) continue;
    const reason = containerReason(c);
    return reason && reason !== 'PodInitializing' ? `Init:${reason}` : `Init:${i}/${inits.length}`;
  }
  for (const c of objs(status?.containerStatuses)) {
    const reason = containerReason(c);
    if (reason && reason !== 'Completed') return reason;
  }
  return str(status?.reason) ?? str(status?.phase) ?? 'Unknown';
}

const ready = (ready: unknown, desired: unknown) => `${num(ready) ?? 0}/${num(desired) ?? 0}`;

function jobStatus(status: Obj | undefined, spec: Obj | undefined): string {
  if (conditionStatus(status, 'Complete') === 'True') return 'Complete';
  if (conditionStatus(status, 'Failed') === 'True') return 'Failed';
  if (spec?.suspend === true) return 'Suspended';
  return 'Running';
}

function nodeStatus(status: Obj | undefined, spec: Obj | undefined): string {
  const r = conditionStatus(status, 'Ready');
  const base = r === 'True' ? 'Ready' : r === 'False' ? 'NotReady' : 'Unknown';
  return spec?.unschedulable === true ? `${base},SchedulingDisabled` : base;
}

/** Ready, else Available, as the object's conditions say. */
function fromConditions(status: Obj | undefined): string | undefined {
  const r = conditionStatus(status, 'Ready');
  if (r !== undefined) return r === 'True' ? 'Ready' : r === 'False' ? 'NotReady' : 'Unknown';
  const a = conditionStatus(status, 'Available');
  if (a !== undefined) return a === 'True' ? 'Available' : a === 'False' ? 'Unavailable' : 'Unknown';
  return undefined;
}

/** The short status of an object of Kind `kind` in API group `group`. */
export function statusOf(group: string, kind: string, obj: unknown): string | undefined {
  if (!isObj(obj)) return undefined;
  const status = objAt(obj, 'status');
  const spec = objAt(obj, 'spec');
  const builtin = group === '' || group === 'apps' || group === 'batch';
  if (builtin) {
    switch (kind) {
      case 'Pod':
        return podStatus(obj);
      case 'Node':
        return nodeStatus(status, spec);
      case 'PersistentVolumeClaim':
      case 'PersistentVolume':
      case 'Namespace':
        return str(status?.phase);
      case 'Deployment':
      case 'ReplicaSet':
      case 'StatefulSet':
        return ready(status?.readyReplicas, spec?.replicas ?? 1);
      case 'DaemonSet':
        return ready(status?.numberReady, status?.desiredNumberScheduled);
      case 'Job':
        return jobStatus(status, spec);
      case 'CronJob':
        return spec?.suspend === true ? 'Suspended' : `Active:${objs(status?.active).length}`;
    }
  }
  return fromConditions(status);
}
