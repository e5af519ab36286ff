/**
 * A frozen cluster, as a ContentProvider (content.ts): what the simulator serves in place of the
 * demo data when it stands in for a capture (Skiff's snapshots, issue 10 §2). Objects load into the store as they were captured, each kind when it is
 * first read (the first page of pods waits for no other kind, nor for the events), and each
 * object stays the captured text until something reads it: a list sends that text as it is, so
 * opening a big snapshot parses and serialises nothing before the first page. Logs come from the
 * captured lines (and every follow ends with them), metrics from the captured metrics.k8s.io
 * items. The simulator knows nothing of any file: its reader hands over a CapturedContent.
 */

import type { ContentProvider } from './content';
import type { LogLine, LogSource, RunRef } from './logs';
import type { MetricsProvider, MetricsResult } from './metrics';
import { primeItemJson } from './present';
import { apiVersionOf, type ResourceDef } from './resources';
import { type Filter, matches } from './selectors';
import { notFound } from './status';
import type { SimStore } from './store';
import { LazyObject } from './table';
import type { ContainerStatus, KubeObject, Pod } from './types';

/** A captured object as its text, and how to parse it. */
export interface CapturedObject {
  json: string;
  /** True when `json` is known to be valid JSON: only then is it sent without being parsed. */
  valid: boolean;
  /** Where the object is, when known without parsing; else the text's start must say. */
  namespace?: string;
  name?: string;
  /** The object with kind and apiVersion set; throws for text that is not an object. */
  decode(): KubeObject;
}

export interface CapturedContent {
  /** Every object but the events, by kind ('Pod', 'Deployment', ...), read when that kind is first read. */
  objects: Readonly<Record<string, () => Iterable<CapturedObject>>>;
  /** The core/v1 Events, read only when something first asks for events. */
  events(): Iterable<CapturedObject>;
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
 * The captured cluster as the simulator's content: each kind and the events load when first read,
 * logs and metrics are the captured ones, and nothing moves (no simulated life).
 */
export function capturedContent(content: CapturedContent): ContentProvider {
  return {
    load(store) {
      for (const [kind, read] of Object.entries(content.objects)) {
        const d = store.kinds.forObject(undefined, kind);
        if (!d) throw new Error(`unknown kind ${kind}`);
        store.defer(d.key, () => storable(d, read()));
      }
      const events = store.kinds.forObject('v1', 'Event');
      if (events) store.defer(events.key, () => storable(events, content.events()));
      return { logSource: new CapturedLogSource(store, content), metrics: new CapturedMetrics(content) };
    },
  };
}

/** An event's name and namespace as the capture writes them, first in its metadata. */
const EVENT_META = /"metadata":\{"name":"([^"\\]+)","namespace":"([^"\\]*)",/y;
const RESOURCE_VERSION = '"resourceVersion":"';

/**
 * The objects of one resource as the store loads them: a LazyObject for each whose text starts as
 * the capture writes it (apiVersion and kind first, the two a list item leaves out, then the
 * metadata, whose resourceVersion comes before anything nested that has one), so its list item
 * is the rest of the text; any other is parsed now. One that cannot be parsed is left out: it
 * could not be served, and the rest of the snapshot still can.
 */
function* storable(d: ResourceDef, items: Iterable<CapturedObject>): Generator<KubeObject | LazyObject> {
  const typeMeta = [
    `{"apiVersion":${JSON.stringify(apiVersionOf(d))},"kind":${JSON.stringify(d.kind)},`,
    `{"kind":${JSON.stringify(d.kind)},"apiVersion":${JSON.stringify(apiVersionOf(d))},`,
  ];
  for (const item of items) {
    const lazy = item.valid ? lazyObject(d, typeMeta, item) : undefined;
    if (lazy) {
      yield lazy;
      continue;
    }
    try {
      yield item.decode();
    } catch {
      // Left out, as said above.
    }
  }
}

function lazyObject(
  d: ResourceDef,
  typeMeta: readonly string[],
  item: CapturedObject,
): LazyObject | undefined {
  const { json } = item;
  const head = typeMeta.find((h) => json.startsWith(h));
  if (head === undefined || !json.startsWith('"metadata":{', head.length)) return undefined;
  let { namespace, name } = item;
  if (name === undefined) {
    EVENT_META.lastIndex = head.length;
    const m = EVENT_META.exec(json);
    if (!m) return undefined;
    [, name, namespace] = m as unknown as [string, string, string];
  }
  const at = json.indexOf(RESOURCE_VERSION);
  if (at < 0) return undefined;
  const rvText = json.slice(at + RESOURCE_VERSION.length, json.indexOf('"', at + RESOURCE_VERSION.length));
  const rv = Number(rvText);
  if (!/^[1-9]\d*$/.test(rvText) || !Number.isSafeInteger(rv)) return undefined;
  const itemJson = `{${json.slice(head.length)}`;
  // Events are not kept as list text once parsed (present.ts says why); other kinds are.
  const keepText = d.resource !== 'events';
  return new LazyObject(d.kind, namespace || undefined, name, rv, itemJson, () => {
    const obj = item.decode();
    obj.metadata.resourceVersion ||= rvText;
    if (keepText) primeItemJson(obj, itemJson);
    return obj;
  });
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
class CapturedLogSource implements LogSource {
  readonly final = true;

  constructor(
    private readonly store: SimStore,
    private readonly content: Pick<CapturedContent, 'log'>,
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
class CapturedMetrics implements MetricsProvider {
  private read: { pods: Map<string, KubeObject>; nodes: Map<string, KubeObject> } | undefined;

  constructor(private readonly content: Pick<CapturedContent, 'podMetrics' | 'nodeMetrics'>) {}

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
