/**
 * A frozen cluster: what the simulator serves in place of the demo data when it stands in for a
 * snapshot (issue 10 §2). Objects load into the store as they were captured, each kind when it is
 * first read (the first page of pods waits for no other kind, nor for the events); logs come from
 * the captured lines (and every follow ends with them), metrics from the captured metrics.k8s.io
 * items. The simulator knows nothing of the file: the service reads it and hands over this.
 */

import type { LogLine, LogSource, RunRef } from './logs';
import type { MetricsProvider, MetricsResult } from './metrics';
import { primeItemJson } from './present';
import { type Filter, matches } from './selectors';
import { notFound } from './status';
import type { SimStore } from './store';
import type { ContainerStatus, KubeObject, Pod } from './types';

/**
 * A captured object with kind and apiVersion set. `json`, when given, is the text it was parsed
 * from and says exactly what the object says: its list item is then that text, not serialised again.
 */
export interface SnapshotObject {
  object: KubeObject;
  json?: string;
}

export interface SnapshotContent {
  /** Every object but the events, by kind ('Pod', 'Deployment', ...), read when that kind is first read. */
  objects: Readonly<Record<string, () => Iterable<SnapshotObject>>>;
  /** The core/v1 Events, read only when something first asks for events. */
  events(): Iterable<KubeObject>;
  /**
   * A container's captured log as the apiserver sends it with timestamps=true (an RFC 3339
   * timestamp, a space and the line, newline-terminated), or undefined when none was captured.
   * `previous` is the run before the last restart.
   */
  log(namespace: string, pod: string, container: string, previous: boolean): string | undefined;
  /** metrics.k8s.io PodMetrics and NodeMetrics items as captured, read when first asked for. */
  podMetrics(): readonly KubeObject[];
  nodeMetrics(): readonly KubeObject[];
}

/**
 * The objects as the store loads them, each one's list item JSON known from its text where the
 * text starts as the capture writes it (apiVersion and kind first, what a list item leaves out)
 * and the store keeps the object's resourceVersion (see SimStore.load).
 */
export function* withKnownItems(items: Iterable<SnapshotObject>): Generator<KubeObject> {
  for (const { object, json } of items) {
    const rv = object.metadata.resourceVersion;
    if (json !== undefined && rv && Number.isSafeInteger(Number(rv)) && Number(rv) > 0) {
      const head = `{"apiVersion":${JSON.stringify(object.apiVersion)},"kind":${JSON.stringify(object.kind)},`;
      if (json.startsWith(head)) primeItemJson(object, `{${json.slice(head.length)}`);
    }
    yield object;
  }
}

const FRACTION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;

/** A CRI timestamp to epoch ms and the nanoseconds below the millisecond; undefined when it is none. */
export function parseLogTimestamp(text: string): { ts: number; nanos: number } | undefined {
  const m = FRACTION.exec(text);
  if (!m) return undefined;
  const base = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(base)) return undefined;
  const digits = (m[2] ?? '').padEnd(9, '0').slice(0, 9);
  return { ts: base + Number(digits.slice(0, 3)), nanos: Number(digits.slice(3)) };
}

/** Captured log text to lines; a line without a timestamp keeps the one before it. */
export function parseCapturedLog(text: string): LogLine[] {
  const lines: LogLine[] = [];
  let last = { ts: 0, nanos: 0 };
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (body === '') return lines;
  for (const raw of body.split('\n')) {
    const space = raw.indexOf(' ');
    const stamp = space > 0 ? parseLogTimestamp(raw.slice(0, space)) : parseLogTimestamp(raw);
    if (stamp) {
      last = stamp;
      lines.push({ ...stamp, text: space > 0 ? raw.slice(space + 1) : '' });
    } else lines.push({ ...last, text: raw });
  }
  return lines;
}

function statusOf(pod: Pod, container: string): ContainerStatus | undefined {
  return (
    pod.status.containerStatuses?.find((c) => c.name === container) ??
    pod.status.initContainerStatuses?.find((c) => c.name === container)
  );
}

/** Logs from the captured lines: nothing is ever added, and each run is over once read. */
export class SnapshotLogSource implements LogSource {
  readonly final = true;

  constructor(
    private readonly store: SimStore,
    private readonly content: Pick<SnapshotContent, 'log'>,
  ) {}

  backlog(ref: RunRef): LogLine[] {
    const pod = this.store.peek('pods', ref.namespace, ref.pod) as Pod | undefined;
    const status = pod ? statusOf(pod, ref.container) : undefined;
    // The run the kubelet would read: the current instance's, or the one before it (`previous`,
    // or a container waiting to restart, whose log is its last run's).
    const current =
      status !== undefined &&
      (ref.containerId === status.containerID || ref.containerId === status.state.terminated?.containerID);
    const { log } = this.content;
    const text = current
      ? log(ref.namespace, ref.pod, ref.container, false)
      : (log(ref.namespace, ref.pod, ref.container, true) ??
        log(ref.namespace, ref.pod, ref.container, false));
    return text === undefined ? [] : parseCapturedLog(text);
  }

  nextLine(): undefined {
    return undefined;
  }

  exitLines(): string[] {
    return [];
  }
}

const API_VERSION = 'metrics.k8s.io/v1beta1';
const POD_METRICS = { resource: 'podmetrics', group: 'metrics.k8s.io' };
const NODE_METRICS = { resource: 'nodemetrics', group: 'metrics.k8s.io' };

const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** metrics.k8s.io from the captured items, filtered as metrics-server filters (labels, namespace). */
export class CapturedMetrics implements MetricsProvider {
  private read: { pods: Map<string, KubeObject>; nodes: Map<string, KubeObject> } | undefined;

  constructor(private readonly content: Pick<SnapshotContent, 'podMetrics' | 'nodeMetrics'>) {}

  private get pods(): Map<string, KubeObject> {
    return this.items().pods;
  }

  private get nodes(): Map<string, KubeObject> {
    return this.items().nodes;
  }

  private items() {
    const sorted = (items: readonly KubeObject[]) =>
      new Map([...items].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1)).map((o) => [keyOf(o), o]));
    this.read ??= { pods: sorted(this.content.podMetrics()), nodes: sorted(this.content.nodeMetrics()) };
    return this.read;
  }

  listPods(namespace: string | undefined, filter: Filter): MetricsResult {
    const items = [...this.pods.values()].filter(
      (o) => (namespace === undefined || o.metadata.namespace === namespace) && matches(filter, o),
    );
    return { ok: true, body: listBody('PodMetricsList', items) };
  }

  getPod(namespace: string, name: string): MetricsResult {
    const item = this.pods.get(`${namespace}/${name}`);
    if (!item) return { ok: false, status: notFound(POD_METRICS, `${namespace}/${name}`) };
    return { ok: true, body: { ...item, kind: 'PodMetrics', apiVersion: API_VERSION } };
  }

  listNodes(filter: Filter): MetricsResult {
    const items = [...this.nodes.values()].filter((o) => matches(filter, o));
    return { ok: true, body: listBody('NodeMetricsList', items) };
  }

  getNode(name: string): MetricsResult {
    const item = this.nodes.get(`/${name}`);
    if (!item) return { ok: false, status: notFound(NODE_METRICS, name) };
    return { ok: true, body: { ...item, kind: 'NodeMetrics', apiVersion: API_VERSION } };
  }
}

function listBody(kind: string, items: readonly KubeObject[]): unknown {
  // List items carry no kind or apiVersion, as metrics-server sends them.
  const bare = items.map(({ kind: _k, apiVersion: _a, ...rest }) => rest);
  return { kind, apiVersion: API_VERSION, metadata: {}, items: bare };
}
