/**
 * Capture jobs seen across replicas (jobs.ts over jobs-store.ts), on both storage backends: two
 * registries over one database and one shared folder, as two replicas have. A replica's death is
 * a registry that stops beating (its heartbeat set to an hour) or a row written as by a replica
 * that is gone; the clock is injected, so silence lasts exactly as long as a test says.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import type { StorageBackend } from '../storage/backend';
import { eventually } from '../test-support/eventually.test-support';
import type { SnapshotJobsOptions } from './jobs';
import { HOUR, held, OPTIONS, settled, setUpJobBackends, source } from './jobs.test-support';

const { backends, registry: open, folder } = setUpJobBackends();
const T0 = Date.parse('2026-05-01T10:00:00Z');

describe.each(backends)('capture jobs across replicas ($name)', ({ name, skip, database }) => {
  let connect: () => StorageBackend | Promise<StorageBackend>;
  let backend: StorageBackend;
  let clock: number;
  let dir: string;
  /** One more replica: its own connection to the database, the shared folder. */
  const replica = async (opts: Partial<SnapshotJobsOptions> = {}) => {
    const jobs = open(await connect(), { now: () => clock, dir, ...opts });
    await jobs.ready;
    return jobs;
  };
  const row = (id: string) =>
    backend.get<{ status: string; heartbeat_at: number; replica_id: string }>(
      'SELECT status, heartbeat_at, replica_id FROM snapshot_jobs WHERE snapshot_id = $id',
      { id },
    );

  beforeEach(async (ctx) => {
    if (skip) ctx.skip(skip);
    connect = await database();
    backend = await connect();
    clock = T0;
    dir = join(folder(), 'snapshots');
  });

  it('a job started on one replica is seen from another while it runs, with its progress, and downloaded from it once done', async () => {
    const a = await replica({ heartbeatMs: 20 });
    const b = await replica();
    const { gate, release } = held();
    const job = await a.start(source('alpha', { gate, oneObject: true }), 'default', OPTIONS);
    // The owner's heartbeat carries the progress to the others.
    const seen = await eventually(async () => {
      const j = (await b.get(job.snapshotId))!;
      expect(j.progress.objects).toBe(1);
      return j;
    }, 10_000);
    expect(seen).toEqual({ ...job, progress: { ...job.progress, objects: 1 } });
    expect(await b.file(job.snapshotId)).toBeUndefined();
    release();
    const done = await settled(b, job.snapshotId);
    expect(done).toEqual(await a.get(job.snapshotId));
    expect(done).toMatchObject({ status: 'done', fileName: job.fileName, progress: { objects: 1 } });
    const file = (await b.file(job.snapshotId))!;
    expect(file).toEqual({
      path: join(dir, `capture-${job.snapshotId}.skiff`),
      sizeBytes: done!.sizeBytes,
      fileName: job.fileName,
    });
    expect(existsSync(file.path)).toBe(true);
  });

  it('one capture per cluster across replicas: a second replica gets 409 naming the running job', async () => {
    const a = await replica();
    const b = await replica();
    const { gate, release } = held();
    const job = await a.start(source('alpha', { gate }), 'default', OPTIONS);
    const thrown = await b.start(source('alpha'), 'default', OPTIONS).catch((err: unknown) => err);
    expect(thrown).toBeInstanceOf(ProblemError);
    expect(thrown).toMatchObject({ code: 'conflict', extensions: { snapshotId: job.snapshotId } });
    // Another cluster is free on the other replica.
    const other = await b.start(source('bravo'), 'default', OPTIONS);
    release();
    expect((await settled(b, other.snapshotId))?.status).toBe('done');
    expect((await settled(b, job.snapshotId))?.status).toBe('done');
  });

  it('a job whose owner stopped beating is failed by the replica that reads it, naming the owner and its last heartbeat', async () => {
    // The owner beats once an hour: after its start, it is silent.
    const a = await replica({ heartbeatMs: HOUR });
    const b = await replica();
    const { gate, release } = held();
    const job = await a.start(source('alpha', { gate }), 'default', OPTIONS);
    clock = T0 + 29_999;
    expect((await b.get(job.snapshotId))?.status).toBe('running');
    clock = T0 + 30_000;
    expect(await b.get(job.snapshotId)).toMatchObject({
      status: 'failed',
      finishedAt: '2026-05-01T10:00:30.000Z',
      error: `replica "${(await row(job.snapshotId))!.replica_id}" stopped while taking this snapshot (no heartbeat since 2026-05-01T10:00:00.000Z); take it again`,
    });
    expect(await b.file(job.snapshotId)).toBeUndefined();
    // Its cluster is free again.
    const again = await b.start(source('alpha'), 'default', OPTIONS);
    expect((await settled(b, again.snapshotId))?.status).toBe('done');
    // The dead owner's late result changes nothing, and leaves no file behind.
    release();
    await eventually(async () => expect(await a.get(job.snapshotId)).toMatchObject({ status: 'failed' }));
    expect((await b.get(job.snapshotId))?.error).toMatch(/stopped while taking this snapshot/);
    expect(readdirSync(dir)).toEqual([`capture-${again.snapshotId}.skiff`]);
  });

  it('an owner that keeps beating is never declared dead, however long its capture takes', async () => {
    const a = await replica({ heartbeatMs: 20 });
    const b = await replica();
    const { gate, release } = held();
    const job = await a.start(source('alpha', { gate }), 'default', OPTIONS);
    clock = T0 + HOUR;
    await eventually(async () => expect((await row(job.snapshotId))?.heartbeat_at).toBe(clock), 10_000);
    expect((await b.get(job.snapshotId))?.status).toBe('running');
    release();
    expect((await settled(b, job.snapshotId))?.status).toBe('done');
  });

  it('an owner whose job another replica declared failed stops its capture at its next heartbeat and removes its file', async () => {
    const a = await replica({ heartbeatMs: 20 });
    const { gate } = held();
    const job = await a.start(source('alpha', { gate }), 'default', OPTIONS);
    await eventually(async () =>
      expect(readdirSync(dir)).toEqual([`capture-${job.snapshotId}.skiff.partial`]),
    );
    await backend.run(
      `UPDATE snapshot_jobs SET status = 'failed', finished_at = $now, error = 'declared dead' WHERE snapshot_id = $id`,
      { id: job.snapshotId, now: clock },
    );
    // The gate never opens: only the owner's abort ends the capture.
    await eventually(
      async () =>
        expect(await a.get(job.snapshotId)).toMatchObject({ status: 'failed', error: 'declared dead' }),
      10_000,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a running job left by a replica that is gone is failed when its cluster is captured again, and the capture starts', async () => {
    const b = await replica();
    await backend.run(
      `INSERT INTO snapshot_jobs (snapshot_id, status, workspace_id, cluster_id, context, file_name, replica_id,
         started_at, heartbeat_at, progress, missing)
       VALUES ('snap-dead', 'running', 'default', 'alpha', 'alpha', 'alpha.skiff', 'gone-7', $at, $at, $progress, '[]')`,
      {
        at: T0 - 31_000,
        progress: JSON.stringify({ objects: 3, events: 0, podLogsDone: 0, podLogsTotal: 0 }),
      },
    );
    const job = await b.start(source('alpha'), 'default', OPTIONS);
    expect((await settled(b, job.snapshotId))?.status).toBe('done');
    expect(await b.get('snap-dead')).toMatchObject({
      status: 'failed',
      progress: { objects: 3 },
      error:
        'replica "gone-7" stopped while taking this snapshot (no heartbeat since 2026-05-01T09:59:29.000Z); take it again',
    });
  });

  it('a dead replica’s running job is failed unasked by the next housekeeping, and finished jobs past their hour forgotten', async () => {
    const a = await replica({ housekeepingMs: 20 });
    const done = await a.start(source('bravo'), 'default', OPTIONS);
    await settled(a, done.snapshotId);
    await backend.run(
      `INSERT INTO snapshot_jobs (snapshot_id, status, workspace_id, cluster_id, context, file_name, replica_id,
         started_at, heartbeat_at, progress, missing)
       VALUES ('snap-dead', 'running', 'default', 'alpha', 'alpha', 'alpha.skiff', 'gone-7', $at, $at, '{}', '[]')`,
      { at: T0 },
    );
    // Nobody reads either job: the replica's housekeeping deals with both once their time is up.
    clock = T0 + HOUR;
    await eventually(async () => expect((await row('snap-dead'))?.status).toBe('failed'), 10_000);
    await eventually(async () => expect(await row(done.snapshotId)).toBeUndefined(), 10_000);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('on a replica whose folder is not the shared one, a done job’s file is a clear 500, not a missing snapshot', async () => {
    const a = await replica();
    const b = await replica({ dir: join(folder(), 'elsewhere') });
    const job = await a.start(source('alpha'), 'default', OPTIONS);
    await settled(a, job.snapshotId);
    const thrown = await b.file(job.snapshotId).catch((err: unknown) => err);
    expect(thrown).toMatchObject({
      code: 'internal_error',
      message: `snapshot "${job.snapshotId}" is done, but its file is not in this replica's snapshot folder: every replica must share one --snapshot-dir`,
    });
  });

  it.runIf(name === 'postgres')(
    'a closing replica fails its running captures, naming itself, and leaves its finished ones to the others',
    async () => {
      const a = await replica({ replicaId: 'replica-a' });
      const b = await replica();
      const done = await a.start(source('alpha'), 'default', OPTIONS);
      await settled(a, done.snapshotId);
      const running = await a.start(source('bravo', { gate: held().gate }), 'default', OPTIONS);
      await a.close();
      expect(await b.get(running.snapshotId)).toMatchObject({
        status: 'failed',
        error: 'replica "replica-a" shut down while taking this snapshot; take it again',
      });
      expect((await b.get(done.snapshotId))?.status).toBe('done');
      expect(existsSync((await b.file(done.snapshotId))!.path)).toBe(true);
      expect(readdirSync(dir)).toEqual([`capture-${done.snapshotId}.skiff`]);
    },
  );

  it.runIf(name === 'postgres')(
    'a replica restarted under the same name fails the running jobs its earlier life left, at once',
    async () => {
      const first = await replica({ replicaId: 'replica-x', heartbeatMs: HOUR });
      const job = await first.start(source('alpha', { gate: held().gate }), 'default', OPTIONS);
      // Its earlier life is killed: its registry never closes cleanly, only its rows remain.
      const again = await replica({ replicaId: 'replica-x' });
      expect(await again.get(job.snapshotId)).toMatchObject({
        status: 'failed',
        error: 'replica "replica-x" restarted while taking this snapshot; take it again',
      });
    },
  );

  it.runIf(name === 'sqlite')(
    'on SQLite, a start forgets every job an earlier run left, with its files',
    async () => {
      const first = await replica();
      const job = await first.start(source('alpha'), 'default', OPTIONS);
      await settled(first, job.snapshotId);
      const again = await replica();
      expect(await again.get(job.snapshotId)).toBeUndefined();
      expect(readdirSync(dir)).toEqual([]);
    },
  );
});
