/**
 * The diagnosis's reads of recorded rows (reads.ts) on both storage backends: the changes of the
 * related objects in a window (rows inserted out of the answer's order), a snapshot's as-of clamp,
 * and the first failed run kept of a pod.
 */
import { describe, expect, it } from 'vitest';
import { eachBackend } from '../../events/history/history.test-support';
import type { StorageBackend } from '../../storage/backend';
import { insertRows, MIN, readsPerTest, T0 } from '../changes/reads.test-support';
import { changesIn, firstFailedRun, ROWS_PER_REF } from './reads';

const ONSET = T0 + 10 * MIN;

async function keep(
  backend: StorageBackend,
  rows: {
    pod?: string;
    uid?: string;
    restart: number;
    finishedMs: number;
    exitCode: number | null;
    reason: string;
    cluster?: string;
    finishedAt?: string | null;
  }[],
) {
  for (const r of rows)
    await backend.run(
      `INSERT INTO kept_logs (cluster_id, namespace, pod, pod_uid, container, restart_count, finished_at,
         finished_ms, exit_code, reason, lines, line_count, bytes, kept_at)
       VALUES ($cluster, 'shop', $pod, $uid, 'app', $restart, $finishedAt, $finishedMs, $exitCode, $reason, 'x', 3, 1, 0)`,
      {
        cluster: r.cluster ?? 'c1',
        pod: r.pod ?? 'p',
        uid: r.uid ?? 'pu',
        restart: r.restart,
        finishedAt: r.finishedAt === undefined ? new Date(r.finishedMs).toISOString() : r.finishedAt,
        finishedMs: r.finishedMs,
        exitCode: r.exitCode,
        reason: r.reason,
      },
    );
}

eachBackend((kind) => {
  const rig = readsPerTest(kind);

  describe('changesIn', () => {
    it('reads each ref’s changes in the window, newest first, never a baseline, with its relation', async () => {
      const patch = [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'b' }];
      const ids = await insertRows(rig.backend, [
        { timeMs: T0 + 2 * MIN, change: 'updated', resourceVersion: '5', patch, summary: 'image app: a → b' },
        { timeMs: T0 - 30 * MIN, change: 'updated', resourceVersion: '2' },
        { timeMs: T0 + 9 * MIN, change: 'seen', resourceVersion: '6' },
        { timeMs: T0 + 8 * MIN, change: 'updated', resourceVersion: '7', cluster: 'c2' },
        { timeMs: ONSET + 6_000, change: 'updated', resourceVersion: '8' },
        { timeMs: T0 + 3 * MIN, change: 'updated', resourceVersion: '4', name: 'other' },
        {
          timeMs: T0 + 4 * MIN,
          change: 'created',
          resourceVersion: '3',
          resourceType: 'resourcequota',
          kind: 'ResourceQuota',
          name: 'q',
        },
        {
          timeMs: T0 + 5 * MIN,
          change: 'deleted',
          resourceVersion: '9',
          resourceType: 'node',
          kind: 'Node',
          namespace: '',
          name: 'n1',
        },
        { timeMs: T0 - 20 * MIN, change: 'updated', resourceVersion: '1' },
        {
          timeMs: ONSET + 5_000,
          change: 'updated',
          resourceVersion: '10',
          patch: 'not json' as unknown as unknown[],
        },
      ]);
      await rig.backend.run(
        `UPDATE change_history SET patch = '{"not":"a list"}' WHERE resource_version = '1'`,
      );
      await rig.backend.run(`UPDATE change_history SET patch = 'nope' WHERE resource_version = '10'`);
      const rows = await changesIn(
        rig.source(),
        [
          { resourceType: 'deployment', namespace: 'shop', name: 'checkout', relation: 'owner' },
          { resourceType: 'deployment', namespace: 'shop', name: 'checkout', relation: 'uses' },
          { resourceType: 'resourcequota', namespace: 'shop', relation: 'namespace' },
          { resourceType: 'node', namespace: '', name: 'n1', relation: 'node' },
        ],
        ONSET - 30 * MIN,
        ONSET + 5_000,
        ONSET,
      );
      expect(rows.map((r) => [r.resourceVersion, r.relation, r.change])).toEqual([
        ['10', 'owner', 'updated'],
        ['5', 'owner', 'updated'],
        ['1', 'owner', 'updated'],
        ['3', 'namespace', 'created'],
        ['9', 'node', 'deleted'],
      ]);
      const image = rows[1]!;
      expect(image).toEqual({
        id: ids[0],
        time: new Date(T0 + 2 * MIN).toISOString(),
        ref: {
          kind: 'Deployment',
          resourceType: 'deployment',
          namespace: 'shop',
          name: 'checkout',
          uid: 'uid-1',
        },
        change: 'updated',
        resourceVersion: '5',
        summary: 'image app: a → b',
        patch,
        relation: 'owner',
        beforeOnsetMs: 8 * MIN,
      });
      // A patch that is not a list reads as none.
      expect(rows[0]!.patch).toEqual([]);
      expect(rows[0]!.beforeOnsetMs).toBe(-5_000);
      expect(rows[2]!.patch).toEqual([]);
      // A cluster-scoped object has no namespace.
      expect(rows[4]!.ref).toEqual({ kind: 'Node', resourceType: 'node', name: 'n1', uid: 'uid-1' });
    });

    it('reads two objects of one kind apart', async () => {
      await insertRows(rig.backend, [
        { timeMs: T0 + 2 * MIN, change: 'updated', resourceVersion: '2', name: 'b' },
        { timeMs: T0 + 1 * MIN, change: 'updated', resourceVersion: '1', name: 'a' },
      ]);
      const refs = ['a', 'b'].map((name) => ({
        resourceType: 'deployment',
        namespace: 'shop',
        name,
        relation: 'uses' as const,
      }));
      const rows = await changesIn(rig.source(), refs, T0, ONSET, ONSET);
      expect(rows.map((r) => r.ref.name)).toEqual(['a', 'b']);
    });

    it('a snapshot answers nothing after its takenAt', async () => {
      await insertRows(rig.backend, [
        { timeMs: T0 + 5 * MIN, change: 'updated', resourceVersion: '2' },
        { timeMs: T0 + 1 * MIN, change: 'updated', resourceVersion: '1' },
      ]);
      const ref = [
        { resourceType: 'deployment', namespace: 'shop', name: 'checkout', relation: 'self' as const },
      ];
      const asOf = await changesIn(rig.source('c1', T0 + 2 * MIN), ref, T0, ONSET, ONSET);
      expect(asOf.map((r) => r.resourceVersion)).toEqual(['1']);
      const live = await changesIn(rig.source('c1'), ref, T0, ONSET, ONSET);
      expect(live.map((r) => r.resourceVersion)).toEqual(['2', '1']);
    });

    it(`reads at most ${ROWS_PER_REF} rows of one ref`, async () => {
      await insertRows(
        rig.backend,
        Array.from({ length: ROWS_PER_REF + 5 }, (_, i) => ({
          timeMs: T0 + i * 1_000,
          change: 'updated' as const,
          resourceVersion: String(i),
        })),
      );
      const ref = [
        { resourceType: 'deployment', namespace: 'shop', name: 'checkout', relation: 'self' as const },
      ];
      const rows = await changesIn(rig.source(), ref, T0, ONSET, ONSET);
      expect(rows).toHaveLength(ROWS_PER_REF);
      expect(rows[0]!.resourceVersion).toBe(String(ROWS_PER_REF + 4));
    });
  });

  describe('firstFailedRun', () => {
    it('is the earliest failed run of that pod (by uid), whatever the insertion order', async () => {
      await keep(rig.backend, [
        { restart: 2, finishedMs: T0 + 3 * MIN, exitCode: 1, reason: 'Error' },
        { restart: 0, finishedMs: T0 - 1 * MIN, exitCode: 0, reason: 'Completed' },
        { restart: 1, finishedMs: T0 + 1 * MIN, exitCode: 137, reason: 'OOMKilled', finishedAt: null },
        { restart: 0, finishedMs: T0 - 5 * MIN, exitCode: 1, reason: 'Error', uid: 'older-pod' },
        { restart: 0, finishedMs: T0 - 6 * MIN, exitCode: 1, reason: 'Error', cluster: 'c2' },
        { restart: 0, finishedMs: T0 - 7 * MIN, exitCode: 1, reason: 'Error', pod: 'q' },
      ]);
      expect(await firstFailedRun(rig.source(), 'shop', 'p', 'pu')).toEqual({
        namespace: 'shop',
        pod: 'p',
        container: 'app',
        restartCount: 1,
        finishedAt: new Date(T0 + 1 * MIN).toISOString(),
        exitCode: 137,
        reason: 'OOMKilled',
        lines: 3,
      });
      expect((await firstFailedRun(rig.source(), 'shop', 'p', undefined))?.restartCount).toBe(0);
      expect(await firstFailedRun(rig.source(), 'shop', 'p', 'none')).toBeUndefined();
      // A snapshot taken before the first failure has none.
      expect(await firstFailedRun(rig.source('c1', T0), 'shop', 'p', 'pu')).toBeUndefined();
      expect((await firstFailedRun(rig.source('c1', T0 + 1 * MIN), 'shop', 'p', 'pu'))?.restartCount).toBe(1);
    });

    it('counts an Error with exit code 0 or none as failed; leaves exitCode out when unknown', async () => {
      await keep(rig.backend, [
        { restart: 0, finishedMs: T0, exitCode: null, reason: 'Error' },
        { restart: 1, finishedMs: T0 - MIN, exitCode: 0, reason: 'Completed' },
      ]);
      const run = await firstFailedRun(rig.source(), 'shop', 'p', 'pu');
      expect(run).toEqual({
        namespace: 'shop',
        pod: 'p',
        container: 'app',
        restartCount: 0,
        finishedAt: new Date(T0).toISOString(),
        reason: 'Error',
        lines: 3,
      });
    });
  });
});
