/**
 * What a recorded change is made of: the object as stored, and the RFC 6902 JSON Patch from the
 * previous recorded version to the new one (fast-json-patch `compare`).
 *
 * Rules:
 * - Never stored: `metadata.managedFields` (the cache has dropped it already) and
 *   `metadata.resourceVersion` (it is a column of its own). `metadata.generation` is kept.
 * - Left out of the diff, as heartbeats: a change made only of these is not recorded, and a patch
 *   never carries them (a rebuilt version shows those of the nearest earlier whole object):
 *   - `status.conditions[*].lastHeartbeatTime` and `status.conditions[*].lastProbeTime`, of any
 *     kind (a Node's kubelet renews them every few seconds);
 *   - a Lease's `spec.renewTime` (leader election and node heartbeats renew it every few seconds);
 *   - the `control-plane.alpha.kubernetes.io/leader` annotation, of any kind (the leader
 *     election record older components renew on an Endpoints or ConfigMap);
 *   - a HorizontalPodAutoscaler's `status.currentMetrics` (a measurement taken every 15 s; its
 *     decisions, `desiredReplicas` and `lastScaleTime`, are kept).
 * - Pure: parsing copies nothing it does not change; the objects given are never mutated.
 */
import jsonpatch, { type Operation } from 'fast-json-patch';

export type { Operation } from 'fast-json-patch';

export type Json = Record<string, unknown>;

export const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One version of an object as recorded: what is stored, its identity, and what is compared. */
export interface Version {
  /** The object without managedFields and resourceVersion: the `object` column when whole. */
  readonly object: Json;
  readonly resourceVersion: string;
  readonly uid: string;
  /** `object` without the heartbeat fields: what diffs are computed from. */
  readonly comparable: Json;
}

/** `group/plural` of a kind (core group: empty), as the heartbeat rules name kinds. */
export type KindKey = string;

/** Parses an entry's JSON text once into a Version. */
export function versionOf(json: string, kindKey: KindKey): Version {
  const parsed = JSON.parse(json) as Json;
  return versionOfObject(parsed, kindKey);
}

/** A Version of an object already parsed (it is not mutated: its metadata is copied). */
export function versionOfObject(parsed: Json, kindKey: KindKey): Version {
  const meta = isRecord(parsed.metadata) ? parsed.metadata : {};
  const { managedFields: _m, resourceVersion, ...metadata } = meta;
  const object: Json = { ...parsed, metadata };
  return {
    object,
    resourceVersion: typeof resourceVersion === 'string' ? resourceVersion : '',
    uid: typeof metadata.uid === 'string' ? metadata.uid : '',
    comparable: withoutHeartbeats(object, kindKey),
  };
}

/** `obj` without the heartbeat fields (a copy of the parts it changes; the rest is shared). */
export function withoutHeartbeats(obj: Json, kindKey: KindKey): Json {
  let out = obj;
  const meta = isRecord(obj.metadata) ? obj.metadata : undefined;
  const annotations = meta && isRecord(meta.annotations) ? meta.annotations : undefined;
  if (annotations && LEADER_ANNOTATION in annotations) {
    const { [LEADER_ANNOTATION]: _l, ...rest } = annotations;
    out = { ...out, metadata: { ...meta, annotations: rest } };
  }
  const status = isRecord(obj.status) ? obj.status : undefined;
  if (status) {
    let s = status;
    if (Array.isArray(status.conditions)) {
      s = {
        ...s,
        conditions: status.conditions.map((c: unknown) => {
          if (!isRecord(c)) return c;
          const { lastHeartbeatTime: _h, lastProbeTime: _p, ...kept } = c;
          return kept;
        }),
      };
    }
    if (kindKey === 'autoscaling/horizontalpodautoscalers' && 'currentMetrics' in s) {
      const { currentMetrics: _c, ...kept } = s;
      s = kept;
    }
    if (s !== status) out = { ...out, status: s };
  }
  if (kindKey === 'coordination.k8s.io/leases' && isRecord(obj.spec) && 'renewTime' in obj.spec) {
    const { renewTime: _r, ...spec } = obj.spec;
    out = { ...out, spec };
  }
  return out;
}

/** The RFC 6902 patch from `prev` to `next` (comparable forms), empty when they are the same. */
export function diff(prev: Version, next: Version): Operation[] {
  return jsonpatch.compare(prev.comparable, next.comparable);
}

/**
 * Applies `patch` to a copy of `obj` (the rebuild of a later version from an earlier whole one).
 * Throws when the patch does not apply (a chain that was not recorded from this object).
 */
export function applied(obj: Json, patch: readonly Operation[]): Json {
  return jsonpatch.applyPatch(structuredClone(obj), patch as Operation[], true, true).newDocument;
}
