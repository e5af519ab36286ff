/**
 * core/v1 Event construction in the two shapes a real cluster stores side by side: the classic
 * shape (count, firstTimestamp, lastTimestamp, source) written by kubelet and controllers via
 * the core API, and the events.k8s.io shape (eventTime, series, reportingComponent; the classic
 * fields null) written by the scheduler and newer components, read back through core/v1.
 */

import { managedEntry } from './managed-fields';
import { apiVersionOf, resourceForKind } from './resources';
import { microTime, rfc3339 } from './time';
import type { CoreEvent, ObjectMeta, ObjectReference } from './types';

export interface EventInput {
  involvedObject: Partial<ObjectReference> & { kind: string; name: string };
  reason: string;
  message: string;
  type?: 'Normal' | 'Warning';
  metadata?: Partial<Pick<ObjectMeta, 'name' | 'namespace' | 'creationTimestamp' | 'uid'>>;
  source?: { component?: string; host?: string };
  /** Classic fields; pass null explicitly to leave them empty like events.k8s.io writers do. */
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  /** events.k8s.io fields; giving eventTime makes a new-style event unless timestamps are set. */
  eventTime?: string | null;
  series?: { count: number; lastObservedTime: string };
  action?: string;
  reportingComponent?: string;
  reportingInstance?: string;
}

export interface EventBump {
  message?: string;
  /** How many occurrences to add; defaults to 1. */
  by?: number;
}

let nameCounter = 0;

/** Kubernetes names events "<involved name>.<UnixNano in hex>". */
export function eventName(involvedName: string, atMs: number, salt = nameCounter++): string {
  const nanos = BigInt(Math.floor(atMs)) * 1_000_000n + BigInt(salt % 1_000_000);
  return `${involvedName}.${nanos.toString(16)}`;
}

const MANAGER_BY_COMPONENT: Record<string, string> = {
  kubelet: 'kubelet',
  'default-scheduler': 'kube-scheduler',
  'kube-apiserver': 'kube-apiserver',
};

function managerFor(component: string): string {
  if (MANAGER_BY_COMPONENT[component]) return MANAGER_BY_COMPONENT[component];
  if (component.endsWith('-controller') || component === 'cronjob-controller')
    return 'kube-controller-manager';
  return component || 'unknown';
}

export function buildEvent(input: EventInput, now: number): CoreEvent {
  const io = input.involvedObject;
  let involvedObject: ObjectReference;
  if (io.apiVersion !== undefined && io.uid !== undefined) {
    // Already complete: share it (generators reuse one reference for all events of an object).
    involvedObject = io as ObjectReference;
  } else {
    const ioDef = resourceForKind(io.kind);
    involvedObject = {
      kind: io.kind,
      name: io.name,
      uid: io.uid ?? '',
      apiVersion: io.apiVersion ?? (ioDef ? apiVersionOf(ioDef) : 'v1'),
    };
    if (io.namespace !== undefined) involvedObject.namespace = io.namespace;
    if (io.resourceVersion !== undefined) involvedObject.resourceVersion = io.resourceVersion;
    if (io.fieldPath !== undefined) involvedObject.fieldPath = io.fieldPath;
  }
  const newStyle =
    input.eventTime != null && input.firstTimestamp === undefined && input.lastTimestamp === undefined;
  const reportingComponent = input.reportingComponent ?? input.source?.component ?? 'skiff-simulator';
  const created = input.metadata?.creationTimestamp ?? rfc3339(now);
  const ev: CoreEvent = {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: {
      name: input.metadata?.name ?? eventName(io.name, now),
      namespace: input.metadata?.namespace ?? io.namespace ?? 'default',
      uid: input.metadata?.uid ?? '',
      resourceVersion: '',
      creationTimestamp: created,
    },
    involvedObject,
    reason: input.reason,
    message: input.message,
    source: newStyle ? (input.source ?? {}) : (input.source ?? { component: reportingComponent }),
    firstTimestamp: newStyle
      ? null
      : input.firstTimestamp === undefined
        ? rfc3339(now)
        : input.firstTimestamp,
    lastTimestamp: newStyle ? null : input.lastTimestamp === undefined ? rfc3339(now) : input.lastTimestamp,
    type: input.type ?? 'Normal',
    eventTime: input.eventTime ?? null,
    reportingComponent,
    reportingInstance: input.reportingInstance ?? input.source?.host ?? '',
  };
  if (!newStyle) ev.count = input.count ?? 1;
  if (input.series) ev.series = input.series;
  if (input.action) ev.action = input.action;
  ev.metadata.managedFields = [eventManagedFields(ev, created)];
  return ev;
}

function eventManagedFields(ev: CoreEvent, time: string) {
  const io = ev.involvedObject;
  const src = ev.source;
  // Cheap shape key: which optional fields are set decides the trie.
  const cacheKey = `event|${ev.firstTimestamp === null ? 0 : 1}${ev.lastTimestamp === null ? 0 : 1}${ev.count ? 1 : 0}${ev.eventTime ? 1 : 0}${ev.series ? 1 : 0}${ev.action ? 1 : 0}${ev.reportingInstance ? 1 : 0}|${io.namespace === undefined ? 0 : 1}${io.resourceVersion === undefined ? 0 : 1}${io.fieldPath === undefined ? 0 : 1}|${src.component ? 1 : 0}${src.host ? 1 : 0}`;
  return managedEntry({
    manager: managerFor(ev.reportingComponent || src.component || ''),
    apiVersion: ev.eventTime && ev.firstTimestamp === null ? 'events.k8s.io/v1' : 'v1',
    time,
    owned: () => {
      const { metadata: _m, kind: _k, apiVersion: _a, ...body } = ev;
      const owned: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(body)) {
        if (value !== null && value !== undefined && value !== '') owned[key] = value;
      }
      return owned;
    },
    cacheKey,
  });
}

/** One more occurrence: count/lastTimestamp for classic events, series for new-style ones. */
export function bumpEventObject(ev: CoreEvent, now: number, bump: EventBump): CoreEvent {
  const by = bump.by ?? 1;
  const next: CoreEvent = structuredClone(ev);
  if (bump.message !== undefined) next.message = bump.message;
  if (next.firstTimestamp === null && next.eventTime !== null) {
    next.series = { count: (next.series?.count ?? 1) + by, lastObservedTime: microTime(now) };
  } else {
    next.count = (next.count ?? 1) + by;
    next.lastTimestamp = rfc3339(now);
  }
  const mf = next.metadata.managedFields?.[0];
  if (mf) next.metadata.managedFields = [{ ...mf, time: rfc3339(now) }];
  return next;
}

/** When an event last happened: series, then lastTimestamp, eventTime, creation (ms). */
export function lastSeen(ev: CoreEvent): number {
  const t = ev.series?.lastObservedTime ?? ev.lastTimestamp ?? ev.eventTime ?? ev.metadata.creationTimestamp;
  return Date.parse(t);
}
