/**
 * A change_history row as the API answers it (src-shared/contract/change-operations.ts): the
 * columns a read selects, and the items of an object's history and of the cluster-wide feed.
 *
 * Rules: `seen` rows (a baseline: the object as first seen, or again after a restart) are never an
 * item; a `created` row's patch is the whole object added at the root (the recorder stores the
 * object beside an empty patch); a row whose stored JSON does not parse answers an empty patch
 * rather than failing the page (a snapshot's rows were checked when it was opened, the app's are
 * ours); times are RFC 3339 in UTC.
 */
import type {
  ChangeType,
  ClusterChange,
  JsonPatchOperation,
  ObjectChange,
} from '../../../../src-shared/contract/change-operations';

/** The columns every read selects, in this order. */
export const ROW_COLUMNS =
  'id, time_ms, resource_type, kind, namespace, name, uid, change, resource_version, patch, summary, object';

export interface StoredChange {
  id: number;
  time_ms: number;
  resource_type: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  change: ChangeType | 'seen';
  resource_version: string;
  patch: string;
  summary: string;
  object: string | null;
}

/** The condition that leaves out the baselines: every read of items has it. */
export const LISTED = "change <> 'seen'";

function parsed(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function patchOf(r: StoredChange): JsonPatchOperation[] {
  const patch = parsed(r.patch);
  const ops = Array.isArray(patch) ? (patch as JsonPatchOperation[]) : [];
  if (r.change !== 'created' || ops.length > 0) return ops;
  const object = parsed(r.object);
  return object === undefined ? [] : [{ op: 'add', path: '', value: object }];
}

/** One item of an object's history. */
export function objectChangeOf(r: StoredChange): ObjectChange {
  return {
    time: new Date(r.time_ms).toISOString(),
    // Only listed rows reach here (LISTED): a `seen` row is never an item.
    change: r.change as ChangeType,
    resourceVersion: r.resource_version,
    patch: patchOf(r),
    summary: r.summary,
  };
}

/** One item of the cluster-wide feed: the change, which object, and its place in the feed. */
export function clusterChangeOf(r: StoredChange): ClusterChange {
  return {
    id: String(r.id),
    ref: {
      kind: r.kind,
      resourceType: r.resource_type,
      ...(r.namespace !== '' ? { namespace: r.namespace } : {}),
      name: r.name,
      uid: r.uid,
    },
    ...objectChangeOf(r),
  };
}
