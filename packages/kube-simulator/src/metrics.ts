/**
 * metrics.k8s.io/v1beta1 as metrics-server serves it: usage in nanocores and Ki, only for pods
 * with running containers on nodes whose kubelet answers (a NotReady node has no metrics),
 * not-found names in "namespace/name" form. Usage is a pure function of the object, the seed
 * and a tick counter, so it is stable in tests and drifts when the ticker advances the tick.
 */

import { kibibytes, nanoCores, parseQuantity } from './quantity';
import { hash32 } from './random';
import type { ResourceDef } from './resources';
import { type Filter, matches } from './selectors';
import { notFound, type Status } from './status';
import type { SimStore } from './store';
import { rfc3339 } from './time';
import type { Container, ContainerStatus, KubeObject, Pod } from './types';

export const POD_METRICS: ResourceDef = {
  resource: 'pods',
  singular: '',
  kind: 'PodMetrics',
  listKind: 'PodMetricsList',
  group: 'metrics.k8s.io',
  version: 'v1beta1',
  namespaced: true,
  verbs: ['get', 'list'],
  fieldLabels: [],
  key: 'pods.metrics.k8s.io',
};

export const NODE_METRICS: ResourceDef = {
  resource: 'nodes',
  singular: '',
  kind: 'NodeMetrics',
  listKind: 'NodeMetricsList',
  group: 'metrics.k8s.io',
  version: 'v1beta1',
  namespaced: false,
  verbs: ['get', 'list'],
  fieldLabels: [],
  key: 'nodes.metrics.k8s.io',
};

/** What discovery lists at metrics.k8s.io/v1beta1, by resource name. */
export const METRICS_RESOURCES: readonly ResourceDef[] = [NODE_METRICS, POD_METRICS];

const API_VERSION = 'metrics.k8s.io/v1beta1';

export type MetricsResult = { ok: true; body: unknown } | { ok: false; status: Status };

/** What the metrics.k8s.io routes read: the demo's computed usage, or a snapshot's captured items. */
export interface MetricsProvider {
  listPods(namespace: string | undefined, filter: Filter): MetricsResult;
  getPod(namespace: string, name: string): MetricsResult;
  listNodes(filter: Filter): MetricsResult;
  getNode(name: string): MetricsResult;
}

interface Usage {
  cpu: number;
  memory: number;
}

export class MetricsSource implements MetricsProvider {
  /** Advanced by the ticker; every usage figure drifts with it. */
  tick = 0;

  constructor(
    private readonly store: SimStore,
    private readonly seed: number,
  ) {}

  private unit(key: string): number {
    return hash32(key, this.seed) / 4294967296;
  }

  private wave(key: string, period: number, amplitude: number): number {
    return 1 + amplitude * Math.sin(this.tick / period + this.unit(`phase:${key}`) * Math.PI * 2);
  }

  private readyNodes(): Set<string> {
    const ready = new Set<string>();
    for (const node of this.store.table('nodes').values()) {
      const conditions = (node.status as { conditions?: { type: string; status: string }[] } | undefined)
        ?.conditions;
      if (conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) ready.add(node.metadata.name);
    }
    return ready;
  }

  containerUsage(pod: Pod, container: Container, status: ContainerStatus): Usage {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}/${container.name}`;
    const requests = container.resources?.requests ?? {};
    const limits = container.resources?.limits ?? {};
    const cpuBase = parseQuantity(requests.cpu ?? '') || 0.05;
    const memBase = parseQuantity(requests.memory ?? '') || 64 * 2 ** 20;
    const memLimit = parseQuantity(limits.memory ?? '');
    let cpu = cpuBase * (0.15 + 0.7 * this.unit(`cpu:${key}`)) * this.wave(`cpu:${key}`, 3, 0.3);
    let memory = memBase * (0.45 + 0.5 * this.unit(`mem:${key}`)) * this.wave(`mem:${key}`, 11, 0.06);
    // A container that was OOM-killed runs close to its limit again.
    if (status.lastState.terminated?.reason === 'OOMKilled' && memLimit > 0) {
      memory = memLimit * (0.9 + 0.08 * this.unit(`oom:${key}`)) * this.wave(`mem:${key}`, 5, 0.01);
      cpu *= 1.5;
    }
    if (memLimit > 0) memory = Math.min(memory, memLimit * 0.99);
    return { cpu, memory };
  }

  private podItem(pod: Pod, ready: Set<string>, now: number): KubeObject | undefined {
    if (pod.status.phase !== 'Running' || !pod.spec.nodeName || !ready.has(pod.spec.nodeName))
      return undefined;
    const containers: { name: string; usage: Record<string, string> }[] = [];
    for (const c of pod.spec.containers) {
      const status = pod.status.containerStatuses?.find((s) => s.name === c.name);
      if (!status?.state.running) continue;
      const u = this.containerUsage(pod, c, status);
      containers.push({ name: c.name, usage: { cpu: nanoCores(u.cpu), memory: kibibytes(u.memory) } });
    }
    if (containers.length === 0) return undefined;
    return {
      kind: 'PodMetrics',
      apiVersion: API_VERSION,
      metadata: {
        name: pod.metadata.name,
        namespace: pod.metadata.namespace,
        uid: '',
        resourceVersion: '',
        creationTimestamp: rfc3339(now),
        ...(pod.metadata.labels ? { labels: pod.metadata.labels } : {}),
      },
      timestamp: rfc3339(now - 5000 - Math.floor(this.unit(`ts:${pod.metadata.name}`) * 10000)),
      window: this.window(pod.metadata.name),
      containers,
    };
  }

  private window(name: string): string {
    return `${(10 + this.unit(`window:${name}`) * 10).toFixed(3)}s`;
  }

  private nodeUsage(node: KubeObject, pods: Iterable<KubeObject>, ready: Set<string>): Usage {
    const name = node.metadata.name;
    const usage: Usage = {
      cpu: 0.12 + 0.15 * this.unit(`sys-cpu:${name}`) * this.wave(`sys:${name}`, 4, 0.2),
      memory: (700 + 600 * this.unit(`sys-mem:${name}`)) * 2 ** 20,
    };
    for (const obj of pods) {
      const pod = obj as Pod;
      if (pod.spec.nodeName !== name || pod.status.phase !== 'Running' || !ready.has(name)) continue;
      for (const c of pod.spec.containers) {
        const status = pod.status.containerStatuses?.find((s) => s.name === c.name);
        if (!status?.state.running) continue;
        const u = this.containerUsage(pod, c, status);
        usage.cpu += u.cpu;
        usage.memory += u.memory;
      }
    }
    return usage;
  }

  private nodeItem(node: KubeObject, usage: Usage, now: number): KubeObject {
    return {
      kind: 'NodeMetrics',
      apiVersion: API_VERSION,
      metadata: {
        name: node.metadata.name,
        uid: '',
        resourceVersion: '',
        creationTimestamp: rfc3339(now),
        ...(node.metadata.labels ? { labels: node.metadata.labels } : {}),
      },
      timestamp: rfc3339(now - 7000),
      window: this.window(node.metadata.name),
      usage: { cpu: nanoCores(usage.cpu), memory: kibibytes(usage.memory) },
    };
  }

  listPods(namespace: string | undefined, filter: Filter): MetricsResult {
    const ready = this.readyNodes();
    const now = this.store.now();
    const items: unknown[] = [];
    for (const pod of this.store.table('pods').values(namespace)) {
      if (!matches(filter, pod)) continue;
      const item = this.podItem(pod as Pod, ready, now);
      if (item) items.push(stripMeta(item));
    }
    return { ok: true, body: listBody('PodMetricsList', items) };
  }

  getPod(namespace: string, name: string): MetricsResult {
    const pod = this.store.peek('pods', namespace, name) as Pod | undefined;
    const item = pod ? this.podItem(pod, this.readyNodes(), this.store.now()) : undefined;
    if (!item)
      return {
        ok: false,
        status: notFound({ resource: 'podmetrics', group: 'metrics.k8s.io' }, `${namespace}/${name}`),
      };
    return { ok: true, body: stripMeta(item, true) };
  }

  listNodes(filter: Filter): MetricsResult {
    const ready = this.readyNodes();
    const now = this.store.now();
    const pods = this.podsByNode();
    const items: unknown[] = [];
    for (const node of this.store.table('nodes').values()) {
      if (!ready.has(node.metadata.name) || !matches(filter, node)) continue;
      items.push(
        stripMeta(this.nodeItem(node, this.nodeUsage(node, pods.get(node.metadata.name) ?? [], ready), now)),
      );
    }
    return { ok: true, body: listBody('NodeMetricsList', items) };
  }

  getNode(name: string): MetricsResult {
    const node = this.store.peek('nodes', name);
    const ready = this.readyNodes();
    if (!node || !ready.has(name)) {
      return { ok: false, status: notFound({ resource: 'nodemetrics', group: 'metrics.k8s.io' }, name) };
    }
    const pods = this.podsByNode().get(name) ?? [];
    return {
      ok: true,
      body: stripMeta(this.nodeItem(node, this.nodeUsage(node, pods, ready), this.store.now()), true),
    };
  }

  private podsByNode(): Map<string, KubeObject[]> {
    const byNode = new Map<string, KubeObject[]>();
    for (const pod of this.store.table('pods').values()) {
      const nodeName = (pod as Pod).spec.nodeName;
      if (!nodeName) continue;
      let list = byNode.get(nodeName);
      if (!list) {
        list = [];
        byNode.set(nodeName, list);
      }
      list.push(pod);
    }
    return byNode;
  }
}

/** metrics-server objects carry no uid/resourceVersion; list items no kind/apiVersion. */
function stripMeta(item: KubeObject, keepType = false): unknown {
  const { uid: _u, resourceVersion: _r, ...metadata } = item.metadata;
  const { kind, apiVersion, metadata: _m, ...rest } = item;
  return keepType ? { kind, apiVersion, metadata, ...rest } : { metadata, ...rest };
}

function listBody(kind: string, items: unknown[]): unknown {
  return { kind, apiVersion: API_VERSION, metadata: {}, items };
}
