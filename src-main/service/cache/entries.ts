/**
 * What a resource cache keeps of each object (ResourceEntry), its key, its index keys and its
 * order. Events have their own entries (events/entries.ts).
 *
 * Rules: an entry is immutable once made; the object is kept as the API serves it, managedFields
 * removed and nothing else changed.
 */
import type { KubeObject } from '../../../src-shared/contract/models';
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

/** Namespace, then name: the apiserver's own order. */
export function compareResources(a: ResourceEntry, b: ResourceEntry): number {
  if (a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Label pairs as index keys: `app=web` for label app with value web. */
export function labelKeys(entry: ResourceEntry): readonly string[] | undefined {
  if (!entry.labels) return undefined;
  return Object.entries(entry.labels).map(([k, v]) => `${k}=${v}`);
}
