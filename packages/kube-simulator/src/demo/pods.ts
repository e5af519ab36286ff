/**
 * Pod construction: spec from a shared template, status from a PodState describing what the
 * kubelet would report (running, crash-looping, stuck pulling, unschedulable, completed...).
 */

import { managedEntry } from '../managed-fields';
import { rfc3339, SECOND } from '../time';
import type { Pod } from '../types';
import type { Gen } from './context';
import { templateSpec } from './pod-spec';
import { podStatus } from './pod-status';
import type { PodPlan } from './pod-types';

export { workloadTemplateSpec } from './pod-spec';
export type { ContainerTemplate, LastExit, PodPlan, PodState, PodTemplate } from './pod-types';

export function buildPod(gen: Gen, plan: PodPlan): Pod {
  const { template: t, state, node } = plan;
  const created = gen.now - plan.createdAgoMs;
  const uid = gen.uid(`pod/${plan.namespace}/${plan.name}`);
  const metadata = {
    name: plan.name,
    ...(plan.generateName ? { generateName: plan.generateName } : {}),
    namespace: plan.namespace,
    uid,
    resourceVersion: '',
    creationTimestamp: rfc3339(created),
    labels: plan.labels ?? t.labels,
    ...(plan.annotations ? { annotations: plan.annotations } : {}),
    ...(plan.owner ? { ownerReferences: [plan.owner] } : {}),
  };
  const shared = templateSpec(t);
  const spec = {
    ...shared,
    ...(node && state.kind !== 'unschedulable' ? { nodeName: node.name } : {}),
    ...(plan.hostname ? { hostname: plan.hostname, subdomain: plan.subdomain } : {}),
    ...plan.extraSpec,
  };
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    spec,
    status: { phase: 'Pending' },
  } as unknown as Pod;
  pod.status = podStatus(gen, pod, plan, created);
  for (const c of [...t.containers, ...(t.initContainers ?? [])])
    gen.setLogProfile(plan.namespace, plan.name, c.name, c.log);
  const createdTs = rfc3339(created);
  const statusTime = rfc3339(Math.min(gen.now, statusChangedAt(gen, plan, created)));
  const specOwner = plan.owner ? 'kube-controller-manager' : 'kubectl-run';
  pod.metadata.managedFields = [
    managedEntry({
      manager: specOwner,
      apiVersion: 'v1',
      time: createdTs,
      owned: {
        metadata: {
          generateName: plan.generateName,
          labels: metadata.labels,
          ownerReferences: metadata.ownerReferences,
        },
        spec: shared,
      },
      cacheKey: `pod-spec|${t.shape ?? t.id}|${specOwner}|${Object.keys(metadata.labels).join(',')}`,
    }),
    state.kind === 'unschedulable'
      ? managedEntry({
          manager: 'kube-scheduler',
          apiVersion: 'v1',
          time: statusTime,
          owned: { status: { conditions: pod.status.conditions } },
          subresource: 'status',
          cacheKey: 'pod-status|scheduler',
        })
      : managedEntry({
          manager: 'kubelet',
          apiVersion: 'v1',
          time: statusTime,
          owned: { status: pod.status },
          subresource: 'status',
          cacheKey: `pod-status|${t.shape ?? t.id}|${state.kind}|${'lastExit' in state && state.lastExit ? 'last' : ''}`,
        }),
  ];
  return pod;
}

function statusChangedAt(gen: Gen, plan: PodPlan, created: number): number {
  const s = plan.state;
  if (s.kind === 'crashloop') return gen.now - s.lastFinishedAgoMs;
  if (s.kind === 'running' && s.lastExit) return gen.now - s.lastExit.agoMs + 5 * SECOND;
  return created + 8 * SECOND;
}
