import type { EventRecord, KubeObject } from '../../../src-shared/contract/models';
import { compareEvents, normaliseEvent } from '../events/normalise';
import type { Keyed } from '../cache/collection';

/**
 * What a cache keeps of each object: the object once, as JSON text (a one-byte V8 string is several
 * times smaller than the object graph, and a list body is then built by concatenation), plus the
 * few parsed fields that order and filter it.
 */
export interface ResourceEntry extends Keyed {
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>> | undefined;
  /** The object as the API serves it: managedFields removed, apiVersion and kind filled in. */
  readonly json: string;
}

/**
 * An event record, kept as its fields: records are small and regular, so the field names JSON
 * would repeat in every one cost more than building a page's JSON at read time. Values that recur
 * across events (namespaces, reasons, kinds, components) are shared strings.
 */
export interface EventEntry extends Keyed {
  readonly eventId: string;
  readonly lastMs: number;
  readonly type: 'NORMAL' | 'WARNING';
  readonly reason: string;
  readonly namespace: string;
  /** The involved object's kind as the cluster wrote it; `kindKey` is the lower-cased index key. */
  readonly kind: string;
  readonly kindKey: string;
  readonly name: string;
  readonly category: 'resource' | 'system';
  readonly clusterId: string;
  /** involvedObject.uid, which is also the record's resourceId. */
  readonly resourceId: string;
  readonly firstTimestamp: string;
  readonly lastTimestamp: string;
  readonly count: number;
  readonly message: string;
  readonly component: string;
  readonly host: string;
}

export const keyOf = (obj: { metadata?: { namespace?: string; name?: string } }): string =>
  `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

/** Strips what the API never returns: managedFields. Everything else stays as the cluster sent it. */
export function cleanObject(obj: KubeObject, apiVersion: string, kind: string): KubeObject {
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { apiVersion: obj.apiVersion ?? apiVersion, kind: obj.kind ?? kind, ...obj, metadata } as KubeObject;
}

export function resourceEntry(obj: KubeObject, apiVersion: string, kind: string): ResourceEntry {
  const clean = cleanObject(obj, apiVersion, kind);
  return {
    key: keyOf(obj),
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name,
    labels: obj.metadata.labels,
    json: JSON.stringify(clean),
  };
}

/**
 * One shared copy of each recurring value. Bounded: past the bound new values are simply not
 * shared, so a cluster with unusual churn costs memory, never correctness.
 */
const shared = new Map<string, string>();
const SHARED_MAX = 50_000;
function share(value: string): string {
  const known = shared.get(value);
  if (known !== undefined) return known;
  if (shared.size < SHARED_MAX) shared.set(value, value);
  return value;
}

/** Events are keyed by uid: unique, and what the record calls eventId. */
export const eventKeyOf = (obj: { metadata?: { namespace?: string; name?: string; uid?: string } }): string =>
  obj.metadata?.uid ?? keyOf(obj);

export function eventEntry(obj: KubeObject, clusterId: string): EventEntry {
  const e = normaliseEvent(obj, clusterId);
  const io = e.involvedObject;
  return {
    key: eventKeyOf(obj),
    eventId: e.eventId,
    lastMs: e.lastMs,
    type: e.type,
    reason: share(e.reason),
    namespace: share(io.namespace),
    kind: share(io.kind),
    kindKey: share(io.kind.toLowerCase()),
    name: io.name,
    category: e.category,
    clusterId,
    resourceId: e.resourceId,
    lastTimestamp: e.lastTimestamp,
    // Most events carry the same time in both fields: keep it once.
    firstTimestamp: e.firstTimestamp === e.lastTimestamp ? e.lastTimestamp : e.firstTimestamp,
    count: e.count,
    message: e.message,
    component: share(e.source.component),
    host: share(e.source.host),
  };
}

/** The record the API serves, in the spec's field order. */
export function eventRecord(e: EventEntry, workspaceId: string): EventRecord {
  return {
    workspaceId,
    clusterId: e.clusterId,
    resourceId: e.resourceId,
    eventId: e.eventId,
    firstTimestamp: e.firstTimestamp,
    lastTimestamp: e.lastTimestamp,
    count: e.count,
    message: e.message,
    reason: e.reason,
    type: e.type,
    involvedObject: { kind: e.kind, name: e.name, uid: e.resourceId, namespace: e.namespace },
    source: { component: e.component, host: e.host },
  };
}

/** The ordered index lists of the event cache: one per filter of the event list. */
export const EVENT_INDEXES = {
  type: (e: EventEntry) => e.type,
  reason: (e: EventEntry) => e.reason,
  namespace: (e: EventEntry) => e.namespace,
  kind: (e: EventEntry) => e.kindKey,
  category: (e: EventEntry) => e.category,
} as const;

/** What a relist compares: two entries with the same fingerprint are the same record. */
export function eventFingerprint(e: EventEntry): string {
  return JSON.stringify(eventRecord(e, ''));
}

/** Namespace, then name: the apiserver's own order. */
export function compareResources(a: ResourceEntry, b: ResourceEntry): number {
  if (a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Newest first, then eventId: the one order of the event list (see compareEvents). */
export const compareEventEntries: (a: EventEntry, b: EventEntry) => number = compareEvents;

/** Label pairs as index keys: `app=web` for label app with value web. */
export function labelKeys(entry: ResourceEntry): readonly string[] | undefined {
  if (!entry.labels) return undefined;
  return Object.entries(entry.labels).map(([k, v]) => `${k}=${v}`);
}
