/**
 * The kept_logs table on a real database, SQLite and PostgreSQL: a run kept once, the list and
 * the lines of a pod's runs (a recreated pod's too), a snapshot's as-of bound, and the byte bound
 * dropping the oldest runs first.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eachBackend, openBackend, postgresPerFile } from '../../events/history/history.test-support';
import type { StorageBackend } from '../../storage/backend';
import type { RecordedSource } from '../source';
import { hasRun, insertRun, type KeptRun, listRuns, PRUNE_BATCH, pruneToBytes, readRun } from './store';

const run = (over: Partial<KeptRun> = {}): KeptRun => ({
  namespace: 'shop',
  pod: 'web',
  podUid: 'uid-1',
  container: 'app',
  restartCount: 0,
  finishedAt: '2026-11-28T02:10:00Z',
  finishedMs: Date.parse('2026-11-28T02:10:00Z'),
  exitCode: 1,
  reason: 'Error',
  lines: ['2026-11-28T02:09:59.000000001Z starting', '2026-11-28T02:10:00.000000001Z panic'],
  ...over,
});

const bytesOf = (r: KeptRun) => Buffer.byteLength(r.lines.join('\n'));

eachBackend((kind) => {
  if (kind === 'postgres') postgresPerFile();
  let backend: StorageBackend;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ backend, close } = await openBackend(kind));
  });
  afterEach(async () => close());
  const live = (clusterId = 'c1'): RecordedSource => ({ db: backend, clusterId, frozen: false });

  describe('a kept run', () => {
    it('is kept once: a second insert of the same run does nothing', async () => {
      expect(await hasRun(backend, 'c1', run())).toBe(false);
      expect(await insertRun(backend, 'c1', run(), 100)).toBe(true);
      expect(await insertRun(backend, 'c1', run({ lines: ['other'] }), 200)).toBe(false);
      expect(await hasRun(backend, 'c1', run())).toBe(true);
      expect(await hasRun(backend, 'c2', run())).toBe(false);
      expect(await hasRun(backend, 'c1', run({ restartCount: 1 }))).toBe(false);
      expect(await hasRun(backend, 'c1', run({ podUid: 'uid-2' }))).toBe(false);
      expect(await hasRun(backend, 'c1', run({ container: 'side' }))).toBe(false);
      expect(await hasRun(backend, 'c1', run({ pod: 'api' }))).toBe(false);
      expect(await hasRun(backend, 'c1', run({ namespace: 'x' }))).toBe(false);
      expect(await readRun(live(), run())).toEqual(run().lines);
    });

    it('is listed newest end first, with its count of lines, for its cluster, namespace and pod only', async () => {
      await insertRun(backend, 'c1', run(), 1);
      await insertRun(
        backend,
        'c1',
        run({
          restartCount: 1,
          finishedMs: run().finishedMs + 60_000,
          finishedAt: null,
          exitCode: null,
          reason: 'OOMKilled',
          lines: [],
        }),
        2,
      );
      await insertRun(
        backend,
        'c1',
        run({ podUid: 'uid-0', restartCount: 4, finishedMs: run().finishedMs - 60_000 }),
        3,
      );
      await insertRun(backend, 'c2', run({ restartCount: 9 }), 4);
      await insertRun(backend, 'c1', run({ pod: 'api', restartCount: 8 }), 5);
      await insertRun(backend, 'c1', run({ namespace: 'other', restartCount: 7 }), 6);
      expect(await listRuns(live(), 'shop', 'web')).toEqual([
        {
          container: 'app',
          restartCount: 1,
          podUid: 'uid-1',
          finishedAt: '2026-11-28T02:11:00.000Z',
          exitCode: null,
          reason: 'OOMKilled',
          lines: 0,
        },
        {
          container: 'app',
          restartCount: 0,
          podUid: 'uid-1',
          finishedAt: '2026-11-28T02:10:00Z',
          exitCode: 1,
          reason: 'Error',
          lines: 2,
        },
        {
          container: 'app',
          restartCount: 4,
          podUid: 'uid-0',
          finishedAt: '2026-11-28T02:10:00Z',
          exitCode: 1,
          reason: 'Error',
          lines: 2,
        },
      ]);
      expect(await readRun(live(), run({ restartCount: 1 }))).toEqual([]);
      expect(await readRun(live(), run({ restartCount: 2 }))).toBeUndefined();
      expect(await readRun(live('c2'), run())).toBeUndefined();
      expect(await listRuns(live('c3'), 'shop', 'web')).toEqual([]);
    });

    it('of a recreated pod: the one that ended last answers, or the pod uid asked for', async () => {
      await insertRun(backend, 'c1', run({ podUid: 'old', lines: ['old line'] }), 1);
      await insertRun(
        backend,
        'c1',
        run({ podUid: 'new', finishedMs: run().finishedMs + 1, lines: ['new line'] }),
        2,
      );
      const ref = { namespace: 'shop', pod: 'web', container: 'app', restartCount: 0 };
      expect(await readRun(live(), ref)).toEqual(['new line']);
      expect(await readRun(live(), { ...ref, podUid: 'old' })).toEqual(['old line']);
      expect(await readRun(live(), { ...ref, podUid: 'gone' })).toBeUndefined();
    });

    it('kept after a snapshot was taken is not in it', async () => {
      await insertRun(backend, 'c1', run(), 100);
      await insertRun(backend, 'c1', run({ restartCount: 1 }), 200);
      const frozen: RecordedSource = { db: backend, clusterId: 'c1', asOfMs: 150, frozen: true };
      expect((await listRuns(frozen, 'shop', 'web')).map((r) => r.restartCount)).toEqual([0]);
      expect(await readRun(frozen, run({ restartCount: 1 }))).toBeUndefined();
      expect(await readRun(frozen, run())).toEqual(run().lines);
      expect(await readRun({ ...frozen, asOfMs: 100 }, run())).toEqual(run().lines);
    });
  });

  describe('the byte bound', () => {
    it('drops the oldest kept runs of the cluster until its lines fit, and nothing while they fit', async () => {
      const size = bytesOf(run());
      for (let i = 0; i < 5; i++) await insertRun(backend, 'c1', run({ restartCount: i }), 100 + i);
      await insertRun(backend, 'c2', run(), 1);
      expect(await pruneToBytes(backend, 'c1', 5 * size)).toBe(0);
      expect(await pruneToBytes(backend, 'c1', 3 * size)).toBe(2);
      expect((await listRuns(live(), 'shop', 'web')).map((r) => r.restartCount).sort()).toEqual([2, 3, 4]);
      expect(await pruneToBytes(backend, 'c1', 3 * size - 1)).toBe(1);
      expect((await listRuns(live(), 'shop', 'web')).map((r) => r.restartCount).sort()).toEqual([3, 4]);
      expect(await listRuns(live('c2'), 'shop', 'web')).toHaveLength(1);
      expect(await pruneToBytes(backend, 'c3', 0)).toBe(0);
    });

    it('orders by when a run was kept, then by row', async () => {
      await insertRun(backend, 'c1', run({ restartCount: 0 }), 300);
      await insertRun(backend, 'c1', run({ restartCount: 1 }), 100);
      await insertRun(backend, 'c1', run({ restartCount: 2 }), 100);
      expect(await pruneToBytes(backend, 'c1', bytesOf(run()))).toBe(2);
      expect((await listRuns(live(), 'shop', 'web')).map((r) => r.restartCount)).toEqual([0]);
    });

    it('goes on past one batch', async () => {
      const tiny = run({ lines: ['x'] });
      for (let i = 0; i < PRUNE_BATCH + 5; i++)
        await insertRun(backend, 'c1', { ...tiny, restartCount: i }, i);
      expect(await pruneToBytes(backend, 'c1', 3)).toBe(PRUNE_BATCH + 2);
      expect(
        (await listRuns(live(), 'shop', 'web')).map((r) => r.restartCount).sort((a, b) => a - b),
      ).toEqual([PRUNE_BATCH + 2, PRUNE_BATCH + 3, PRUNE_BATCH + 4]);
    });
  });
});
