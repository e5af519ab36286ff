/** Helpers for the demo-broken namespace: one single-replica Deployment per failure mode. */

import { HOUR } from '../time';
import type { Pod } from '../types';
import type { Gen } from './context';
import { buildDeployment } from './deployment';
import type { ContainerTemplate, PodState, PodTemplate } from './pods';

export const BROKEN_NS = 'demo-broken';
export const AGE = 3 * HOUR;
/** The claim the unschedulable pod mounts; Pending while the pod is (more-kinds.ts makes it). */
export const SCRATCH_CLAIM = 'spark-scratch';
/** The quota that refuses quota-blocked's pods: exactly as many pods as demo-broken holds. */
export const POD_QUOTA = 'pod-count';

export function schedulingMessage(gen: Gen): string {
  const n = gen.nodes.length;
  const notReady = gen.nodes.filter((x) => !x.ready).length;
  const reasons = [
    '1 Insufficient memory',
    `${notReady} node(s) had untolerated taint {node.kubernetes.io/not-ready: }`,
    `${n - 1 - notReady} node(s) didn't match Pod's node affinity/selector`,
  ].sort();
  return `0/${n} nodes are available: ${reasons.join(', ')}. preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`;
}

export function app(
  image: string,
  log: ContainerTemplate['log'],
  extra: Partial<ContainerTemplate> = {},
): ContainerTemplate {
  return {
    name: 'app',
    image,
    log,
    requests: { cpu: '100m', memory: '128Mi' },
    limits: { memory: '256Mi' },
    ...extra,
  };
}

export function broken(
  gen: Gen,
  name: string,
  container: ContainerTemplate,
  state: PodState,
  extra: Partial<PodTemplate> = {},
  opts: { progressDeadlineExceeded?: boolean } = {},
): Pod {
  const labels = { app: name, 'app.kubernetes.io/part-of': 'demo-broken' };
  const pods = buildDeployment(gen, {
    namespace: BROKEN_NS,
    name,
    labels,
    selector: { app: name },
    replicas: 1,
    strategy: 'RollingUpdate',
    createdAgoMs: AGE,
    manager: 'kubectl',
    node: gen.node('worker-1'),
    states: [state],
    progressDeadlineExceeded: opts.progressDeadlineExceeded ?? true,
    template: { id: `${BROKEN_NS}/${name}`, labels, containers: [container], ...extra },
  });
  return pods[0] as Pod;
}
