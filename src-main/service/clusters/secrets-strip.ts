/**
 * A Secret's values never leave the cluster: they are dropped from the object the moment it is
 * parsed, before a cache, a log, a snapshot or an answer sees it. The object is changed in place,
 * so no copy anywhere (a page being read, a watch event) still holds them.
 *
 * What is kept: the metadata, `type`, `immutable`, and each key's name with its value's size in
 * bytes, as `keys: [{name, bytes}]` ordered by name. The key names explain "couldn't find key X in
 * Secret Y"; a size of 0 says a key is there but empty. `data` and `stringData` are removed, and
 * so is the `kubectl.kubernetes.io/last-applied-configuration` annotation, which holds a copy of
 * them. Nothing else of the object is read: sizes come from the text's length, never by decoding.
 */

import type { KubeObject } from '../../../src-shared/contract/models';
import { compareText } from './discovery/names';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

export interface SecretKey {
  readonly name: string;
  /** The value's size in bytes, decoded (what the pod reads from the mounted file). */
  readonly bytes: number;
}

type Values = Record<string, unknown>;

const isValues = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Strips a Secret in place and answers it. */
export function stripSecret<T extends KubeObject>(obj: T): T {
  const o = obj as T & { data?: unknown; stringData?: unknown; keys?: SecretKey[] };
  const sizes = new Map<string, number>();
  if (isValues(o.data)) {
    for (const [name, value] of Object.entries(o.data))
      sizes.set(name, typeof value === 'string' ? Buffer.byteLength(value, 'base64') : 0);
  }
  // stringData is write-only and never read back, but a source that keeps it (a test feed, an old
  // file) must not leak it either; the apiserver lets it win over data, and so does the size.
  if (isValues(o.stringData)) {
    for (const [name, value] of Object.entries(o.stringData))
      sizes.set(name, typeof value === 'string' ? Buffer.byteLength(value) : 0);
  }
  delete o.data;
  delete o.stringData;
  o.keys = [...sizes].sort(([a], [b]) => compareText(a, b)).map(([name, bytes]) => ({ name, bytes }));
  const annotations = o.metadata?.annotations;
  if (annotations && LAST_APPLIED_ANNOTATION in annotations) {
    delete annotations[LAST_APPLIED_ANNOTATION];
    if (Object.keys(annotations).length === 0) delete o.metadata.annotations;
  }
  return obj;
}
