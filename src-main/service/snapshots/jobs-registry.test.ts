/**
 * The capture job registry (jobs.ts) on its own, on both storage backends (SQLite in memory and a
 * real PostgreSQL, postgres.test-support.ts): where its files live and when they go, when a job
 * has a file, and which finished jobs it forgets first. What replicas sharing the rows see of each
 * other's jobs is in jobs-shared.test.ts. The sources are small clusters of our own making
 * (jobs.test-support.ts). The clock is injected.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import type { StorageBackend } from '../storage/backend';
import type { SnapshotJobsOptions } from './jobs';
import { HOUR, held, OPTIONS, settled, setUpJobBackends, source } from './jobs.test-support';

const { backends, registry: open, folder } = setUpJobBackends();

async function refusal(fn: () => Promise<unknown>): Promise<ProblemError> {
  const thrown = await fn().then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(thrown).toBeInstanceOf(ProblemError);
  return thrown as ProblemError;
}

describe.each(backends)('the capture job registry ($name)', ({ name, skip, database }) => {
  let backend: StorageBackend;
  let clock: number;
  const registry = (opts: Partial<SnapshotJobsOptions> = {}) => open(backend, { now: () => clock, ...opts });

  beforeEach(async (ctx) => {
    if (skip) ctx.skip(skip);
    backend = await (await database())();
    clock = Date.parse('2026-05-01T10:00:00Z');
  });

  it('removes at start the capture files no job wants from its folder, and nothing else', async () => {
    const dataDir = join(folder(), 'data');
    const dir = join(dataDir, 'snapshots');
    mkdirSync(dir, { recursive: true });
    const names = [
      'capture-a.skiff',
      'capture-b.skiff.partial',
      'mine.skiff',
      'capture-c.txt',
      'x-capture-d.skiff',
    ];
    for (const n of names) writeFileSync(join(dir, n), 'x');
    writeFileSync(join(dataDir, 'capture-e.skiff'), 'x');
    await registry({ dir }).ready;
    expect(readdirSync(dir).sort()).toEqual(['capture-c.txt', 'mine.skiff', 'x-capture-d.skiff']);
    expect(existsSync(join(dataDir, 'capture-e.skiff'))).toBe(true);
  });

  it('without a folder, keeps every capture in one temporary folder and removes it on close', async () => {
    const jobs = registry();
    const a = await jobs.start(source('alpha'), 'default', OPTIONS);
    const b = await jobs.start(source('bravo'), 'default', OPTIONS);
    await settled(jobs, a.snapshotId);
    await settled(jobs, b.snapshotId);
    const fa = (await jobs.file(a.snapshotId))!;
    const fb = (await jobs.file(b.snapshotId))!;
    expect(dirname(fa.path)).toBe(dirname(fb.path));
    expect(existsSync(fa.path)).toBe(true);
    await jobs.close();
    expect(existsSync(dirname(fa.path))).toBe(false);
  });

  it('creates its folder (parents too) for the owner only, and keeps it on close', async () => {
    const dir = join(folder(), 'not', 'yet', 'snapshots');
    const jobs = registry({ dir });
    const a = await jobs.start(source('alpha'), 'default', OPTIONS);
    await settled(jobs, a.snapshotId);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(dirname((await jobs.file(a.snapshotId))!.path)).toBe(dir);
    await jobs.close();
    expect(existsSync(dir)).toBe(true);
  });

  it('refuses a capture with 409 conflict once it is closed', async () => {
    const jobs = registry();
    await jobs.close();
    expect((await refusal(() => jobs.start(source('alpha'), 'default', OPTIONS))).code).toBe('conflict');
  });

  it('refuses a start once the database is sealed (the service closing) with 409, and starts nothing', async () => {
    const jobs = registry();
    await jobs.ready;
    backend.seal();
    const refused = await refusal(() => jobs.start(source('alpha'), 'default', OPTIONS));
    expect([refused.code, refused.message]).toEqual(['conflict', 'the service is shutting down']);
    expect(await backend.get('SELECT snapshot_id FROM snapshot_jobs')).toBeUndefined();
  });

  it('refuses a second capture of a running cluster with 409 naming it, and a third at the bound with 429', async () => {
    const jobs = registry({ maxRunning: 2 });
    const { gate, release } = held();
    const a = await jobs.start(source('alpha', { gate }), 'default', OPTIONS);
    const again = await refusal(() => jobs.start(source('alpha'), 'default', OPTIONS));
    expect(again.code).toBe('conflict');
    expect(again.headers).toEqual({ Location: `/v1/snapshots/${a.snapshotId}` });
    expect(again.message).toContain(a.snapshotId);
    // Two starts at once for the last slot: one gets it, the other 429.
    const both = await Promise.allSettled([
      jobs.start(source('bravo', { gate }), 'default', OPTIONS),
      jobs.start(source('charlie', { gate }), 'default', OPTIONS),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = both.find((r) => r.status === 'rejected')!.reason as ProblemError;
    expect(refused.code).toBe('rate_limited');
    expect(refused.message).toBe('2 snapshots are being taken, the most at once; try again when one is done');
    release();
    for (const r of both) if (r.status === 'fulfilled') await settled(jobs, r.value.snapshotId);
    await settled(jobs, a.snapshotId);
  });

  it('has a file for a job only once it is done: not while it runs, not when it failed, not for an unknown id', async () => {
    const jobs = registry();
    const { gate, release } = held();
    const running = await jobs.start(source('alpha', { gate }), 'default', OPTIONS);
    const failed = await jobs.start(source('bravo', { fail: true }), 'default', OPTIONS);
    expect((await settled(jobs, failed.snapshotId))?.status).toBe('failed');
    expect(await jobs.file(failed.snapshotId)).toBeUndefined();
    expect(await jobs.file(running.snapshotId)).toBeUndefined();
    expect(await jobs.file('snap-0000000000000000')).toBeUndefined();
    release();
    expect((await settled(jobs, running.snapshotId))?.status).toBe('done');
    expect((await jobs.file(running.snapshotId))?.sizeBytes).toBeGreaterThan(0);
  });

  it('forgets a finished job past its time at the next start or file request, its file removed from disk', async () => {
    const jobs = registry({ keepMs: HOUR });
    const a = await jobs.start(source('alpha'), 'default', OPTIONS);
    const b = await jobs.start(source('bravo'), 'default', OPTIONS);
    await settled(jobs, a.snapshotId);
    await settled(jobs, b.snapshotId);
    const pa = (await jobs.file(a.snapshotId))!.path;
    clock += HOUR - 1;
    expect(await jobs.get(a.snapshotId)).toBeDefined();
    clock += 1;
    expect(await jobs.file(b.snapshotId)).toBeUndefined();
    expect(existsSync(pa)).toBe(false);
    const c = await jobs.start(source('charlie'), 'default', OPTIONS);
    await settled(jobs, c.snapshotId);
    const pc = (await jobs.file(c.snapshotId))!.path;
    clock += HOUR;
    // A start sweeps: c's file goes before anyone asks for c again.
    await jobs.start(source('delta'), 'default', OPTIONS);
    expect(existsSync(pc)).toBe(false);
  });

  it('beyond the number kept, forgets the job that finished longest ago, never a running one', async () => {
    const jobs = registry({ keepMs: 10 * HOUR, maxKept: 1 });
    const { gate, release } = held();
    const first = await jobs.start(source('alpha'), 'default', OPTIONS);
    await settled(jobs, first.snapshotId);
    clock += 60_000;
    const slow = await jobs.start(source('bravo', { gate }), 'default', OPTIONS);
    clock += 60_000;
    const second = await jobs.start(source('charlie'), 'default', OPTIONS);
    await settled(jobs, second.snapshotId);
    expect(await jobs.get(first.snapshotId)).toBeUndefined();
    expect((await jobs.get(second.snapshotId))?.status).toBe('done');
    expect((await jobs.get(slow.snapshotId))?.status).toBe('running');
    release();
    await settled(jobs, slow.snapshotId);
  });

  it('fails a capture whose file cannot be written, with the reason, and logs it as an error', async () => {
    const lines: Array<{ level: number; snapshotId?: string; msg: string }> = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    );
    const jobs = registry({ logger });
    const job = await jobs.start(source('alpha', { badPod: true }), 'default', OPTIONS);
    const failed = await settled(jobs, job.snapshotId);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toMatch(/^the snapshot could not be written: /);
    expect(failed?.error).not.toMatch(/SyntaxError/);
    expect(lines.filter((l) => l.level === 50 && l.snapshotId === job.snapshotId)).toHaveLength(1);
  });

  it('logs no error for a capture that failed for a reason of the cluster’s: the job says why', async () => {
    const lines: Array<{ level: number }> = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    );
    const jobs = registry({ logger });
    const job = await jobs.start(source('alpha', { fail: true }), 'default', OPTIONS);
    expect((await settled(jobs, job.snapshotId))?.error).toMatch(/connection refused/);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it.runIf(name === 'sqlite')(
    'on SQLite, jobs end with the service: close forgets this run’s jobs and their files',
    async () => {
      const dir = join(folder(), 'snapshots');
      const jobs = registry({ dir });
      const a = await jobs.start(source('alpha'), 'default', OPTIONS);
      await settled(jobs, a.snapshotId);
      expect(readdirSync(dir)).toEqual([`capture-${a.snapshotId}.skiff`]);
      await jobs.close();
      expect(readdirSync(dir)).toEqual([]);
      expect(await backend.get('SELECT snapshot_id FROM snapshot_jobs')).toBeUndefined();
    },
  );
});
