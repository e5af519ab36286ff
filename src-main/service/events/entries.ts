/**
 * What the event cache keeps of each Kubernetes event (EventEntry), its key, its index keys, its
 * fingerprint and its order, and the record the API serves from it.
 *
 * Rules: one order everywhere (normalise.ts: newest first, then eventId); an entry is immutable
 * once made; values that recur across events are shared strings, bounded, so unusual churn costs
 * memory, never correctness.
 */
import type { EventRecord, KubeObject } from '../../../src-shared/contract/models';
import { Collection, type Keyed } from '../cache/collection';
import { keyOf } from '../cache/entries';
import { compareEvents, normaliseEvent } from './normalise';

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

/**
 * One shared copy of each recurring value. Bounded: past the bound new values are simply not
 * shared, so a cluster with unusual churn costs memory, never correctness.
 */
const shared = new Map<string, string>();
const SHARED_MAX = 50_000;
// Stryker disable all: sharing saves memory only; which copy of equal text is kept is not observable.
function share(value: string): string {
  const known = shared.get(value);
  if (known !== undefined) return known;
  if (shared.size < SHARED_MAX) shared.set(value, value);
  return value;
}
// Stryker restore all

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
    // Most events carry the same time in both fields: keep it once (equal text either way).
    // Stryker disable next-line ConditionalExpression: both branches are the same text; only memory differs.
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
  // Stryker disable next-line StringLiteral: any one workspace fingerprints every record alike.
  return JSON.stringify(eventRecord(e, ''));
}

/** Newest first, then eventId: the one order of the event list (see compareEvents). */
export const compareEventEntries: (a: EventEntry, b: EventEntry) => number = compareEvents;

/**
 * How a cache of one cluster's events makes, keys, fingerprints and keeps its entries: a
 * ResourceCache's options but its source and timings, so the service's event cache
 * (clusters/cluster-caches.ts) and the tests' caches are built alike. A new collection each call.
 */
export function eventCacheParts(clusterId: string) {
  return {
    toEntry: (obj: KubeObject) => eventEntry(obj, clusterId),
    keyOf: eventKeyOf,
    fingerprint: eventFingerprint,
    collection: new Collection(compareEventEntries, EVENT_INDEXES),
  };
}
