/**
 * How stored objects go on the wire. List items carry no apiVersion/kind (the apiserver clears
 * TypeMeta on items; only the list itself and single objects and watch events carry it),
 * events.k8s.io/v1 requests see a converted view of the stored core/v1 events, and a kind served
 * at several versions (autoscaling v2 and v1, a CRD's versions) names the version asked for.
 */

import { apiVersionOf, type ResourceDef } from './resources';
import type { CoreEvent, KubeObject } from './types';

export function present(def: ResourceDef, obj: KubeObject): KubeObject {
  if (def.storage === 'events' && def.group === 'events.k8s.io') return toEventsV1(obj as CoreEvent);
  const apiVersion = apiVersionOf(def);
  return obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion };
}

/** Full object JSON (get responses, watch events). */
export function objectJson(def: ResourceDef, obj: KubeObject): string {
  // The apiserver writes kind before apiVersion; keep the wire order familiar.
  const { kind, apiVersion, ...rest } = present(def, obj);
  return JSON.stringify({ kind, apiVersion, ...rest });
}

// Stored objects are immutable (updates replace them), so their list JSON can be kept until
// the object itself is dropped. Repeated chunked lists of big clusters become string joins.
const itemCache = new WeakMap<KubeObject, string>();

/** List item JSON: the object without apiVersion/kind. */
export function itemJson(def: ResourceDef, obj: KubeObject): string {
  // Events are the bulk of a big cluster and mostly read once; caching them would double
  // their memory for little gain.
  const cacheable = def.storage === undefined && def.resource !== 'events';
  if (cacheable) {
    const hit = itemCache.get(obj);
    if (hit !== undefined) return hit;
  }
  const { apiVersion: _a, kind: _k, ...rest } = present(def, obj);
  const json = JSON.stringify(rest);
  if (cacheable) itemCache.set(obj, json);
  return json;
}

/**
 * Tells the list item JSON of an object whose JSON is known already (a snapshot holds its
 * objects as text), so it is never serialised. The caller vouches that `json` is the object
 * without apiVersion and kind.
 */
export function primeItemJson(obj: KubeObject, json: string): void {
  itemCache.set(obj, json);
}

export function listEnvelope(def: ResourceDef): string {
  return `{"kind":${JSON.stringify(def.listKind)},"apiVersion":${JSON.stringify(apiVersionOf(def))}`;
}

function toEventsV1(ev: CoreEvent): KubeObject {
  return {
    kind: 'Event',
    apiVersion: 'events.k8s.io/v1',
    metadata: ev.metadata,
    eventTime: ev.eventTime,
    ...(ev.series
      ? { series: { count: ev.series.count, lastObservedTime: ev.series.lastObservedTime } }
      : {}),
    reportingController: ev.reportingComponent,
    reportingInstance: ev.reportingInstance,
    ...(ev.action ? { action: ev.action } : {}),
    reason: ev.reason,
    regarding: ev.involvedObject,
    note: ev.message,
    type: ev.type,
    ...(ev.source.component || ev.source.host ? { deprecatedSource: ev.source } : {}),
    deprecatedFirstTimestamp: ev.firstTimestamp,
    deprecatedLastTimestamp: ev.lastTimestamp,
    ...(ev.count ? { deprecatedCount: ev.count } : {}),
  };
}
