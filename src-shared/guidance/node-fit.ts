/**
 * "Which node could take this unscheduled pod, and why not the others": the pod's requests against
 * each node's allocatable less what the pods already bound to it request, plus cordons and taints.
 *
 * Rules (as kube-scheduler's NodeResourcesFit and TaintToleration count them):
 * - A pod requests, per resource, the larger of its app containers' sum (plus its sidecars, the
 *   init containers with restartPolicy Always) and each ordinary init container's request plus
 *   the sidecars started before it; spec.overhead is added on top.
 * - Pods already on a node count unless they have finished (Succeeded or Failed).
 * - Only cpu and memory are compared; an allocatable that does not parse is not judged.
 * - A cordoned node (spec.unschedulable) and a NoSchedule/NoExecute taint the pod does not
 *   tolerate each rule the node out. Selectors and affinity are the scheduler message's to tell.
 */

import { parseQuantity } from '../kube/quantity';
import type { ListedObject } from './findings';
import type { GuidanceCheck } from './types';

type Quantities = Readonly<Record<string, string | number>>;
type ContainerLike = { resources?: { requests?: Quantities | null } | null; restartPolicy?: string };
type TaintLike = { key?: string; value?: string; effect?: string };
type TolerationLike = { key?: string; operator?: string; value?: string; effect?: string };

export type FitPodSpec = {
  nodeName?: string;
  containers?: readonly ContainerLike[] | null;
  initContainers?: readonly ContainerLike[] | null;
  overhead?: Quantities | null;
  tolerations?: readonly TolerationLike[] | null;
};

export const FIT_RESOURCES = ['cpu', 'memory'] as const;
export type FitResource = (typeof FIT_RESOURCES)[number];
export type Requests = Record<FitResource, number>;

export type NodeFit = {
  node: string;
  fits: boolean;
  /** Free per resource after the pods already on it (absent where allocatable does not parse). */
  free: Partial<Requests>;
  /** Why the pod cannot go there, one phrase each; empty when it fits. */
  reasons: string[];
};

function requestOf(c: ContainerLike, r: FitResource): number {
  const n = parseQuantity(c.resources?.requests?.[r]);
  return Number.isFinite(n) ? n : 0;
}

/** What the scheduler counts a pod as requesting, per resource. */
export function podRequests(spec: FitPodSpec | null | undefined): Requests {
  const out: Requests = { cpu: 0, memory: 0 };
  for (const r of FIT_RESOURCES) {
    let sidecars = 0;
    let initPeak = 0;
    for (const c of spec?.initContainers ?? []) {
      if (c.restartPolicy === 'Always') sidecars += requestOf(c, r);
      else initPeak = Math.max(initPeak, requestOf(c, r) + sidecars);
    }
    let apps = sidecars;
    for (const c of spec?.containers ?? []) apps += requestOf(c, r);
    const overhead = parseQuantity(spec?.overhead?.[r]);
    out[r] = Math.max(apps, initPeak) + (Number.isFinite(overhead) ? overhead : 0);
  }
  return out;
}

function tolerates(tolerations: readonly TolerationLike[], taint: TaintLike): boolean {
  return tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === 'Exists') return !t.key || t.key === taint.key;
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
  });
}

/** cpu in millicores, memory in MiB: exact enough to see the gap, and one unit per resource. */
export function formatAmount(r: FitResource, n: number): string {
  return r === 'cpu' ? `${Math.round(n * 1000)}m` : `${Math.round(n / 2 ** 20)}Mi`;
}

type NodeObject = ListedObject & {
  spec?: { unschedulable?: boolean; taints?: readonly TaintLike[] | null } | null;
  status?: { allocatable?: Quantities | null } | null;
};
type PodObject = ListedObject & { spec?: FitPodSpec | null; status?: { phase?: string } | null };

/** Each node's verdict for a pod with the given spec, in the nodes' order. */
export function nodeFits(
  spec: FitPodSpec | null | undefined,
  nodes: readonly ListedObject[],
  pods: readonly ListedObject[],
): NodeFit[] {
  const wants = podRequests(spec);
  const used = new Map<string, Requests>();
  for (const p of pods as readonly PodObject[]) {
    const on = p.spec?.nodeName;
    const phase = p.status?.phase;
    if (!on || phase === 'Succeeded' || phase === 'Failed') continue;
    const sum = used.get(on) ?? { cpu: 0, memory: 0 };
    const req = podRequests(p.spec);
    for (const r of FIT_RESOURCES) sum[r] += req[r];
    used.set(on, sum);
  }
  return (nodes as readonly NodeObject[]).map((n) => {
    const name = n.metadata.name;
    const reasons: string[] = [];
    const free: Partial<Requests> = {};
    if (n.spec?.unschedulable) reasons.push('cordoned (unschedulable)');
    for (const t of n.spec?.taints ?? []) {
      if (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') continue;
      if (tolerates(spec?.tolerations ?? [], t)) continue;
      reasons.push(`taint ${t.key}${t.value ? `=${t.value}` : ''}:${t.effect} not tolerated`);
    }
    for (const r of FIT_RESOURCES) {
      const allocatable = parseQuantity(n.status?.allocatable?.[r]);
      if (!Number.isFinite(allocatable)) continue;
      const left = allocatable - (used.get(name)?.[r] ?? 0);
      free[r] = left;
      if (wants[r] > left)
        reasons.push(
          `too little ${r}: ${formatAmount(r, wants[r])} requested, ${formatAmount(r, Math.max(0, left))} free of ${formatAmount(r, allocatable)} allocatable`,
        );
    }
    return { node: name, fits: reasons.length === 0, free, reasons };
  });
}

/** One step per node, those that fit first, each naming its node. */
export function nodeFitChecks(
  spec: FitPodSpec | null | undefined,
  fits: readonly NodeFit[],
): GuidanceCheck[] {
  const wants = podRequests(spec);
  const asked = FIT_RESOURCES.map((r) => `${formatAmount(r, wants[r])} ${r}`).join(' and ');
  const ordered = [...fits.filter((f) => f.fits), ...fits.filter((f) => !f.fits)];
  return ordered.map((f) => ({
    text: f.fits
      ? `Node ${f.node} could take the pod (${asked} requested).`
      : `Node ${f.node} cannot take the pod: ${f.reasons.join('; ')}.`,
    ref: { resourceType: 'node', name: f.node },
  }));
}
