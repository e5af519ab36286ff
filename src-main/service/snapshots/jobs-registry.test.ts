/**
 * The capture job registry (jobs.ts) on its own: where its files live and when they go, when a
 * job has a file, and which finished jobs it forgets first. The sources here are small clusters
 * of our own making: one that answers at once with no objects, one held until released, one
 * whose objects cannot be listed, and one with a damaged pod. The clock is injected.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import type { KubeClient } from '../kube/kube-client';
import { silentLogger } from '../logger';
import { NINE } from './capture-kinds';
import { SnapshotJobs, type SnapshotJobsOptions } from './jobs';
import type { CaptureSource } from './source';

const OPTIONS = { logLines: 10, logs: 'all' } as const;
const HOUR = 60 * 60_000;

/** A cluster with nothing in it; `gate` holds its object lists until resolved. */
function source(clusterId: string, opts: { gate?: Promise<void>; fail?: boolean; badPod?: boolean } = {}) {
  const client = {
    getJson: async () => ({ items: [] }),
  } as unknown as KubeClient;
  const s: CaptureSource = {
    clusterId,
    context: clusterId,
    server: 'https://example.invalid',
    client,
    timeoutMs: 1000,
    async objects(kind, signal) {
      if (opts.gate)
        await Promise.race([
          opts.gate,
          new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
        ]);
      if (opts.fail) throw new Error('connection refused');
      if (opts.badPod && kind.singular === 'pod')
        return [{ namespace: 'shop', name: 'cart', labels: undefined, json: '{"metadata":' }] as never;
      return [];
    },
    discovery: async () => ({ kinds: NINE, gaps: [] }),
    history: async () => undefined,
  };
  return s;
}

function held() {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  return { gate, release };
}

let dir: string;
let registries: SnapshotJobs[];
let clock: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-jobs-'));
  registries = [];
  clock = Date.parse('2026-05-01T10:00:00Z');
});
afterEach(async () => {
  for (const r of registries) await r.close();
  await rm(dir, { recursive: true, force: true });
});

function registry(opts: Partial<SnapshotJobsOptions> = {}) {
  const r = new SnapshotJobs({ skiffVersion: 'test', logger: silentLogger(), now: () => clock, ...opts });
  registries.push(r);
  return r;
}

async function settled(jobs: SnapshotJobs, snapshotId: string) {
  for (let i = 0; i < 500; i++) {
    const job = jobs.get(snapshotId);
    if (job?.status !== 'running') return job;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${snapshotId} still running`);
}

describe('the capture job registry', () => {
  it("removes at start the capture files a previous run left in the data dir's snapshots folder, and nothing else", () => {
    const dataDir = join(dir, 'data');
    const folder = join(dataDir, 'snapshots');
    mkdirSync(folder, { recursive: true });
    const names = [
      'capture-a.skiff',
      'capture-b.skiff.partial',
      'mine.skiff',
      'capture-c.txt',
      'x-capture-d.skiff',
    ];
    for (const n of names) writeFileSync(join(folder, n), 'x');
    writeFileSync(join(dataDir, 'capture-e.skiff'), 'x');
    registry({ dataDir });
    expect(readdirSync(folder).sort()).toEqual(['capture-c.txt', 'mine.skiff', 'x-capture-d.skiff']);
    expect(existsSync(join(dataDir, 'capture-e.skiff'))).toBe(true);
  });

  it('without a data dir, keeps every capture in one temporary folder and removes it on close', async () => {
    const jobs = registry();
    const a = jobs.start(source('alpha'), 'default', OPTIONS);
    const b = jobs.start(source('bravo'), 'default', OPTIONS);
    await settled(jobs, a.snapshotId);
    await settled(jobs, b.snapshotId);
    const fa = jobs.file(a.snapshotId)!;
    const fb = jobs.file(b.snapshotId)!;
    expect(dirname(fa.path)).toBe(dirname(fb.path));
    expect(existsSync(fa.path)).toBe(true);
    await jobs.close();
    expect(existsSync(dirname(fa.path))).toBe(false);
  });

  it('with a data dir, creates its snapshots folder (parents too) for the owner only', async () => {
    const dataDir = join(dir, 'not', 'yet');
    const jobs = registry({ dataDir });
    const a = jobs.start(source('alpha'), 'default', OPTIONS);
    await settled(jobs, a.snapshotId);
    const folder = join(dataDir, 'snapshots');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(dirname(jobs.file(a.snapshotId)!.path)).toBe(folder);
  });

  it('refuses a capture with 409 conflict once it is closed', async () => {
    const jobs = registry();
    await jobs.close();
    const thrown = (() => {
      try {
        jobs.start(source('alpha'), 'default', OPTIONS);
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(ProblemError);
    expect((thrown as ProblemError).code).toBe('conflict');
  });

  it('has a file for a job only once it is done: not while it runs, not when it failed, not for an unknown id', async () => {
    const jobs = registry();
    const { gate, release } = held();
    const running = jobs.start(source('alpha', { gate }), 'default', OPTIONS);
    const failed = jobs.start(source('bravo', { fail: true }), 'default', OPTIONS);
    expect((await settled(jobs, failed.snapshotId))?.status).toBe('failed');
    expect(jobs.file(failed.snapshotId)).toBeUndefined();
    expect(jobs.file(running.snapshotId)).toBeUndefined();
    expect(jobs.file('snap-0000000000000000')).toBeUndefined();
    release();
    expect((await settled(jobs, running.snapshotId))?.status).toBe('done');
    expect(jobs.file(running.snapshotId)?.sizeBytes).toBeGreaterThan(0);
  });

  it('forgets a finished job past its time at the next start or file request, its file removed from disk', async () => {
    const jobs = registry({ keepMs: HOUR });
    const a = jobs.start(source('alpha'), 'default', OPTIONS);
    const b = jobs.start(source('bravo'), 'default', OPTIONS);
    await settled(jobs, a.snapshotId);
    await settled(jobs, b.snapshotId);
    const pa = jobs.file(a.snapshotId)!.path;
    clock += HOUR;
    expect(jobs.file(b.snapshotId)).toBeUndefined();
    expect(existsSync(pa)).toBe(false);
    const c = jobs.start(source('charlie'), 'default', OPTIONS);
    await settled(jobs, c.snapshotId);
    const pc = jobs.file(c.snapshotId)!.path;
    clock += HOUR;
    // A start sweeps: c's file goes before anyone asks for c again.
    jobs.start(source('delta'), 'default', OPTIONS);
    expect(existsSync(pc)).toBe(false);
  });

  it('beyond the number kept, forgets the job that finished longest ago, never a running one', async () => {
    const jobs = registry({ keepMs: 10 * HOUR, maxKept: 1 });
    const { gate, release } = held();
    const first = jobs.start(source('alpha'), 'default', OPTIONS);
    await settled(jobs, first.snapshotId);
    clock += 60_000;
    const slow = jobs.start(source('bravo', { gate }), 'default', OPTIONS);
    clock += 60_000;
    const second = jobs.start(source('charlie'), 'default', OPTIONS);
    await settled(jobs, second.snapshotId);
    expect(jobs.get(first.snapshotId)).toBeUndefined();
    expect(jobs.get(second.snapshotId)?.status).toBe('done');
    expect(jobs.get(slow.snapshotId)?.status).toBe('running');
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
    const job = jobs.start(source('alpha', { badPod: true }), 'default', OPTIONS);
    const failed = await settled(jobs, job.snapshotId);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toMatch(/^the snapshot could not be written: /);
    expect(failed?.error).not.toMatch(/SyntaxError/);
    expect(lines.filter((l) => l.level === 50 && l.snapshotId === job.snapshotId)).toHaveLength(1);
  });
});
