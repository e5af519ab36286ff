/**
 * The usage_samples table on both backends: writes in batches that keep a sample already there,
 * one series' reads, downsampling by whole buckets only (a full batch leaves its last bucket for
 * the next one), retention in batches, and the series read clamped to a snapshot's takenAt.
 */
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eachBackend, openBackend, postgresPerFile } from '../../events/history/history.test-support';
import type { StorageBackend } from '../../storage/backend';
import { UsageHistory } from './index';
import type { SampleRow } from './samples';
import { groupByBucket, readSeries, UsageStore } from './store';
import { allRows } from './usage.test-support';

const T = Date.UTC(2026, 0, 10, 12, 0, 0);
const STEP = 300_000;
const row = (name: string, cpu: number, mem = cpu): SampleRow => ({
  subject: 'pod',
  namespace: 'ns',
  name,
  containers: { app: { cpuMillicores: cpu, memoryBytes: mem } },
});

describe('groupByBucket', () => {
  it('groups rows ordered by series and time into one group per series and bucket', () => {
    const r = (name: string, t: number, subject: 'pod' | 'node' = 'pod', namespace = 'ns') => ({
      subject,
      namespace,
      name,
      time_ms: t,
      containers: `{"t":${t}}`,
    });
    const groups = groupByBucket(
      [
        r('a', T),
        r('a', T + STEP - 1),
        r('a', T + STEP),
        r('b', T + STEP),
        r('b', T + STEP, 'node'),
        r('b', T + STEP, 'node', 'x'),
      ],
      STEP,
    );
    expect(groups.map((g) => [g.subject, g.namespace, g.name, g.bucket - T, g.samples.length])).toEqual([
      ['pod', 'ns', 'a', 0, 2],
      ['pod', 'ns', 'a', STEP, 1],
      ['pod', 'ns', 'b', STEP, 1],
      ['node', 'ns', 'b', STEP, 1],
      ['node', 'x', 'b', STEP, 1],
    ]);
    expect(groups[0]?.samples).toEqual([{ t: T }, { t: T + STEP - 1 }]);
  });
});

eachBackend((kind) => {
  if (kind === 'postgres') postgresPerFile();
  let backend: StorageBackend;
  let close: () => Promise<void>;
  let store: UsageStore;
  beforeAll(async () => {
    ({ backend, close } = await openBackend(kind));
    store = new UsageStore(backend);
  });
  afterAll(async () => close?.());
  afterEach(async () => {
    await backend.run('DELETE FROM usage_samples');
  });

  it('writes every row in batches of 500, and keeps a sample already written at the same instant', async () => {
    const rows = Array.from({ length: 1_203 }, (_, i) => row(`p${i}`, i));
    expect(await store.write('c', T, 30_000, rows)).toBe(true);
    expect(await store.write('c', T, 30_000, [row('p0', 999)])).toBe(true);
    const all = await allRows(backend);
    expect(all).toHaveLength(1_203);
    expect(all.find((r) => r.name === 'p0')?.containers).toEqual({
      app: { cpuMillicores: 0, memoryBytes: 0 },
    });
    expect(new Set(all.map((r) => `${r.cluster_id}|${r.time_ms}|${r.resolution_ms}`))).toEqual(
      new Set([`c|${T}|30000`]),
    );
  });

  it('reads one series within [since, until], oldest first, of that cluster only', async () => {
    await store.write('c', T + 20, 30_000, [row('p', 2), row('q', 9)]);
    await store.write('c', T, 30_000, [row('p', 0)]);
    await store.write('c', T + 10, 30_000, [row('p', 1)]);
    await store.write('other', T + 10, 30_000, [row('p', 5)]);
    await store.write('c', T + 10, 30_000, [{ ...row('p', 7), subject: 'node' }]);
    const series = { subject: 'pod' as const, namespace: 'ns', name: 'p' };
    expect((await readSeries(backend, 'c', series, T, T + 20)).map((r) => r.time_ms - T)).toEqual([
      0, 10, 20,
    ]);
    expect((await readSeries(backend, 'c', series, T + 1, T + 19)).map((r) => r.containers)).toEqual([
      '{"app":{"cpuMillicores":1,"memoryBytes":1}}',
    ]);
    expect(await readSeries(backend, 'c', { ...series, namespace: 'x' }, T, T + 20)).toEqual([]);
  });

  it('merges only whole buckets before the cut, and a full batch leaves its last bucket for the next', async () => {
    // Series a: 3 samples in bucket 0, 2 in bucket 1; series b: 2 in bucket 0. One after the cut.
    for (const [name, t, v] of [
      ['a', 0, 1],
      ['a', 60_000, 2],
      ['a', 120_000, 3],
      ['a', STEP, 4],
      ['a', STEP + 60_000, 8],
      ['b', 0, 10],
      ['b', 60_000, 20],
      ['a', 2 * STEP, 100],
    ] as const)
      await store.write('c', T + t, 60_000, [row(name, v)]);
    // A batch of 4 rows holds bucket 0 of a (3) and the start of bucket 1 of a: only bucket 0 is merged.
    expect(await store.downsample('c', T + 2 * STEP, STEP, 4)).toBe(3);
    let rows = await allRows(backend);
    expect(rows.filter((r) => r.name === 'a').map((r) => [r.time_ms - T, r.resolution_ms])).toEqual([
      [0, STEP],
      [STEP, 60_000],
      [STEP + 60_000, 60_000],
      [2 * STEP, 60_000],
    ]);
    // The next batch is full again (a's bucket 1, b's bucket 0): b waits; then b alone.
    expect(await store.downsample('c', T + 2 * STEP, STEP, 4)).toBe(2);
    expect(await store.downsample('c', T + 2 * STEP, STEP, 4)).toBe(2);
    expect(await store.downsample('c', T + 2 * STEP, STEP, 4)).toBe(0);
    rows = await allRows(backend);
    expect(rows.map((r) => [r.name, r.time_ms - T, r.resolution_ms, r.containers])).toEqual([
      ['a', 0, STEP, { app: { cpuMillicores: 2, memoryBytes: 3 } }],
      ['a', STEP, STEP, { app: { cpuMillicores: 6, memoryBytes: 8 } }],
      ['a', 2 * STEP, 60_000, { app: { cpuMillicores: 100, memoryBytes: 100 } }],
      ['b', 0, STEP, { app: { cpuMillicores: 15, memoryBytes: 20 } }],
    ]);
  });

  it('a full batch of one bucket is merged (the batch is sized to exceed any bucket), and other clusters are left alone', async () => {
    await store.write('c', T, 60_000, [row('a', 1)]);
    await store.write('c', T + 60_000, 60_000, [row('a', 3)]);
    await store.write('other', T, 60_000, [row('a', 1)]);
    expect(await store.downsample('c', T + STEP, STEP, 2)).toBe(2);
    expect((await allRows(backend)).map((r) => [r.cluster_id, r.resolution_ms])).toEqual([
      ['c', STEP],
      ['other', 60_000],
    ]);
  });

  it('a sample at a bucket’s start is merged into the point at that instant', async () => {
    await store.write('c', T, 60_000, [row('a', 4)]);
    expect(await store.downsample('c', T + STEP, STEP, 100)).toBe(1);
    expect((await allRows(backend)).map((r) => [r.time_ms, r.resolution_ms, r.containers])).toEqual([
      [T, STEP, { app: { cpuMillicores: 4, memoryBytes: 4 } }],
    ]);
  });

  it('prunes samples older than the instant, a batch at a time, of that cluster only', async () => {
    for (let i = 0; i < 5; i++) await store.write('c', T + i, 30_000, [row('a', i)]);
    await store.write('other', T, 30_000, [row('a', 0)]);
    expect(await store.prune('c', T + 4, 3)).toBe(3);
    expect(await store.prune('c', T + 4, 3)).toBe(1);
    expect(await store.prune('c', T + 4, 3)).toBe(0);
    expect((await allRows(backend)).map((r) => [r.cluster_id, r.time_ms - T])).toEqual([
      ['c', 4],
      ['other', 0],
    ]);
    expect(await store.prune('c', T + 5)).toBe(1);
  });

  it('UsageHistory.series never answers past a snapshot’s takenAt', async () => {
    for (let i = 0; i < 3; i++) await store.write('c', T + i * 10, 30_000, [row('a', i)]);
    const usage = new UsageHistory({
      backend,
      options: { intervalMs: 0 },
      clusters: () => [],
      isRecorded: () => false,
      logger: pino({ level: 'silent' }),
      now: () => T,
    });
    const series = { subject: 'pod' as const, namespace: 'ns', name: 'a' };
    const live = { db: backend, clusterId: 'c', frozen: false };
    expect((await usage.series(live, series, T, T + 100)).map((r) => r.time_ms - T)).toEqual([0, 10, 20]);
    const frozen = { ...live, frozen: true, asOfMs: T + 10 };
    expect((await usage.series(frozen, series, T, T + 100)).map((r) => r.time_ms - T)).toEqual([0, 10]);
    expect((await usage.series(frozen, series, T, T + 5)).map((r) => r.time_ms - T)).toEqual([0]);
    usage.start();
    await usage.close();
  });
});
