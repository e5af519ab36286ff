import type { KubeObject } from '../../../src-shared/contract/models';
import { compareEvents, normaliseEvent, toRecord } from '../events/normalise';
import type { Keyed } from './collection';

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

/** An event record, kept as the JSON of its fields after `workspaceId`, plus what filters it. */
export interface EventEntry extends Keyed {
  readonly eventId: string;
  readonly lastMs: number;
  readonly type: 'NORMAL' | 'WARNING';
  readonly reason: string;
  readonly namespace: string;
  /** The involved object's kind, lower-cased: the filter is case-insensitive. */
  readonly kind: string;
  readonly name: string;
  readonly category: 'resource' | 'system';
  /** `"clusterId":…}`: the record's JSON without its opening brace and workspaceId. */
  readonly body: string;
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

export function eventEntry(obj: KubeObject, clusterId: string): EventEntry {
  const e = normaliseEvent(obj, clusterId);
  const { workspaceId: _placeholder, ...record } = toRecord(e, '');
  return {
    key: keyOf(obj),
    eventId: e.eventId,
    lastMs: e.lastMs,
    type: e.type,
    reason: e.reason,
    namespace: e.involvedObject.namespace,
    kind: e.involvedObject.kind.toLowerCase(),
    name: e.involvedObject.name,
    category: e.category,
    body: JSON.stringify(record).slice(1),
  };
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

/** A JSON array of the given element texts. */
export function jsonArray(parts: readonly string[]): string {
  return `[${parts.join(',')}]`;
}
