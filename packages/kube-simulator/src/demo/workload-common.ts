/** Pieces shared by the workload builders: metadata, owner references, managedFields, placement. */

import { managedEntry } from '../managed-fields';
import { hash32 } from '../random';
import { MINUTE } from '../time';
import type { KubeObject, Labels, OwnerReference, Pod } from '../types';
import type { Gen, NodeInfo } from './context';
import type { PodTemplate } from './pods';

export interface WorkloadBase {
  namespace: string;
  name: string;
  labels?: Labels;
  createdAgoMs: number;
  /** Field manager of whoever deployed it: helm, kubectl, argocd-controller... */
  manager: string;
  template: PodTemplate;
  selector: Labels;
}

export function ownerRef(obj: KubeObject): OwnerReference {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name,
    uid: obj.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function spread(gen: Gen, podName: string): NodeInfo {
  const ready = gen.readyNodes();
  return ready[hash32(podName) % ready.length] as NodeInfo;
}

function applyOp(manager: string): 'Apply' | 'Update' {
  return manager === 'kubectl' || manager === 'argocd-controller' ? 'Apply' : 'Update';
}

export function workloadMeta(
  gen: Gen,
  kind: string,
  w: WorkloadBase,
  generation: number,
  annotations?: Record<string, string>,
) {
  return {
    name: w.name,
    namespace: w.namespace,
    uid: gen.uid(`${kind}/${w.namespace}/${w.name}`),
    resourceVersion: '',
    generation,
    creationTimestamp: gen.ago(w.createdAgoMs),
    labels: w.labels ?? w.template.labels,
    ...(annotations ? { annotations } : {}),
  };
}

export function managed(
  gen: Gen,
  kind: string,
  w: WorkloadBase,
  apiVersion: string,
  spec: unknown,
  status: unknown,
  extraKcm?: unknown,
) {
  const created = gen.ago(w.createdAgoMs);
  return [
    managedEntry({
      manager: w.manager,
      operation: applyOp(w.manager),
      apiVersion,
      time: created,
      owned: { metadata: { labels: w.labels ?? w.template.labels }, spec },
      cacheKey: `${kind}|${w.template.shape ?? w.template.id}|${w.manager}`,
    }),
    ...(extraKcm
      ? [
          managedEntry({
            manager: 'kube-controller-manager',
            apiVersion,
            time: created,
            owned: extraKcm,
            cacheKey: `${kind}|kcm-meta`,
          }),
        ]
      : []),
    managedEntry({
      manager: 'kube-controller-manager',
      apiVersion,
      time: gen.ago(Math.min(w.createdAgoMs, 5 * MINUTE)),
      owned: { status },
      subresource: 'status',
      cacheKey: `${kind}|status|${Object.keys(status as object).join(',')}`,
    }),
  ];
}

export function isReady(pod: Pod): boolean {
  return pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}
