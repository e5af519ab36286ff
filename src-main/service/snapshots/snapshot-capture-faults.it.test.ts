/**
 * Captures of a cluster that fails, through the fault proxy: one that cannot be reached at all
 * fails the job and leaves no file; one that goes away half-way gives a done job whose gaps say
 * what is missing. Either way no file is left in the snapshots folder that is not complete.
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import { eventually } from '../test-support/eventually.test-support';
import { type ProxiedStack, podsPath, startProxiedStack } from '../test-support/faults.test-support';
import {
  download,
  finished,
  gapsOf,
  metaOf,
  readSnapshot,
  startCapture,
} from './snapshot-capture.test-support';

let proxied: ProxiedStack | undefined;
let dir: string | undefined;
afterEach(async () => {
  await proxied?.close();
  proxied = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Every file in the data dir's snapshots folder is a complete snapshot (none half-written). */
function expectOnlyCompleteFiles(dataDir: string): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(join(dataDir, 'snapshots'));
  } catch {
    return [];
  }
  for (const name of names) {
    expect(name).toMatch(/\.skiff$/);
    readSnapshot(join(dataDir, 'snapshots', name), (db) => expect(metaOf(db).complete).toBe('1'));
  }
  return names;
}

describe('capturing a failing cluster', () => {
  it('fails the job, with the reason, and leaves no file when the objects cannot be listed', async () => {
    proxied = await startProxiedStack();
    const { stack, proxy } = proxied;
    await proxy.down('refuse');
    const job = await finished(stack, (await startCapture(stack)).snapshotId);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^the cluster's objects could not be listed: .*connection refused/);
    expect(job.sizeBytes).toBeUndefined();
    expect(expectOnlyCompleteFiles(stack.dataDir)).toEqual([]);
    const file = await stack.get<Problem>(`/v1/snapshots/${job.snapshotId}/file`);
    expect(file.status).toBe(409);
    expect(file.body).toMatchObject({ code: 'conflict' });
    expect(file.body.detail).toContain(job.error);
  });

  it('is done with what it took, and gaps for the rest, when the cluster goes away half-way', async () => {
    proxied = await startProxiedStack();
    const { stack, proxy } = proxied;
    dir = await mkdtemp(join(tmpdir(), 'skiff-capture-faults-'));
    // The caches list first; then every log request crawls, so the cluster can go mid-logs.
    expect((await stack.get(podsPath(stack))).status).toBe(200);
    proxy.slow(150);
    const started = await startCapture(stack, { logs: 'all' });
    await eventually(async () => {
      const res = await stack.get<{ progress: { podLogsDone: number } }>(
        `/v1/snapshots/${started.snapshotId}`,
      );
      expect(res.body.progress.podLogsDone).toBeGreaterThan(0);
    }, 15_000);
    await proxy.down('reset');
    const job = await finished(stack, started.snapshotId, 30_000);
    expect(job.status).toBe('done');
    const skipped = job.missing.find((g) => g.part === 'logs' && g.target === undefined);
    expect(skipped?.reason).toMatch(/^\d+ container logs were not taken: /);
    expect(job.progress.podLogsDone).toBe(job.progress.podLogsTotal);
    expect(job.progress.objects).toBeGreaterThan(0);
    const names = expectOnlyCompleteFiles(stack.dataDir);
    expect(names).toHaveLength(1);
    const file = (await download(stack, job.snapshotId, dir)).path;
    readSnapshot(file, (db) => {
      expect(gapsOf(db)).toEqual(
        job.missing.map((g) => ({ part: g.part, target: g.target ?? null, reason: g.reason })),
      );
      expect(db.prepare('SELECT count(*) AS n FROM objects').get()).toEqual({ n: job.progress.objects });
    });
  });
});
