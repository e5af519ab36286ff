/**
 * Builds the demo cluster: every object in creation order with its resourceVersion, plus what
 * the log source and the ticker need to animate it afterwards. `demoContent` is the demo as a
 * ContentProvider (content.ts), the simulator's default content; nothing else here knows the engine
 * beyond its types and helpers.
 */

import type { ContentProvider, Crasher, RecurringEvent } from '../content';
import { buildEvent } from '../events';
import { DAY, MINUTE, SECOND } from '../time';
import type { KubeObject, Pod } from '../types';
import { badRollout } from './bad-rollout';
import { buildBatch } from './batch';
import { BROKEN_NS, buildBroken } from './broken';
import { buildBrokenStorage } from './broken-storage';
import { Gen, type GenScale } from './context';
import { buildCustomResources } from './custom-resources';
import { objectEvent } from './events';
import { buildFillerEvents, buildFillerPods } from './filler';
import { DemoLogSource } from './log-source';
import { buildMoreKinds } from './more-kinds';
import { buildNamespace } from './namespaces';
import { buildNodes } from './nodes';
import { buildDefault, buildKubeSystem, buildMonitoring } from './platform';
import { buildShop } from './shop';
import { buildTeam } from './team';

export { BAD_ROLLOUT, badRolloutPodName } from './bad-rollout';
export { DEMO_NAMESPACES, DEMO_NODES, DEMO_PODS, DEMO_WORKLOADS, type NotablePod } from './catalogue';
export { DEMO_TEAM } from './team';
export type { GenScale };

interface DemoOptions {
  seed: number;
  now: number;
  scale?: GenScale;
}

interface Demo {
  objects: KubeObject[];
  logSource: DemoLogSource;
  crashers: Crasher[];
  recurring: RecurringEvent[];
}

const BASE_NAMESPACES: [string, number, Record<string, string>?][] = [
  ['default', 30 * DAY],
  ['kube-node-lease', 30 * DAY],
  ['kube-public', 30 * DAY],
  ['kube-system', 30 * DAY],
  ['monitoring', 20 * DAY, { 'argocd.argoproj.io/instance': 'monitoring' }],
  ['shop', 12 * DAY, { team: 'shop', 'pod-security.kubernetes.io/enforce': 'baseline' }],
  ['batch', 40 * DAY, { team: 'data' }],
  [BROKEN_NS, 3 * 60 * MINUTE, { purpose: 'demo' }],
];

/** The demo cluster, built from the simulator's seed and clock when it starts. */
export function demoContent(opts: { scale?: GenScale } = {}): ContentProvider {
  return {
    load(store, { seed, now }) {
      const demo = buildDemo({ seed, now, ...(opts.scale ? { scale: opts.scale } : {}) });
      store.load(demo.objects);
      return {
        logSource: demo.logSource,
        life: { crashers: demo.crashers, recurring: demo.recurring },
        scenarios: { 'bad-rollout': badRollout },
      };
    },
  };
}

export function buildDemo(opts: DemoOptions): Demo {
  const scale = opts.scale ?? {};
  const gen = new Gen(opts.seed, opts.now, scale);
  const nodeCount = Math.max(3, scale.nodes ?? (scale.pods ? Math.ceil(scale.pods / 100) : 3));
  buildNodes(gen, nodeCount);
  for (const [name, age, labels] of BASE_NAMESPACES) buildNamespace(gen, name, age, labels);
  buildKubeSystem(gen);
  buildMonitoring(gen);
  buildDefault(gen);
  buildShop(gen);
  buildBatch(gen);
  buildBroken(gen);
  clusterEvents(gen);

  const pods = () => gen.objects.filter((o): o is Pod => o.kind === 'Pod');
  const baseCount = pods().length;
  const extraPods = Math.max(0, (scale.pods ?? 0) - baseCount);
  const extraNamespaces = Math.max(
    scale.namespaces !== undefined ? scale.namespaces - BASE_NAMESPACES.length : 0,
    extraPods > 0 ? Math.ceil(extraPods / 400) : 0,
  );
  const filler = buildFillerPods(gen, extraPods, extraNamespaces);
  if (extraPods === 0 && extraNamespaces > 0) buildFillerPods(gen, extraNamespaces, extraNamespaces);
  // After the tailored kinds' objects, which keep the resourceVersions they always had; before the
  // filler events, which top the event count up to the number asked for.
  buildMoreKinds(gen);
  buildBrokenStorage(gen);
  buildCustomResources(gen);
  buildTeam(gen);
  if (scale.events !== undefined && scale.events > gen.events.length) {
    buildFillerEvents(gen, filler.length > 0 ? filler : pods(), scale.events);
  }
  return {
    objects: [...gen.objects, ...gen.events],
    logSource: new DemoLogSource(opts.seed, gen.logProfiles),
    crashers: gen.crashers,
    recurring: gen.recurring,
  };
}

/** Node conditions and the apiserver's own events. */
function clusterEvents(gen: Gen): void {
  const node = (name: string) => gen.objects.find((o) => o.kind === 'Node' && o.metadata.name === name);
  const w2 = node('worker-2');
  const w3 = node('worker-3');
  if (w3) {
    objectEvent(gen, w3, {
      reason: 'NodeNotReady',
      message: 'Node worker-3 status is now: NodeNotReady',
      component: 'node-controller',
      firstAgoMs: 41 * MINUTE,
    });
    for (const pod of gen.objects) {
      if (pod.kind !== 'Pod' || (pod as Pod).spec.nodeName !== 'worker-3') continue;
      objectEvent(gen, pod, {
        reason: 'NodeNotReady',
        type: 'Warning',
        message: 'Node is not ready',
        component: 'node-controller',
        firstAgoMs: 41 * MINUTE - 5 * SECOND,
      });
    }
  }
  if (w2) {
    objectEvent(gen, w2, {
      reason: 'NodeHasInsufficientMemory',
      message: 'Node worker-2 status is now: NodeHasInsufficientMemory',
      component: 'kubelet',
      host: 'worker-2',
      firstAgoMs: 47 * MINUTE,
    });
    objectEvent(gen, w2, {
      reason: 'EvictionThresholdMet',
      type: 'Warning',
      message: 'Attempting to reclaim memory',
      component: 'kubelet',
      host: 'worker-2',
      count: 12,
      firstAgoMs: 47 * MINUTE,
      lastAgoMs: 3 * MINUTE,
      recurEvery: 8,
    });
  }
  // An event with nothing but creationTimestamp, as some writers leave them.
  const svc = gen.objects.find(
    (o) => o.kind === 'Service' && o.metadata.namespace === 'default' && o.metadata.name === 'kubernetes',
  );
  if (svc) {
    const created = gen.now - 12 * MINUTE;
    const ev = buildEvent(
      {
        metadata: { name: `kubernetes.${(BigInt(created) * 1_000_000n).toString(16)}`, namespace: 'default' },
        involvedObject: {
          kind: 'Service',
          namespace: 'default',
          name: 'kubernetes',
          uid: svc.metadata.uid,
          apiVersion: 'v1',
        },
        reason: 'ClusterIPNotAllocated',
        message: 'Cluster IP [IPv4]: 10.96.0.1 is not allocated; repairing',
        type: 'Warning',
        source: { component: 'kube-apiserver' },
        firstTimestamp: null,
        lastTimestamp: null,
        eventTime: null,
        reportingComponent: 'kube-apiserver',
        reportingInstance: 'kube-apiserver-control-plane-1',
      },
      created,
    );
    delete ev.count;
    ev.metadata.uid = gen.uid(`event/${ev.metadata.name}`);
    gen.add(ev);
  }
}
