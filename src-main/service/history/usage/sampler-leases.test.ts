/**
 * The sampler's edges against the simulator and a real SQLite database: a lease lost (its
 * connection ended) stops the sampling until taken again, and a stale loss is ignored; a lease won
 * after close is given straight back with nothing read; a closed sampler reads nothing and takes
 * no lease; a lease another replica holds means no read at all; a failing maintenance pass is
 * logged for its cluster and spares the others; a bucket wider than 2,000 raw samples is merged
 * whole. Leases are driven through a backend that hands out the real backend's leases with a `lost`
 * the test resolves, a `tryLease` the test holds, counts, or answers as held elsewhere (null).
 */
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openBackend } from '../../events/history/history.test-support';
import type { Lease, StorageBackend } from '../../storage/backend';
import { usageLeaseKey } from './sampler';
import { allRows, capturingLogger, sampler, simCluster } from './usage.test-support';

const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
const HOUR = 3_600_000;

let sim: Simulator;
let backend: StorageBackend;
let close: () => Promise<void>;
beforeAll(async () => {
  sim = await startSimulator({ tickMs: false });
  ({ backend, close } = await openBackend('sqlite'));
});
afterAll(async () => {
  await close?.();
  await sim?.close();
});
afterEach(async () => {
  await backend.run('DELETE FROM usage_samples');
});

/** The backend, with each lease's `lost` resolved by the test (`lose[i]()` for the i-th lease). */
function losingBackend(): { leasing: StorageBackend; lose: Array<() => void> } {
  const lose: Array<() => void> = [];
  const leasing = Object.create(backend) as StorageBackend;
  leasing.tryLease = async (key: string): Promise<Lease | null> => {
    const lease = await backend.tryLease(key);
    if (!lease) return lease;
    const lost = new Promise<void>((resolve) => {
      lose.push(resolve);
    });
    return { key: lease.key, lost, release: () => lease.release() };
  };
  return { leasing, lose };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('a lost lease', () => {
  it('stops the sampling, is logged for its cluster, and the next tick takes the lease again', async () => {
    const { logger, lines } = capturingLogger();
    const { leasing, lose } = losingBackend();
    const s = sampler(leasing, () => [simCluster(sim, 'lost')], { logger, now: () => T0 });
    await s.tick();
    expect(s.sampling()).toEqual(['lost']);
    lose[0]!();
    await expect.poll(() => s.sampling()).toEqual([]);
    expect(lines.filter((l) => l.level === 40)).toEqual([
      expect.objectContaining({
        clusterId: 'lost',
        msg: 'usage: the sampler lease was lost; another replica may sample',
      }),
    ]);
    await s.tick();
    expect(lose).toHaveLength(2);
    expect(s.sampling()).toEqual(['lost']);
    await s.close();
  });

  it('given back before it was lost changes nothing for the lease held since', async () => {
    const { logger, lines } = capturingLogger();
    const { leasing, lose } = losingBackend();
    let recorded = true;
    const s = sampler(leasing, () => [simCluster(sim, 'again')], {
      logger,
      isRecorded: () => recorded,
      now: () => T0,
    });
    await s.tick();
    recorded = false;
    await s.tick(); // gives the first lease back
    expect(s.sampling()).toEqual([]);
    recorded = true;
    await s.tick(); // a second lease
    expect(lose).toHaveLength(2);
    lose[0]!(); // the first one's connection ends now
    await settle();
    await settle();
    expect(s.sampling()).toEqual(['again']);
    expect(lines).toEqual([]);
    await s.close();
  });
});

describe('close', () => {
  it('a lease won after close is given straight back and nothing is read', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let asked = 0;
    const slow = Object.create(backend) as StorageBackend;
    slow.tryLease = async (key: string) => {
      asked += 1;
      await gate;
      return backend.tryLease(key);
    };
    let reads = 0;
    const c = simCluster(sim, 'late');
    const counted = {
      ...c,
      client: {
        getJson<T>(path: string, opts: { timeoutMs: number }): Promise<T> {
          reads += 1;
          return c.client.getJson<T>(path, opts);
        },
      },
    };
    const s = sampler(slow, () => [counted], { now: () => T0 });
    const ticking = s.tick();
    await expect.poll(() => asked).toBe(1);
    const closing = s.close();
    open();
    await ticking;
    await closing;
    expect(reads).toBe(0);
    expect(s.sampling()).toEqual([]);
    expect(await allRows(backend)).toEqual([]);
    const again = await backend.tryLease(usageLeaseKey('late'));
    expect(again).not.toBeNull();
    await again?.release();
  });

  it('a closed sampler does not even list the clusters at a tick', async () => {
    let listed = 0;
    const s = sampler(
      backend,
      () => {
        listed += 1;
        return [simCluster(sim, 'shut')];
      },
      { now: () => T0 },
    );
    await s.tick();
    expect(listed).toBe(1);
    await s.close();
    const written = (await allRows(backend)).length;
    await s.tick();
    expect(listed).toBe(1);
    expect(await allRows(backend)).toHaveLength(written);
  });
});

describe('leases held elsewhere', () => {
  it('a cluster whose lease another replica holds is not read at all', async () => {
    const elsewhere = Object.create(backend) as StorageBackend;
    elsewhere.tryLease = async () => null;
    let reads = 0;
    const c = simCluster(sim, 'theirs');
    const counted = {
      ...c,
      client: {
        getJson<T>(path: string, opts: { timeoutMs: number }): Promise<T> {
          reads += 1;
          return c.client.getJson<T>(path, opts);
        },
      },
    };
    const s = sampler(elsewhere, () => [counted], { now: () => T0 });
    await s.tick();
    expect(reads).toBe(0);
    expect(s.sampling()).toEqual([]);
    expect(await allRows(backend)).toEqual([]);
    await s.close();
  });

  it('a closed sampler’s maintenance takes no lease of a cluster it does not sample', async () => {
    await backend.run(
      `INSERT INTO usage_samples (cluster_id, subject, namespace, name, time_ms, resolution_ms, containers)
       VALUES ('orphan', 'node', '', 'n', 1, 30000, '{}')`,
    );
    const taken: string[] = [];
    const counting = Object.create(backend) as StorageBackend;
    counting.tryLease = async (key: string) => {
      taken.push(key);
      return backend.tryLease(key);
    };
    const s = sampler(counting, () => [], { now: () => T0 });
    await s.close();
    await s.maintain();
    expect(taken).toEqual([]);
  });
});

describe('maintenance', () => {
  const put = (cluster: string, t: number, containers: string, resolution = 30_000) =>
    backend.run(
      `INSERT INTO usage_samples (cluster_id, subject, namespace, name, time_ms, resolution_ms, containers)
       VALUES ($cluster, 'pod', 'ns', 'p', $t, $resolution, $containers)`,
      { cluster, t, resolution, containers },
    );

  it('a pass that fails is logged for its cluster; the other clusters are still maintained', async () => {
    const now = T0 + 9 * 24 * HOUR;
    const { logger, lines } = capturingLogger();
    const s = sampler(backend, () => [], { logger, now: () => now });
    // A row that cannot be merged: its containers are not JSON.
    await put('broken', now - 2 * 24 * HOUR, 'not json');
    await put('fine', now - 8 * 24 * HOUR, '{}');
    await s.maintain();
    const left = await backend.all<{ cluster_id: string }>('SELECT cluster_id FROM usage_samples');
    expect(left.map((r) => r.cluster_id)).toEqual(['broken']);
    const errors = lines.filter((l) => l.level === 50);
    expect(errors).toEqual([
      expect.objectContaining({
        clusterId: 'broken',
        err: expect.any(String),
        msg: 'usage: downsampling or retention failed; tried again at the next pass',
      }),
    ]);
    await s.close();
  });

  it('merges a bucket of more than 2,000 raw samples whole (a 1 h step at a 1 s interval)', async () => {
    const now = T0 + 3 * 24 * HOUR;
    const bucket = now - 2 * 24 * HOUR; // an hour boundary: T0 is one
    const n = 2_500;
    await backend.transaction('test rows', async (tx) => {
      for (let i = 0; i < n; i++)
        await tx.run(
          `INSERT INTO usage_samples (cluster_id, subject, namespace, name, time_ms, resolution_ms, containers)
           VALUES ('wide', 'pod', 'ns', 'p', $t, 1000, $c)`,
          { t: bucket + i * 1_000, c: JSON.stringify({ app: { cpuMillicores: i, memoryBytes: i } }) },
        );
    });
    const s = sampler(backend, () => [], {
      now: () => now,
      options: { intervalMs: 1_000, downsampleStepMs: HOUR },
    });
    await s.maintain();
    const rows = (await allRows(backend)).filter((r) => r.cluster_id === 'wide');
    expect(rows.map((r) => [r.time_ms, r.resolution_ms, r.containers])).toEqual([
      [bucket, HOUR, { app: { cpuMillicores: (n - 1) / 2, memoryBytes: n - 1 } }],
    ]);
    await s.close();
  });
});
