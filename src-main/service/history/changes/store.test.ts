/**
 * The writer's SQL of change_history on both backends: the latest row per object, when a kind's
 * recording began, rebuilding a version, and retention that keeps every surviving version
 * rebuildable. Rows are inserted straight, out of time order where it matters.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  type BackendKind,
  eachBackend,
  openBackend,
  postgresPerFile,
} from '../../events/history/history.test-support';
import type { StorageBackend } from '../../storage/backend';
import { pruneCluster } from './retention';
import { type ChangeRow, ChangeStore, rebuildChain } from './store';

const C = 'c1';
const base = { resourceType: 'deployment', kind: 'Deployment', namespace: 'ns', uid: 'u1' };

/** A chain of one object: a whole object at first, then patches setting replicas, one per minute. */
function chain(
  name: string,
  t0: number,
  replicas: readonly number[],
  over: Partial<ChangeRow> = {},
): ChangeRow[] {
  return replicas.map((r, i) => ({
    ...base,
    name,
    timeMs: t0 + i * 60_000,
    change: i === 0 ? 'seen' : 'updated',
    resourceVersion: String(i + 1),
    patch: i === 0 ? '[]' : JSON.stringify([{ op: 'replace', path: '/spec/replicas', value: r }]),
    summary: i === 0 ? 'first seen' : `replicas ${replicas[i - 1]} → ${r}`,
    object: i === 0 ? JSON.stringify({ metadata: { name }, spec: { replicas: r } }) : null,
    ...over,
  }));
}

postgresPerFile();

eachBackend((kind: BackendKind) => {
  let backend: StorageBackend;
  let close: () => Promise<void>;
  let store: ChangeStore;
  beforeEach(async () => {
    ({ backend, close } = await openBackend(kind));
    store = new ChangeStore(backend);
  });
  afterEach(async () => close());

  const put = (rows: ChangeRow[], cluster = C) =>
    backend.transaction('test', (tx) => store.insert(tx, cluster, rows, 1));
  const all = (cluster = C) =>
    backend.all<{ id: number; name: string; change: string; object: string | null; time_ms: number }>(
      'SELECT id, name, change, object, time_ms FROM change_history WHERE cluster_id = $c ORDER BY id',
      { c: cluster },
    );
  const replicasAt = async (name: string, id: number) =>
    (
      (await store.rebuild(backend, C, { resourceType: 'deployment', namespace: 'ns', name }, id)) as {
        spec: { replicas: number };
      }
    ).spec.replicas;

  it('answers the latest row of each object of a kind, and when the kind was first recorded', async () => {
    await put([
      ...chain('b', 5_000, [1, 2]),
      ...chain('a', 1_000, [1]),
      { ...chain('c', 9_000, [1])[0]!, resourceType: 'pod' },
    ]);
    await put(chain('a', 500, [1, 3]).slice(1), 'other');
    const latest = await store.latest(C, 'deployment');
    expect(latest.map((l) => [l.name, l.resource_version, l.change]).sort()).toEqual([
      ['a', '1', 'seen'],
      ['b', '2', 'updated'],
    ]);
    expect(await store.kindStart(C, 'deployment')).toBe(1_000);
    expect(await store.kindStart(C, 'service')).toBeUndefined();
    expect(await store.clusters()).toEqual(expect.arrayContaining([C, 'other']));
    expect(await store.total(C)).toBe(4);
  });

  it('rebuilds a version from the latest whole object at or before it and the patches after it', async () => {
    const rows = chain('a', 0, [1, 2, 3, 4]);
    rows[2] = { ...rows[2]!, object: JSON.stringify({ metadata: { name: 'a' }, spec: { replicas: 3 } }) };
    await put(rows);
    const ids = (await all()).map((r) => r.id);
    expect(await Promise.all(ids.map((id) => replicasAt('a', id)))).toEqual([1, 2, 3, 4]);
    expect(
      await store.rebuild(backend, C, { resourceType: 'deployment', namespace: 'ns', name: 'zz' }, ids[3]!),
    ).toBeUndefined();
  });

  it('rebuildChain: none without a first whole object, none when a patch does not apply', () => {
    expect(rebuildChain([])).toBeUndefined();
    expect(rebuildChain([{ patch: '[]', object: null }])).toBeUndefined();
    expect(
      rebuildChain([
        { patch: '[]', object: '{"a":1}' },
        { patch: '[{"op":"remove","path":"/b/c"}]', object: null },
      ]),
    ).toBeUndefined();
  });

  it('prunes rows before the window, giving the oldest row left its whole object, so every version left rebuilds', async () => {
    await put(chain('a', 0, [1, 2, 3, 4]));
    const removed = await pruneCluster(store, C, { beforeMs: 90_000, maxPerCluster: 1_000 });
    expect(removed).toBe(2);
    const left = await all();
    expect(left.map((r) => r.time_ms)).toEqual([120_000, 180_000]);
    expect(JSON.parse(left[0]!.object!)).toEqual({ metadata: { name: 'a' }, spec: { replicas: 3 } });
    expect(await replicasAt('a', left[1]!.id)).toBe(4);
  });

  it('keeps the latest row of an object that still exists however old, given its whole object; a deleted one goes whole', async () => {
    await put(chain('live', 0, [1, 2]));
    await put([
      ...chain('gone', 0, [1, 2]),
      { ...chain('gone', 120_000, [2])[0]!, change: 'deleted', summary: 'deleted' },
    ]);
    await pruneCluster(store, C, { beforeMs: 1_000_000, maxPerCluster: 1_000 });
    const left = await all();
    expect(left.map((r) => [r.name, r.change])).toEqual([['live', 'updated']]);
    expect(JSON.parse(left[0]!.object!)).toEqual({ metadata: { name: 'live' }, spec: { replicas: 2 } });
    // Pruning again changes nothing.
    expect(await pruneCluster(store, C, { beforeMs: 1_000_000, maxPerCluster: 1_000 })).toBe(0);
    expect(await all()).toEqual(left);
  });

  it('scans past rows it keeps: newer prunable rows behind a batch of kept ones still go', async () => {
    // Three objects whose only (latest) rows are the oldest, then one object with a long chain.
    await put([...chain('k1', 0, [1]), ...chain('k2', 1, [1]), ...chain('k3', 2, [1])]);
    await put(chain('long', 10_000, [1, 2, 3, 4, 5]));
    const removed = await pruneCluster(store, C, {
      beforeMs: 10_000 + 3 * 60_000,
      maxPerCluster: 1_000,
      batch: 2,
    });
    expect(removed).toBe(3);
    const left = await all();
    expect(left.map((r) => r.name)).toEqual(['k1', 'k2', 'k3', 'long', 'long']);
    expect(await replicasAt('long', left[4]!.id)).toBe(5);
  });

  it('holds the cluster to its cap, oldest first, other clusters untouched', async () => {
    await put(chain('a', 0, [1, 2, 3, 4, 5, 6]));
    await put(chain('a', 0, [1, 2, 3]), 'other');
    const removed = await pruneCluster(store, C, { beforeMs: -1, maxPerCluster: 3, batch: 2 });
    expect(removed).toBe(3);
    const left = await all();
    expect(left.map((r) => r.time_ms)).toEqual([180_000, 240_000, 300_000]);
    expect(left[0]!.object).not.toBeNull();
    expect(await replicasAt('a', left[2]!.id)).toBe(6);
    expect(await all('other')).toHaveLength(3);
  });

  it('the cap removes only what it exceeds by, even with a bigger batch', async () => {
    await put(chain('a', 0, [1, 2, 3, 4, 5, 6]));
    expect(await pruneCluster(store, C, { beforeMs: -1, maxPerCluster: 5 })).toBe(1);
    expect((await all()).map((r) => r.time_ms)).toEqual([60_000, 120_000, 180_000, 240_000, 300_000]);
  });

  it('the cap cannot go below the objects that still exist: their only rows stay, and the pass ends', async () => {
    await put([...chain('x', 0, [1]), ...chain('y', 1, [1]), ...chain('z', 2, [1])]);
    expect(await pruneCluster(store, C, { beforeMs: -1, maxPerCluster: 1, batch: 2 })).toBe(0);
    expect((await all()).map((r) => r.name)).toEqual(['x', 'y', 'z']);
  });

  it('keeps a chain it cannot rebuild rather than cut it where it could not be read', async () => {
    const rows = chain('bad', 0, [1, 2, 3]);
    rows[1] = { ...rows[1]!, patch: JSON.stringify([{ op: 'remove', path: '/spec/missing/x' }]) };
    await put(rows);
    expect(await pruneCluster(store, C, { beforeMs: 90_000, maxPerCluster: 1_000 })).toBe(0);
    expect(await all()).toHaveLength(3);
  });

  it('nothing to prune: nothing removed, nothing scanned past the end', async () => {
    expect(await pruneCluster(store, C, { beforeMs: Date.now(), maxPerCluster: 0 })).toBe(0);
  });
});
