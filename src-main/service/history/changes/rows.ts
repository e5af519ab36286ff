/**
 * The rows one change of one object makes, as the recorder sees it from a resource cache.
 *
 * Rules: an ADDED is `created` with the whole object; a MODIFIED of the same uid is `updated` with
 * the patch from the previous version, not recorded when that patch is empty (heartbeats are
 * never in it) except for a Secret whose resourceVersion moved (its values move unseen); a
 * MODIFIED whose uid changed (the name was deleted and made again between two looks) is the old
 * one's `deleted` and the new one's `created`. `created` and `deleted` always carry the whole
 * object; an `updated` carries it when the object has no whole copy this run knows of (its count
 * is unknown) or after `wholeEvery` patch-only rows.
 */
import type { ResourceEntry } from '../../cache/entries';
import type { KindInfo } from '../../clusters/kind-info';
import { diff, type Operation, type Version, versionOf } from './diff';
import type { ChangeRow } from './store';
import { type ChangeKind, summarize } from './summary';

export interface RowKind {
  readonly kind: Pick<KindInfo, 'resourceType' | 'kind'>;
  /** `group/plural` (core: `/pods`). */
  readonly kindKey: string;
}

export interface ObjectCounts extends RowKind {
  /** Patch-only rows since each object's last whole copy; absent: unknown. */
  readonly sinceWhole: Map<string, number>;
}

/** A row of `change` for version `v` (`prev`: the version the patch starts from). */
export function changeRow(
  k: RowKind,
  change: ChangeKind,
  v: Version,
  prev: Version | undefined,
  patch: Operation[],
  timeMs: number,
  whole = true,
): ChangeRow {
  const meta = v.object.metadata as { namespace?: string; name?: string };
  return {
    timeMs,
    resourceType: k.kind.resourceType,
    kind: k.kind.kind,
    namespace: meta.namespace ?? '',
    name: meta.name ?? '',
    uid: v.uid,
    change,
    resourceVersion: v.resourceVersion,
    patch: JSON.stringify(patch),
    summary: summarize({ change, kindKey: k.kindKey, prev: prev?.object, next: v.object, patch }),
    object: whole || change !== 'updated' ? JSON.stringify(v.object) : null,
  };
}

/** The rows of an upsert of `entry` over `previous` (none: an ADDED). */
export function upsertRows(
  state: ObjectCounts,
  entry: ResourceEntry,
  previous: ResourceEntry | undefined,
  wholeEvery: number,
  timeMs: number,
): ChangeRow[] {
  const next = versionOf(entry.json, state.kindKey);
  if (!previous) {
    state.sinceWhole.set(entry.key, 0);
    return [changeRow(state, 'created', next, undefined, [], timeMs)];
  }
  const prev = versionOf(previous.json, state.kindKey);
  if (prev.uid !== next.uid) {
    state.sinceWhole.set(entry.key, 0);
    return [
      changeRow(state, 'deleted', prev, undefined, [], timeMs),
      changeRow(state, 'created', next, undefined, [], timeMs),
    ];
  }
  const patch = diff(prev, next);
  const secretMoved = state.kindKey === '/secrets' && prev.resourceVersion !== next.resourceVersion;
  if (patch.length === 0 && !secretMoved) return [];
  const since = state.sinceWhole.get(entry.key);
  const whole = since === undefined || since >= wholeEvery;
  state.sinceWhole.set(entry.key, whole ? 0 : since + 1);
  return [changeRow(state, 'updated', next, prev, patch, timeMs, whole)];
}
