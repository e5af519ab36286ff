import type { KubeObject } from '../../src-shared/contract/models';
import type { ResourceType } from '../../src-shared/kube/kinds';

export type OwnerResult =
  | { ok: true; kind: ResourceType; name: string; namespace?: string; via?: string }
  | { ok: false; reason: string };

const DIRECT: Record<string, ResourceType> = {
  Deployment: 'deployment',
  StatefulSet: 'statefulset',
  DaemonSet: 'daemonset',
  Job: 'job',
  CronJob: 'cronjob',
  Node: 'node',
};

/**
 * The controlling owner in the kinds Skiff browses. A pod of a Deployment is owned by a
 * ReplicaSet named <deployment>-<pod-template-hash>; ReplicaSets are not browsed here, so the
 * Deployment's name is read off the ReplicaSet's by dropping that hash.
 */
export function ownerOf(obj: KubeObject): OwnerResult {
  const refs = obj.metadata.ownerReferences ?? [];
  const ref = refs.find((r) => r.controller) ?? refs[0];
  if (!ref)
    return { ok: false, reason: 'This object has no owner; nothing created it but a person or a tool.' };
  const namespace = obj.metadata.namespace;
  const ns = namespace ? { namespace } : {};
  const kind = DIRECT[ref.kind];
  if (kind) return { ok: true, kind, name: ref.name, ...(kind === 'node' ? {} : ns) };
  if (ref.kind === 'ReplicaSet') {
    const hash = obj.metadata.labels?.['pod-template-hash'];
    const name =
      hash && ref.name.endsWith(`-${hash}`)
        ? ref.name.slice(0, -hash.length - 1)
        : ref.name.replace(/-[a-z0-9]{5,10}$/, '');
    return { ok: true, kind: 'deployment', name, ...ns, via: `ReplicaSet ${ref.name}` };
  }
  return { ok: false, reason: `The owner is a ${ref.kind} (${ref.name}), a kind Skiff does not browse.` };
}
