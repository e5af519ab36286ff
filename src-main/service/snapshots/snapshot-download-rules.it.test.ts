/**
 * GET /v1/snapshots/{id}/file when there is no file to send (operations/snapshots.ts): a 409
 * conflict that names the job and its status, for a capture still running and for one that
 * failed; and a capture started with no choices takes every pod's logs. Each test has a stack of
 * its own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_PODS } from '@skiff/kube-simulator';
import { afterEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import { type ProxiedStack, startProxiedStack } from '../test-support/faults.test-support';
import { download, finished, readSnapshot, startCapture } from './snapshot-capture.test-support';

let proxied: ProxiedStack | undefined;
let dir: string | undefined;
afterEach(async () => {
  await proxied?.close();
  proxied = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

type Conflict = Problem & { snapshotId?: string; jobStatus?: string };

describe('the file of a capture', () => {
  it('is 409 conflict naming the job and its status when there is none: failed (with the reason), then running', async () => {
    proxied = await startProxiedStack();
    const { stack, proxy } = proxied;
    await proxy.down('refuse');
    const failed = await finished(stack, (await startCapture(stack, { logs: 'none' })).snapshotId);
    expect(failed.status).toBe('failed');
    const res = await stack.get<Conflict>(`/v1/snapshots/${failed.snapshotId}/file`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', snapshotId: failed.snapshotId, jobStatus: 'failed' });
    expect(res.body.detail).toContain(failed.error);

    await proxy.up();
    stack.sim.faults.latencyMs = 400;
    try {
      const running = await startCapture(stack, { logs: 'none' });
      const busy = await stack.get<Conflict>(`/v1/snapshots/${running.snapshotId}/file`);
      expect(busy.status).toBe(409);
      expect(busy.body).toMatchObject({
        code: 'conflict',
        snapshotId: running.snapshotId,
        jobStatus: 'running',
      });
      // A capture still going is not called failed.
      expect(busy.body.detail).not.toMatch(/failed/);
      await finished(stack, running.snapshotId, 30_000);
    } finally {
      stack.sim.faults.latencyMs = 0;
    }
  });

  it("takes every pod's logs when the request has no body, a healthy pod's too", async () => {
    proxied = await startProxiedStack();
    const { stack } = proxied;
    dir = await mkdtemp(join(tmpdir(), 'skiff-download-rules-'));
    const job = await finished(stack, (await startCapture(stack)).snapshotId, 30_000);
    expect(job.status).toBe('done');
    const { path } = await download(stack, job.snapshotId, dir);
    const { namespace, name } = DEMO_PODS.checkout;
    const rows = readSnapshot(path, (db) => ({
      meta: (db.prepare("SELECT value FROM meta WHERE key = 'logs'").get() as { value: string }).value,
      healthy: (
        db.prepare('SELECT count(*) AS n FROM logs WHERE namespace = ? AND pod = ?').get(namespace, name) as {
          n: number;
        }
      ).n,
    }));
    expect(rows.meta).toBe('all');
    expect(rows.healthy).toBeGreaterThan(0);
  });
});
