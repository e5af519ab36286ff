/**
 * The sampler against the simulator's metrics.k8s.io over real HTTP, writing into a real database
 * (SQLite, and PostgreSQL where it runs): what a tick writes, which clusters it samples, how a
 * cluster without metrics is logged and retried, downsampling and retention on the sampler's
 * clock, and the lease that makes one sampler per cluster.
 */
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eachBackend, openBackend, postgresPerFile } from '../../events/history/history.test-support';
import type { StorageBackend } from '../../storage/backend';
import { usageLeaseKey } from './sampler';
import { allRows, capturingLogger, sampler, simCluster } from './usage.test-support';

const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
const MIN = 60_000;
const HOUR = 3_600_000;

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ tickMs: false });
});
afterAll(async () => sim?.close());

interface Item {
  metadata: { name: string; namespace?: string };
  containers?: { name: string; usage: { cpu: string; memory: string } }[];
  usage?: { cpu: string; memory: string };
}

/** The simulator's own answer, converted by hand: nanocores to millicores, Ki to bytes. */
async function expected(path: string): Promise<Item[]> {
  const res = await fetch(`${sim.url}${path}`, { headers: { authorization: 'Bearer skiff-demo-token' } });
  return ((await res.json()) as { items: Item[] }).items;
}
const milli = (n: string) => Math.round(Number(n.replace(/n$/, '')) / 1e3) / 1e3;
const bytes = (ki: string) => Number(ki.replace(/Ki$/, '')) * 1024;

eachBackend((kind) => {
  if (kind === 'postgres') postgresPerFile();
  let backend: StorageBackend;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ backend, close } = await openBackend(kind));
  });
  afterAll(async () => close?.());
  afterEach(async () => {
    await backend.run('DELETE FROM usage_samples');
    sim.faults.metricsDown = false;
  });

  it('a tick writes one row per running pod and per node, with the figures metrics.k8s.io gave, at the tick’s clock', async () => {
    const s = sampler(backend, () => [simCluster(sim)], { now: () => T0 });
    await s.tick();
    const rows = await allRows(backend);
    const pods = await expected('/apis/metrics.k8s.io/v1beta1/pods');
    const nodes = await expected('/apis/metrics.k8s.io/v1beta1/nodes');
    expect(pods.length).toBeGreaterThan(3);
    expect(rows).toHaveLength(pods.length + nodes.length);
    for (const p of pods) {
      const row = rows.find(
        (r) => r.subject === 'pod' && r.namespace === p.metadata.namespace && r.name === p.metadata.name,
      );
      expect(row).toMatchObject({ cluster_id: 'sim', time_ms: T0, resolution_ms: 30_000 });
      expect(row?.containers).toEqual(
        Object.fromEntries(
          (p.containers ?? []).map((c) => [
            c.name,
            { cpuMillicores: milli(c.usage.cpu), memoryBytes: bytes(c.usage.memory) },
          ]),
        ),
      );
    }
    for (const n of nodes) {
      const row = rows.find((r) => r.subject === 'node' && r.name === n.metadata.name);
      expect(row).toMatchObject({ namespace: '', time_ms: T0 });
      expect(row?.containers).toEqual({
        [n.metadata.name]: { cpuMillicores: milli(n.usage!.cpu), memoryBytes: bytes(n.usage!.memory) },
      });
    }
    await s.close();
  });

  it('samples again at each tick as the simulated usage drifts, and keeps a sample already written at the same instant', async () => {
    let now = T0;
    const s = sampler(backend, () => [simCluster(sim)], { now: () => now });
    await s.tick();
    const first = await allRows(backend);
    await s.tick();
    expect(await allRows(backend)).toEqual(first);
    sim.tick();
    now = T0 + 30_000;
    await s.tick();
    const rows = await allRows(backend);
    expect(rows).toHaveLength(first.length * 2);
    const pod = first.find((r) => r.subject === 'pod')!;
    const later = rows.find(
      (r) => r.name === pod.name && r.namespace === pod.namespace && r.time_ms === now,
    )!;
    expect(later.containers).not.toEqual(pod.containers);
    await s.close();
  });

  it('samples only live clusters that are recorded', async () => {
    const recorded = new Set(['on']);
    const s = sampler(
      backend,
      () => [simCluster(sim, 'on'), simCluster(sim, 'off'), simCluster(sim, 'snap', {})],
      {
        isRecorded: (id) => recorded.has(id) || id === 'snap',
        now: () => T0,
      },
    );
    await s.tick();
    expect(new Set((await allRows(backend)).map((r) => r.cluster_id))).toEqual(new Set(['on']));
    expect(s.sampling()).toEqual(['on']);
    // No longer recorded: its lease goes back and nothing more is written.
    recorded.delete('on');
    await backend.run('DELETE FROM usage_samples');
    await s.tick();
    expect(await allRows(backend)).toEqual([]);
    expect(s.sampling()).toEqual([]);
    await s.close();
  });

  it('a cluster whose metrics cannot be read is logged once, retried every tick, and said to be back when it answers', async () => {
    const { logger, lines } = capturingLogger();
    let now = T0;
    const s = sampler(backend, () => [simCluster(sim)], { logger, now: () => now });
    sim.faults.metricsDown = true;
    await s.tick();
    now += 30_000;
    await s.tick();
    expect(await allRows(backend)).toEqual([]);
    const warned = lines.filter((l) => l.level === 40);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({
      clusterId: 'sim',
      // The cluster's own answer, as the client reported it.
      err: expect.stringMatching(/^\/apis\/metrics\.k8s\.io\/v1beta1\/(pods|nodes): 503$/),
      msg: expect.stringContaining('metrics.k8s.io could not be read'),
    });
    sim.faults.metricsDown = false;
    now += 30_000;
    await s.tick();
    expect((await allRows(backend)).length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.level === 30)).toEqual([
      expect.objectContaining({ clusterId: 'sim', msg: expect.stringContaining('sampling resumed') }),
    ]);
    // Healthy ticks say nothing more.
    now += 30_000;
    await s.tick();
    expect(lines).toHaveLength(2);
    await s.close();
  });

  it('maintenance merges samples older than 24 h into 5-minute points (CPU mean, memory max) and drops those past 7 days', async () => {
    const now = T0 + 8 * 24 * HOUR;
    const s = sampler(backend, () => [simCluster(sim)], { now: () => now, options: { intervalMs: 60_000 } });
    await s.tick(); // takes the lease, writes a row at `now`
    const put = (t: number, cpu: number, mem: number, name = 'p') =>
      backend.run(
        `INSERT INTO usage_samples (cluster_id, subject, namespace, name, time_ms, resolution_ms, containers)
         VALUES ('sim', 'pod', 'ns', $name, $t, 60000, $c)`,
        { name, t, c: JSON.stringify({ app: { cpuMillicores: cpu, memoryBytes: mem } }) },
      );
    const bucket = now - 2 * 24 * HOUR; // a 5-minute boundary: T0 is one
    await put(bucket, 10, 100);
    await put(bucket + MIN, 20, 300);
    await put(bucket + 4 * MIN, 60, 200);
    await put(bucket + 5 * MIN, 7, 7); // the next bucket
    await put(now - 23 * HOUR, 5, 5); // within 24 h: kept as it is
    await put(now - 7 * 24 * HOUR - MIN, 1, 1); // past 7 days: dropped
    await s.maintain();
    const rows = (await allRows(backend)).filter((r) => r.name === 'p');
    expect(rows.map((r) => [r.time_ms - now, r.resolution_ms, r.containers])).toEqual([
      [-2 * 24 * HOUR, 300_000, { app: { cpuMillicores: 30, memoryBytes: 300 } }],
      [-2 * 24 * HOUR + 5 * MIN, 300_000, { app: { cpuMillicores: 7, memoryBytes: 7 } }],
      [-23 * HOUR, 60_000, { app: { cpuMillicores: 5, memoryBytes: 5 } }],
    ]);
    // Again: nothing changes (a merged point is not merged twice).
    await s.maintain();
    expect((await allRows(backend)).filter((r) => r.name === 'p')).toEqual(rows);
    await s.close();
  });

  it('maintains a cluster nobody samples any more too, unless another replica holds its lease', async () => {
    const now = T0 + 9 * 24 * HOUR;
    const s = sampler(backend, () => [], { now: () => now });
    const put = (t: number) =>
      backend.run(
        `INSERT INTO usage_samples (cluster_id, subject, namespace, name, time_ms, resolution_ms, containers)
         VALUES ('gone', 'node', '', 'n', $t, 30000, '{"n":{"cpuMillicores":1,"memoryBytes":1}}')`,
        { t },
      );
    await put(now - 2 * 24 * HOUR);
    await put(now - 8 * 24 * HOUR);
    if (kind === 'postgres') {
      // Another replica holds it (it samples it, or maintains it now): this one leaves it alone.
      const other = await backend.tryLease(usageLeaseKey('gone'));
      await s.maintain();
      expect((await allRows(backend)).map((r) => r.resolution_ms)).toEqual([30_000, 30_000]);
      await other?.release();
    }
    await s.maintain();
    expect((await allRows(backend)).map((r) => [r.time_ms - now, r.resolution_ms])).toEqual([
      [-2 * 24 * HOUR, 300_000],
    ]);
    // The lease was taken for the pass alone: it is free again.
    const again = await backend.tryLease(usageLeaseKey('gone'));
    expect(again).not.toBeNull();
    await again?.release();
    expect(s.sampling()).toEqual([]);
    await s.close();
  });

  it('samples a cluster only while it holds the cluster’s lease, and gives it back at close', async () => {
    const held = await backend.tryLease(usageLeaseKey('sim'));
    const s = sampler(backend, () => [simCluster(sim)], { now: () => T0 });
    await s.tick();
    if (kind === 'postgres') {
      // Another holder: this replica samples nothing until it is free.
      expect(s.sampling()).toEqual([]);
      expect(await allRows(backend)).toEqual([]);
      await held?.release();
      await s.tick();
    } else await held?.release();
    expect(s.sampling()).toEqual(['sim']);
    expect((await allRows(backend)).length).toBeGreaterThan(0);
    await s.close();
    const again = await backend.tryLease(usageLeaseKey('sim'));
    expect(again).not.toBeNull();
    await again?.release();
  });
});

describe('timers', () => {
  it('with an interval, ticks on their own until closed; with off, never', async () => {
    const { backend, close } = await openBackend('sqlite');
    try {
      const off = sampler(backend, () => [simCluster(sim, 'never')], {
        options: { intervalMs: 0, maintainEveryMs: 50 },
      });
      off.start();
      const on = sampler(backend, () => [simCluster(sim)], {
        options: { intervalMs: 50, maintainEveryMs: 50 },
      });
      on.start();
      await expect.poll(async () => (await allRows(backend)).length, { timeout: 20_000 }).toBeGreaterThan(0);
      await on.close();
      await off.close();
      expect((await allRows(backend)).filter((r) => r.cluster_id === 'never')).toEqual([]);
      const n = (await allRows(backend)).length;
      // After close no tick writes: a tick started after close would write at a new instant.
      await on.tick();
      expect((await allRows(backend)).length).toBe(n);
      expect(on.sampling()).toEqual([]);
    } finally {
      await close();
    }
  });

  it('maintenance runs on its own timer: a sample past retention goes without a call', async () => {
    const { backend, close } = await openBackend('sqlite');
    try {
      await backend.run(
        `INSERT INTO usage_samples (cluster_id, subject, namespace, name, time_ms, resolution_ms, containers)
         VALUES ('old', 'node', '', 'n', 1, 30000, '{}')`,
      );
      const s = sampler(backend, () => [], { options: { intervalMs: 60_000, maintainEveryMs: 50 } });
      s.start();
      await expect.poll(async () => (await allRows(backend)).length, { timeout: 20_000 }).toBe(0);
      await s.close();
    } finally {
      await close();
    }
  });
});

describe('sampler details', () => {
  let backend: StorageBackend;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ backend, close } = await openBackend('sqlite'));
  });
  afterAll(async () => close?.());

  it('names its lease after the cluster', () => {
    expect(usageLeaseKey('prod-eu')).toBe('usage-sampler:prod-eu');
  });

  it('lists the clusters it samples sorted', async () => {
    const s = sampler(backend, () => [simCluster(sim, 'b'), simCluster(sim, 'a')], { now: () => T0 });
    await s.tick();
    expect(s.sampling()).toEqual(['a', 'b']);
    await s.close();
  });

  it('bounds each read by the cluster timeout and the interval, the shorter; with off by the cluster timeout', async () => {
    const asked: number[] = [];
    const cluster = (timeoutMs: number) => {
      const c = simCluster(sim, 'timed');
      return {
        ...c,
        timeoutMs,
        client: {
          getJson<T>(path: string, opts: { timeoutMs: number }): Promise<T> {
            asked.push(opts.timeoutMs);
            return c.client.getJson<T>(path, opts);
          },
        },
      };
    };
    for (const [intervalMs, timeoutMs, expected] of [
      [30_000, 5_000, 5_000],
      [2_000, 5_000, 2_000],
      [0, 5_000, 5_000],
    ] as const) {
      asked.length = 0;
      const s = sampler(backend, () => [cluster(timeoutMs)], { options: { intervalMs }, now: () => T0 });
      await s.tick();
      expect(asked).toEqual([expected, expected]);
      await s.close();
    }
  });

  it('a tick whose reads end after close writes nothing', async () => {
    await backend.run('DELETE FROM usage_samples');
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const c = simCluster(sim, 'slow');
    const slow = {
      ...c,
      client: {
        async getJson<T>(path: string, opts: { timeoutMs: number }): Promise<T> {
          await gate;
          return c.client.getJson<T>(path, opts);
        },
      },
    };
    const s = sampler(backend, () => [slow], { now: () => T0 });
    const ticking = s.tick();
    await expect.poll(() => s.sampling()).toEqual(['slow']);
    const closing = s.close();
    release();
    await ticking;
    await closing;
    expect(await allRows(backend)).toEqual([]);
  });
});
