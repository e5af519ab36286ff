/**
 * Brings a kind's recorded chains up to what its cache holds, when recording of it (re)starts:
 * at the first list after the service starts, and when this replica takes a cluster's lease.
 *
 * Rules: an object with no chain (or whose chain ended in a deletion, or belongs to another uid)
 * gets its whole object, as `created` when made after recording of the kind began (its first
 * row, or this process's start for a kind never recorded) and as `seen` (a baseline the API does
 * not list) otherwise; a chain whose last resourceVersion is the object's gets nothing; one whose
 * version moved gets `updated` with the whole object and the patch from its rebuilt version (none
 * when only heartbeats moved, as for any update); a chain whose object is gone gets `deleted` with
 * its rebuilt last version. Rows are stamped with the time of the reconcile.
 */
import type { ResourceEntry } from '../../cache/entries';
import type { KindInfo } from '../../clusters/kind-info';
import { diff, versionOf, versionOfObject } from './diff';
import { changeRow } from './rows';
import type { ChangeRow, ChangeStore } from './store';

export interface Reconciler {
  readonly store: ChangeStore;
  /** The service's clock: the rows' time. */
  now(): number;
}

export interface ReconcileState {
  readonly clusterId: string;
  readonly kind: KindInfo;
  readonly kindKey: string;
  readonly startedMs: number;
  readonly sinceWhole: Map<string, number>;
}

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;

export async function reconcile(
  r: Reconciler,
  state: ReconcileState,
  entries: readonly ResourceEntry[],
): Promise<ChangeRow[]> {
  const { clusterId } = state;
  const resourceType = state.kind.resourceType;
  const latest = new Map(
    (await r.store.latest(clusterId, resourceType)).map((l) => [keyOf(l.namespace, l.name), l]),
  );
  const began = (await r.store.kindStart(clusterId, resourceType)) ?? state.startedMs;
  const rebuilt = async (l: { id: number; namespace: string; name: string; resource_version: string }) => {
    const obj = await r.store.rebuild(r.store.backend, clusterId, { resourceType, ...l }, l.id);
    // A stored object has no resourceVersion (a column of its own): the chain's last one is it.
    return obj ? { ...versionOfObject(obj, state.kindKey), resourceVersion: l.resource_version } : undefined;
  };
  const rows: ChangeRow[] = [];
  const now = r.now();
  for (const e of entries) {
    const v = versionOf(e.json, state.kindKey);
    const l = latest.get(e.key);
    latest.delete(e.key);
    if (l && l.change !== 'deleted' && l.uid === v.uid) {
      if (l.resource_version === v.resourceVersion) {
        state.sinceWhole.delete(e.key);
        continue;
      }
      const prev = await rebuilt(l);
      const patch = prev ? diff(prev, v) : [];
      if (prev && patch.length === 0 && state.kindKey !== '/secrets') {
        state.sinceWhole.delete(e.key);
        continue;
      }
      state.sinceWhole.set(e.key, 0);
      rows.push(changeRow(state, 'updated', v, prev, patch, now));
      continue;
    }
    if (l && l.change !== 'deleted') {
      const prev = await rebuilt(l);
      if (prev) rows.push(changeRow(state, 'deleted', prev, undefined, [], now));
    }
    const created = Date.parse(
      String((v.object.metadata as { creationTimestamp?: unknown }).creationTimestamp),
    );
    state.sinceWhole.set(e.key, 0);
    rows.push(changeRow(state, created >= began ? 'created' : 'seen', v, undefined, [], now));
  }
  for (const l of latest.values()) {
    if (l.change === 'deleted') continue;
    const prev = await rebuilt(l);
    if (prev) rows.push(changeRow(state, 'deleted', prev, undefined, [], now));
  }
  return rows;
}
