/**
 * Event helpers for the generator: kubelet and controller events in the classic core shape,
 * scheduler events in the events.k8s.io shape (eventTime + series, classic fields null).
 */

import { buildEvent, eventName } from '../events';
import { microTime, rfc3339 } from '../time';
import type { CoreEvent, KubeObject, ObjectReference, Pod } from '../types';
import type { Gen } from './context';

interface PodEventSpec {
  reason: string;
  message: string;
  type?: 'Normal' | 'Warning';
  count?: number;
  firstAgoMs: number;
  lastAgoMs?: number;
  container?: string;
  /** Repeated by the ticker every N ticks. */
  recurEvery?: number;
}

function register(gen: Gen, ev: CoreEvent, recurEvery: number | undefined): CoreEvent {
  gen.add(ev);
  if (recurEvery)
    gen.recurring.push({
      namespace: ev.metadata.namespace ?? 'default',
      name: ev.metadata.name,
      everyTicks: recurEvery,
    });
  return ev;
}

// Events share one involvedObject per (pod, container) and one source per node: with 100k
// events that is most of the generator's allocation.
const refCache = new WeakMap<Pod, Map<string, ObjectReference>>();
const sourceCache = new Map<string, { component: string; host: string }>();

function podRef(pod: Pod, container?: string): ObjectReference {
  let byContainer = refCache.get(pod);
  if (!byContainer) {
    byContainer = new Map();
    refCache.set(pod, byContainer);
  }
  const key = container ?? '';
  let ref = byContainer.get(key);
  if (!ref) {
    const isInit =
      container !== undefined && (pod.spec.initContainers ?? []).some((c) => c.name === container);
    ref = {
      kind: 'Pod',
      namespace: pod.metadata.namespace ?? '',
      name: pod.metadata.name,
      uid: pod.metadata.uid,
      apiVersion: 'v1',
      resourceVersion: pod.metadata.resourceVersion,
      ...(container ? { fieldPath: `spec.${isInit ? 'initContainers' : 'containers'}{${container}}` } : {}),
    };
    byContainer.set(key, ref);
  }
  return ref;
}

function kubeletSource(node: string): { component: string; host: string } {
  let src = sourceCache.get(node);
  if (!src) {
    src = { component: 'kubelet', host: node };
    sourceCache.set(node, src);
  }
  return src;
}

/** A kubelet event about a pod (source.host is the node, as the kubelet writes it). */
export function kubeletEvent(gen: Gen, pod: Pod, e: PodEventSpec): CoreEvent {
  const node = pod.spec.nodeName ?? '';
  const first = gen.now - e.firstAgoMs;
  const last = gen.now - (e.lastAgoMs ?? e.firstAgoMs);
  const ev = buildEvent(
    {
      metadata: {
        name: eventName(pod.metadata.name, first, gen.nextSalt()),
        creationTimestamp: rfc3339(first),
      },
      involvedObject: podRef(pod, e.container ?? pod.spec.containers[0]?.name),
      reason: e.reason,
      message: e.message,
      type: e.type ?? 'Normal',
      source: kubeletSource(node),
      firstTimestamp: rfc3339(first),
      lastTimestamp: rfc3339(last),
      count: e.count ?? 1,
      reportingComponent: 'kubelet',
      reportingInstance: node,
    },
    last,
  );
  ev.metadata.uid = gen.uid(`event/${ev.metadata.name}`);
  return register(gen, ev, e.recurEvery);
}

/** A scheduler event, written through events.k8s.io: no firstTimestamp/lastTimestamp/count. */
export function schedulerEvent(gen: Gen, pod: Pod, e: PodEventSpec & { action: string }): CoreEvent {
  const first = gen.now - e.firstAgoMs;
  const last = gen.now - (e.lastAgoMs ?? e.firstAgoMs);
  const count = e.count ?? 1;
  const ev = buildEvent(
    {
      metadata: {
        name: eventName(pod.metadata.name, first, gen.nextSalt()),
        creationTimestamp: rfc3339(first),
      },
      involvedObject: podRef(pod),
      reason: e.reason,
      message: e.message,
      type: e.type ?? 'Normal',
      eventTime: microTime(first, (first * 37) % 1000),
      ...(count > 1 ? { series: { count, lastObservedTime: microTime(last, (last * 11) % 1000) } } : {}),
      action: e.action,
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-control-plane-1',
    },
    last,
  );
  ev.metadata.uid = gen.uid(`event/${ev.metadata.name}`);
  return register(gen, ev, e.recurEvery);
}

interface ObjectEventSpec extends Omit<PodEventSpec, 'container'> {
  component: string;
  host?: string;
  fieldPath?: string;
  namespace?: string;
}

/** A controller (or node/kubelet) event about any object. */
export function objectEvent(
  gen: Gen,
  obj: Pick<KubeObject, 'kind' | 'apiVersion' | 'metadata'>,
  e: ObjectEventSpec,
): CoreEvent {
  const first = gen.now - e.firstAgoMs;
  const last = gen.now - (e.lastAgoMs ?? e.firstAgoMs);
  const isNode = obj.kind === 'Node';
  const ev = buildEvent(
    {
      metadata: {
        name: eventName(obj.metadata.name, first, gen.nextSalt()),
        namespace: e.namespace ?? obj.metadata.namespace ?? 'default',
        creationTimestamp: rfc3339(first),
      },
      involvedObject: {
        kind: obj.kind,
        ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
        name: obj.metadata.name,
        // The kubelet reports its node by name in the uid field; controllers use the real uid.
        uid: isNode && e.component === 'kubelet' ? obj.metadata.name : obj.metadata.uid,
        apiVersion: obj.apiVersion,
        ...(e.fieldPath ? { fieldPath: e.fieldPath } : {}),
      },
      reason: e.reason,
      message: e.message,
      type: e.type ?? 'Normal',
      source: { component: e.component, ...(e.host ? { host: e.host } : {}) },
      firstTimestamp: rfc3339(first),
      lastTimestamp: rfc3339(last),
      count: e.count ?? 1,
      reportingComponent: e.component,
      reportingInstance: e.host ?? '',
    },
    last,
  );
  ev.metadata.uid = gen.uid(`event/${ev.metadata.name}`);
  return register(gen, ev, e.recurEvery);
}

/** Scheduled → Pulled → Created → Started for a pod that started normally `agoMs` ago. */
export function startupEvents(gen: Gen, pod: Pod, agoMs: number): void {
  const node = pod.spec.nodeName ?? '';
  schedulerEvent(gen, pod, {
    reason: 'Scheduled',
    message: `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${node}`,
    firstAgoMs: agoMs,
    action: 'Binding',
  });
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    kubeletEvent(gen, pod, {
      reason: 'Pulled',
      message: `Container image "${c.image}" already present on machine`,
      firstAgoMs: agoMs - 1000,
      container: c.name,
    });
    kubeletEvent(gen, pod, {
      reason: 'Created',
      message: `Created container: ${c.name}`,
      firstAgoMs: agoMs - 1200,
      container: c.name,
    });
    kubeletEvent(gen, pod, {
      reason: 'Started',
      message: `Started container ${c.name}`,
      firstAgoMs: agoMs - 1500,
      container: c.name,
    });
  }
}
