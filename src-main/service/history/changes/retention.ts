/**
 * Retention of one cluster's change rows: those recorded before the retention window, then the
 * oldest past the per-cluster cap, in small transactions with the event loop let run between.
 *
 * Rules: every version that stays rebuilds (ChangeStore.pruneOldest: an object keeps its latest row
 * unless that is its deletion, and the oldest row left of an object is given its whole object), so
 * an object that still exists keeps at least one row however old, and the cap cannot go below the
 * number of such objects; rows kept are not scanned again in the same pass (the scan resumes after
 * the last row it looked at); a sealed database (the service closing) ends the pass.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ChangeStore, PruneCursor } from './store';

export const PRUNE_BATCH = 1_000;

/** Prunes the cluster's rows; answers how many went. */
export async function pruneCluster(
  store: ChangeStore,
  clusterId: string,
  o: { beforeMs: number; maxPerCluster: number; batch?: number },
): Promise<number> {
  const size = o.batch ?? PRUNE_BATCH;
  let removed = 0;
  let after: PruneCursor | undefined;
  for (;;) {
    let r = { removed: 0, scanned: 0, last: undefined as PruneCursor | undefined };
    const ok = await store.backend.transaction('change retention', async (tx) => {
      r = await store.pruneOldest(tx, clusterId, { beforeMs: o.beforeMs, batch: size, after });
    });
    if (!ok) return removed;
    removed += r.removed;
    after = r.last;
    if (r.scanned < size) break;
    await yieldToEventLoop();
  }
  let excess = (await store.total(clusterId)) - o.maxPerCluster;
  after = undefined;
  while (excess > 0) {
    let r = { removed: 0, scanned: 0, last: undefined as PruneCursor | undefined };
    const batch = Math.min(size, excess);
    const ok = await store.backend.transaction('change retention', async (tx) => {
      r = await store.pruneOldest(tx, clusterId, { batch, after });
    });
    if (!ok || r.scanned === 0) break;
    removed += r.removed;
    excess -= r.removed;
    after = r.last;
    await yieldToEventLoop();
  }
  return removed;
}
