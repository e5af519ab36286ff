/**
 * UsageHistory as createService makes it: start() starts sampling on its interval, close() stops
 * it and gives the cluster's lease back. On SQLite, against
 * the simulator over real HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAppDatabase } from '../../storage/database';
import { SqliteBackend } from '../../storage/sqlite-backend';
import { UsageHistory } from './index';
import { allRows, simCluster } from './usage.test-support';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ tickMs: false });
});
afterAll(async () => sim?.close());

let dir: string;
let backend: SqliteBackend;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skiff-usage-'));
  backend = new SqliteBackend(
    openAppDatabase({ dataDir: dir, logger: pino({ level: 'silent' }) }),
    pino({ level: 'silent' }),
  );
});
afterEach(async () => {
  await backend.close();
  rmSync(dir, { recursive: true, force: true });
});

const history = (intervalMs: number) =>
  new UsageHistory({
    backend,
    options: { intervalMs, maintainEveryMs: 60_000 },
    clusters: () => [simCluster(sim)],
    isRecorded: () => true,
    logger: pino({ level: 'silent' }),
    now: Date.now,
  });

describe('UsageHistory', () => {
  it('samples once started, on its interval, and stops at close, giving the lease back', async () => {
    const usage = history(50);
    expect(usage.options.intervalMs).toBe(50);
    usage.start();
    await expect.poll(async () => (await allRows(backend)).length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(usage.sampler.sampling()).toEqual(['sim']);
    await usage.close();
    expect(usage.sampler.sampling()).toEqual([]);
  });
});
