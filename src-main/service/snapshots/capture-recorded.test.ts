import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotGap } from '../../../src-shared/contract/snapshot-models';
import { silentLogger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { AppDatabase } from '../storage/database';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../storage/postgres.test-support';
import { openPostgresBackend } from '../storage/postgres-backend';
import { SqliteBackend } from '../storage/sqlite-backend';
import { BATCH, captureRecorded, leftOutGap, type PartLimits } from './capture-recorded';
import { RECORDED_LIMITS } from './format';
import { type ChangeRow, type KeptLogRow, recordedRowBytes, type UsageRow } from './recorded-tables';
import { changeRow, keptLogRow, META, tempFolder, usageRow } from './skiff-file.test-support';
import type { CaptureSource } from './source';
import { SnapshotWriter } from './writer';

/**
 * The recorded part of a capture (capture-recorded.ts) on a real app database (SQLite, migrated as
 * the service migrates it) into a real file: the newest rows up to the capture's start, the
 * cluster's only, within the bounds, what is left out one gap per part. Who may read what under
 * `--authorize rbac` is snapshot-recorded-rbac.it.test.ts's, against the simulator's RBAC.
 */

const CLUSTER = 'prod-eu';
const T0 = Date.parse('2026-03-01T11:00:00Z');
const MIN = 60_000;

let folder: ReturnType<typeof tempFolder>;
let app: AppDatabase;
let backend: StorageBackend;
beforeEach(() => {
  folder = tempFolder();
  app = AppDatabase.open(':memory:', silentLogger());
  backend = new SqliteBackend(app, silentLogger());
});
afterEach(() => {
  app.close();
  folder.remove();
});

async function insertChange(r: ChangeRow, cluster = CLUSTER): Promise<void> {
  await backend.run(
    `INSERT INTO change_history (id, cluster_id, time_ms, resource_type, kind, namespace, name, uid, change,
       resource_version, patch, summary, object, recorded_at)
     VALUES ($id, $cluster, $time_ms, $resource_type, $kind, $namespace, $name, $uid, $change,
       $resource_version, $patch, $summary, $object, $recorded_at)`,
    { ...r, cluster },
  );
}
async function insertUsage(r: UsageRow, cluster = CLUSTER): Promise<void> {
  await backend.run(
    `INSERT INTO usage_samples (cluster_id, subject, namespace, name, time_ms, resolution_ms, containers)
     VALUES ($cluster, $subject, $namespace, $name, $time_ms, $resolution_ms, $containers)`,
    { ...r, cluster },
  );
}
async function insertKept(r: KeptLogRow, cluster = CLUSTER): Promise<void> {
  await backend.run(
    `INSERT INTO kept_logs (id, cluster_id, namespace, pod, pod_uid, container, restart_count, finished_at,
       finished_ms, exit_code, reason, lines, line_count, bytes, kept_at)
     VALUES ($id, $cluster, $namespace, $pod, $pod_uid, $container, $restart_count, $finished_at,
       $finished_ms, $exit_code, $reason, $lines, $line_count, $bytes, $kept_at)`,
    { ...r, cluster },
  );
}

/** The source a capture reads: only its cluster id and recorded database are read by this part. */
const sourceOf = (recorded?: CaptureSource['recorded']): CaptureSource =>
  ({ clusterId: CLUSTER, ...(recorded ? { recorded } : {}) }) as CaptureSource;

interface Captured {
  gaps: SnapshotGap[];
  changes: ChangeRow[];
  usage: UsageRow[];
  keptLogs: KeptLogRow[];
}

/** Captures the recorded part into a finished file and reads its tables back. */
async function capture(
  opts: {
    untilMs?: number;
    limits?: Partial<{ changes: PartLimits; usage: PartLimits; keptLogs: PartLimits }>;
    source?: CaptureSource;
    signal?: AbortSignal;
  } = {},
): Promise<Captured> {
  const path = folder.path(`c-${Math.random()}.skiff`);
  const writer = new SnapshotWriter(`${path}.partial`);
  const gaps: SnapshotGap[] = [];
  try {
    await captureRecorded(opts.source ?? sourceOf({ db: backend }), writer, {
      untilMs: opts.untilMs ?? T0 + 60 * MIN,
      gaps,
      signal: opts.signal ?? new AbortController().signal,
      ...(opts.limits ? { limits: { ...RECORDED_LIMITS, ...opts.limits } } : {}),
    });
    writer.finish(META, [], path);
  } catch (err) {
    writer.discard();
    throw err;
  }
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const all = <T>(sql: string) => db.prepare(sql).all() as unknown as T[];
    return {
      gaps,
      changes: all<ChangeRow>('SELECT * FROM change_history ORDER BY id'),
      usage: all<UsageRow>('SELECT * FROM usage_samples'),
      keptLogs: all<KeptLogRow>('SELECT * FROM kept_logs ORDER BY id'),
    };
  } finally {
    db.close();
  }
}

describe('the recorded part of a capture', () => {
  it("takes the cluster's rows up to its start, as they were, and no gap", async () => {
    const c1 = changeRow({ id: 1, time_ms: T0, object: JSON.stringify({ metadata: { name: 'checkout' } }) });
    const c2 = changeRow({ id: 2, time_ms: T0 + 60 * MIN });
    await insertChange(c1);
    await insertChange(c2);
    await insertChange(changeRow({ id: 3, time_ms: T0 + 60 * MIN + 1 }));
    await insertChange(changeRow({ id: 4, time_ms: T0 }), 'other');
    const u = usageRow({ time_ms: T0 + 60 * MIN });
    await insertUsage(u);
    await insertUsage(usageRow({ time_ms: T0 + 60 * MIN + 1 }));
    await insertUsage(usageRow({ name: 'elsewhere' }), 'other');
    const k = keptLogRow({
      id: 5,
      restart_count: 5,
      kept_at: T0 + 60 * MIN,
      exit_code: null,
      finished_at: null,
    });
    await insertKept(k);
    await insertKept(keptLogRow({ id: 6, restart_count: 6, kept_at: T0 + 60 * MIN + 1 }));
    await insertKept(keptLogRow({ id: 7, restart_count: 7 }), 'other');
    const got = await capture();
    expect(got).toEqual({ gaps: [], changes: [c1, c2], usage: [u], keptLogs: [k] });
  });

  it('takes nothing and says nothing when nothing is recorded', async () => {
    expect(await capture({ source: sourceOf(undefined) })).toEqual({
      gaps: [],
      changes: [],
      usage: [],
      keptLogs: [],
    });
  });

  it('flushes what the recorders hold before it reads, and goes on when the flush fails', async () => {
    const late = changeRow({ id: 1, time_ms: T0 });
    const flushed = await capture({ source: sourceOf({ db: backend, flush: () => insertChange(late) }) });
    expect(flushed.changes).toEqual([late]);
    const failed = await capture({
      source: sourceOf({ db: backend, flush: () => Promise.reject(new Error('database gone')) }),
    });
    expect(failed.changes).toEqual([late]);
    expect(failed.gaps).toEqual([]);
  });

  it('reads page after page, rows of the same millisecond included, newest first to the bound', async () => {
    const n = BATCH * 2 + 5;
    // Three rows a millisecond, so pages end inside a millisecond; inserted out of order.
    const rows = Array.from({ length: n }, (_, i) =>
      changeRow({ id: n - i, time_ms: T0 + Math.floor(i / 3) }),
    );
    for (const r of [...rows].reverse()) await insertChange(r);
    const all = await capture();
    expect(all.changes.map((r) => r.id)).toEqual(rows.map((r) => r.id).sort((a, b) => a - b));
    expect(all.gaps).toEqual([]);
    const some = await capture({ limits: { changes: { rows: BATCH + 1, totalBytes: 2 ** 30 } } });
    // The newest: by time, then by id.
    const newest = [...rows]
      .sort((a, b) => b.time_ms - a.time_ms || b.id - a.id)
      .slice(0, BATCH + 1)
      .map((r) => r.id)
      .sort((a, b) => a - b);
    expect(some.changes.map((r) => r.id)).toEqual(newest);
    expect(some.gaps).toEqual([
      {
        part: 'changes',
        reason: `the ${n - BATCH - 1} oldest changes were left out (a snapshot holds at most ${BATCH + 1} changes and 1024 MiB of them)`,
      },
    ]);
  });

  it('stops at the bytes bound, and leaves out a row larger than a file allows', async () => {
    const rows = [1, 2, 3].map((id) => changeRow({ id, time_ms: T0 + id }));
    for (const r of rows) await insertChange(r);
    await insertChange(
      changeRow({ id: 4, time_ms: T0 + 4, summary: 's'.repeat(RECORDED_LIMITS.summaryBytes + 1) }),
    );
    const bound = recordedRowBytes(rows[2]!) + recordedRowBytes(rows[1]!);
    const got = await capture({ limits: { changes: { rows: 100, totalBytes: bound } } });
    expect(got.changes.map((r) => r.id)).toEqual([2, 3]);
    expect(got.gaps).toEqual([
      {
        part: 'changes',
        reason: `1 changes larger than a snapshot allows were left out; the 1 oldest changes were left out (a snapshot holds at most 100 changes and ${bound / 2 ** 20} MiB of them)`,
      },
    ]);
    const exact = await capture({ limits: { changes: { rows: 2, totalBytes: 2 ** 30 } } });
    expect(exact.changes.map((r) => r.id)).toEqual([2, 3]);
  });

  it('takes the newest usage samples: those after the time of the first one past the bound', async () => {
    const samples = [0, 1, 2, 2, 3].map((m, i) => usageRow({ name: `p${i}`, time_ms: T0 + m * MIN }));
    for (const s of samples) await insertUsage(s);
    const two = await capture({ limits: { usage: { rows: 2, totalBytes: 2 ** 30 } } });
    // The second newest is at minute 2, as is the third: all of that minute are left out with it.
    expect(two.usage.map((u) => u.name)).toEqual(['p4']);
    expect(two.gaps).toEqual([
      {
        part: 'usage',
        reason:
          'the 4 oldest usage samples were left out (a snapshot holds at most 2 usage samples and 1024 MiB of them)',
      },
    ]);
    const three = await capture({ limits: { usage: { rows: 3, totalBytes: 2 ** 30 } } });
    expect(three.usage.map((u) => u.name)).toEqual(['p2', 'p3', 'p4']);
    const four = await capture({ limits: { usage: { rows: 4, totalBytes: 2 ** 30 } } });
    expect(four.usage.map((u) => u.name)).toEqual(['p1', 'p2', 'p3', 'p4']);
    const all = await capture({ limits: { usage: { rows: 5, totalBytes: 2 ** 30 } } });
    expect(all.usage).toHaveLength(5);
    expect(all.gaps).toEqual([]);
  });

  it('reads usage page after page in key order, and leaves out what is over a bound', async () => {
    const n = BATCH + 3;
    for (let i = 0; i < n; i++)
      await insertUsage(usageRow({ name: `p${String(i).padStart(5, '0')}`, time_ms: T0 + (i % 7) }));
    await insertUsage(
      usageRow({ name: 'big', containers: `{"${'c'.repeat(RECORDED_LIMITS.containersBytes)}":{}}` }),
    );
    const got = await capture();
    expect(got.usage).toHaveLength(n);
    expect(got.gaps).toEqual([
      { part: 'usage', reason: '1 usage samples larger than a snapshot allows were left out' },
    ]);
    const bytes = recordedRowBytes(usageRow({ name: 'p00000' }));
    const few = await capture({ limits: { usage: { rows: 1_000_000, totalBytes: bytes * 2 } } });
    expect(few.usage).toHaveLength(2);
    expect(few.gaps[0]!.reason).toMatch(
      new RegExp(`^1 usage samples larger .*; the ${n - 2} oldest usage samples were left out`),
    );
  });

  it('takes the newest kept logs, kept last first, to the bounds', async () => {
    for (let id = 1; id <= 5; id++)
      await insertKept(keptLogRow({ id, restart_count: id, kept_at: T0 + (id > 3 ? 1 : 0) }));
    await insertKept(
      keptLogRow({
        id: 6,
        restart_count: 6,
        kept_at: T0 + 2,
        lines: 'l'.repeat(RECORDED_LIMITS.linesBytes + 1),
      }),
    );
    const got = await capture({ limits: { keptLogs: { rows: 3, totalBytes: 2 ** 30 } } });
    expect(got.keptLogs.map((k) => k.id)).toEqual([3, 4, 5]);
    expect(got.gaps).toEqual([
      {
        part: 'keptLogs',
        reason:
          '1 kept logs larger than a snapshot allows were left out; the 2 oldest kept logs were left out (a snapshot holds at most 3 kept logs and 1024 MiB of them)',
      },
    ]);
    for (let id = 10; id < 10 + 150; id++)
      await insertKept(keptLogRow({ id, restart_count: id, kept_at: T0 + 3 }));
    const many = await capture();
    expect(many.keptLogs).toHaveLength(155);
  });

  it('every part that cannot be read is a gap naming it and why', async () => {
    for (const table of ['change_history', 'usage_samples', 'kept_logs']) app.run(`DROP TABLE ${table}`);
    const got = await capture();
    expect(got.gaps.map((g) => [g.part, g.reason])).toEqual([
      ['changes', 'no such table: change_history'],
      ['usage', 'no such table: usage_samples'],
      ['keptLogs', 'no such table: kept_logs'],
    ]);
  });

  it('ends when the capture is cancelled while it reads usage or kept logs', async () => {
    for (let i = 0; i <= BATCH; i++) await insertUsage(usageRow({ name: `p${i}` }));
    const stop = new AbortController();
    stop.abort(new Error('cancelled in usage'));
    await expect(capture({ signal: stop.signal })).rejects.toThrow('cancelled in usage');
    app.run('DELETE FROM usage_samples');
    for (let id = 1; id <= 101; id++) await insertKept(keptLogRow({ id, restart_count: id }));
    await expect(capture({ signal: stop.signal })).rejects.toThrow('cancelled in usage');
  });

  it('takes a usage sample of the first millisecond', async () => {
    const first = usageRow({ time_ms: 0 });
    const second = usageRow({ name: 'p1', time_ms: 1 });
    await insertUsage(first);
    await insertUsage(second);
    expect((await capture()).usage).toEqual([usageRow({ name: 'checkout-1', time_ms: 0 }), second]);
  });

  it('a part that cannot be read is a gap naming why, and the others are taken', async () => {
    await insertChange(changeRow({ id: 1 }));
    await insertKept(keptLogRow({ id: 1, restart_count: 1 }));
    app.run('DROP TABLE usage_samples');
    const got = await capture();
    expect(got.changes).toHaveLength(1);
    expect(got.keptLogs).toHaveLength(1);
    expect(got.gaps).toEqual([
      { part: 'usage', reason: expect.stringMatching(/no such table: usage_samples/) },
    ]);
  });

  it('ends when the capture is cancelled', async () => {
    for (let id = 1; id <= BATCH + 1; id++) await insertChange(changeRow({ id }));
    const stop = new AbortController();
    stop.abort(new Error('cancelled'));
    await expect(capture({ signal: stop.signal })).rejects.toThrow('cancelled');
  });
});

describe('leftOutGap', () => {
  const limits = { rows: 10, totalBytes: 2 * 2 ** 20 };
  it('says nothing when nothing was left out, and each reason that applies in order', () => {
    expect(leftOutGap('changes', 'changes', { forbidden: 0, tooLarge: 0, older: 0 }, limits)).toBeUndefined();
    expect(leftOutGap('usage', 'usage samples', { forbidden: 2, tooLarge: 0, older: 0 }, limits)).toEqual({
      part: 'usage',
      reason: 'forbidden: 2 usage samples the taker cannot read were left out',
    });
    expect(leftOutGap('keptLogs', 'kept logs', { forbidden: 1, tooLarge: 1, older: 3 }, limits)).toEqual({
      part: 'keptLogs',
      reason:
        'forbidden: 1 kept logs the taker cannot read were left out; 1 kept logs larger than a snapshot allows were left out; the 3 oldest kept logs were left out (a snapshot holds at most 10 kept logs and 2 MiB of them)',
    });
  });
});

describe('under --authorize rbac', () => {
  // Where the taker may read each part, as the cluster's RBAC answers it (capture-scope.ts); the
  // answers against a real apiserver's RBAC are snapshot-recorded-rbac.it.test.ts's.
  const asked: string[] = [];
  const ruled = (rules: Record<string, readonly string[] | 'all'>): CaptureSource =>
    ({
      clusterId: CLUSTER,
      recorded: { db: backend },
      async scope(attrs: { verb: string; group: string; resource: string; subresource?: string }) {
        const key = `${attrs.verb} ${attrs.group}/${attrs.resource}${attrs.subresource ? `/${attrs.subresource}` : ''}`;
        asked.push(key);
        const rule = rules[key] ?? [];
        return rule === 'all' ? undefined : { allowed: new Set(rule), denied: ['elsewhere'] };
      },
      async discovery() {
        return {
          gaps: [],
          kinds: [
            { resourceType: 'deployment', group: 'apps', plural: 'deployments' },
            { resourceType: 'node', group: '', plural: 'nodes' },
          ],
        };
      },
    }) as unknown as CaptureSource;

  beforeEach(() => {
    asked.length = 0;
  });

  it('asks each permission once, and takes only where it is allowed', async () => {
    await insertChange(changeRow({ id: 1, namespace: 'shop' }));
    await insertChange(changeRow({ id: 2, namespace: 'kube-system' }));
    await insertChange(changeRow({ id: 3, namespace: 'shop', resource_type: 'widget.example.dev' }));
    await insertChange(changeRow({ id: 4, namespace: '', resource_type: 'node', kind: 'Node', name: 'n1' }));
    await insertUsage(usageRow({ namespace: 'shop' }));
    await insertUsage(usageRow({ namespace: 'kube-system' }));
    await insertUsage(usageRow({ subject: 'node', namespace: '', name: 'n1' }));
    await insertKept(keptLogRow({ id: 1, namespace: 'shop' }));
    await insertKept(keptLogRow({ id: 2, namespace: 'kube-system' }));
    const got = await capture({
      source: ruled({
        'list apps/deployments': ['shop'],
        'list /pods': ['shop'],
        'get /pods/log': ['kube-system'],
      }),
    });
    expect(got.changes.map((c) => c.id)).toEqual([1]);
    expect(got.usage.map((u) => u.namespace)).toEqual(['shop']);
    expect(got.keptLogs.map((k) => k.id)).toEqual([2]);
    expect(got.gaps).toEqual([
      { part: 'changes', reason: 'forbidden: 3 changes the taker cannot read were left out' },
      { part: 'usage', reason: 'forbidden: 2 usage samples the taker cannot read were left out' },
      { part: 'keptLogs', reason: 'forbidden: 1 kept logs the taker cannot read were left out' },
    ]);
    expect([...asked].sort()).toEqual(
      ['get /pods/log', 'list /nodes', 'list /pods', 'list apps/deployments'].sort(),
    );
  });

  it('takes node usage and cluster-scoped changes with the permission cluster-wide', async () => {
    await insertChange(changeRow({ id: 4, namespace: '', resource_type: 'node', kind: 'Node', name: 'n1' }));
    await insertUsage(usageRow({ subject: 'node', namespace: '', name: 'n1' }));
    await insertUsage(usageRow({ namespace: 'shop' }));
    const got = await capture({ source: ruled({ 'list /nodes': 'all', 'list /pods': [] }) });
    expect(got.changes.map((c) => c.id)).toEqual([4]);
    expect(got.usage.map((u) => u.subject)).toEqual(['node']);
    expect(got.gaps).toEqual([
      { part: 'usage', reason: 'forbidden: 1 usage samples the taker cannot read were left out' },
    ]);
  });
});

describe.skipIf(postgresSkipReason)('on PostgreSQL', () => {
  let pg: TestPostgres | undefined;
  let pgBackend: StorageBackend | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
  });
  beforeEach(async () => {
    pgBackend = await openPostgresBackend(await pg!.createDatabase(), silentLogger(), { max: 2 });
    backend = pgBackend;
  });
  afterEach(async () => {
    await pgBackend?.close();
  });

  it('takes the newest rows up to the start, as they were, page after page, within the bounds', async () => {
    const n = BATCH + 5;
    const rows = Array.from({ length: n }, (_, i) =>
      changeRow({ id: n - i, time_ms: T0 + Math.floor(i / 3), object: i === 0 ? '{"metadata":{}}' : null }),
    );
    for (const r of [...rows].reverse()) await insertChange(r);
    await insertChange(changeRow({ id: n + 1, time_ms: T0 + 60 * MIN + 1 }));
    await insertChange(changeRow({ id: n + 2 }), 'other');
    const samples = [0, 1, 2, 2, 3].map((m, i) => usageRow({ name: `p${i}`, time_ms: T0 + m * MIN }));
    for (const u of samples) await insertUsage(u);
    for (let id = 1; id <= 5; id++)
      await insertKept(
        keptLogRow({ id, restart_count: id, kept_at: T0 + id, exit_code: id === 1 ? null : 2 }),
      );
    const all = await capture();
    expect(all.changes).toEqual([...rows].sort((a, b) => a.id - b.id));
    expect(all.usage).toEqual(samples);
    expect(all.keptLogs.map((k) => [k.id, k.exit_code])).toEqual([
      [1, null],
      [2, 2],
      [3, 2],
      [4, 2],
      [5, 2],
    ]);
    expect(all.gaps).toEqual([]);
    const bounded = await capture({
      limits: {
        changes: { rows: BATCH + 1, totalBytes: 2 ** 30 },
        usage: { rows: 2, totalBytes: 2 ** 30 },
        keptLogs: { rows: 3, totalBytes: 2 ** 30 },
      },
    });
    const newest = [...rows]
      .sort((a, b) => b.time_ms - a.time_ms || b.id - a.id)
      .slice(0, BATCH + 1)
      .map((r) => r.id)
      .sort((a, b) => a - b);
    expect(bounded.changes.map((r) => r.id)).toEqual(newest);
    expect(bounded.usage.map((u) => u.name)).toEqual(['p4']);
    expect(bounded.keptLogs.map((k) => k.id)).toEqual([3, 4, 5]);
    expect(bounded.gaps.map((g) => g.reason)).toEqual([
      `the 4 oldest changes were left out (a snapshot holds at most ${BATCH + 1} changes and 1024 MiB of them)`,
      'the 4 oldest usage samples were left out (a snapshot holds at most 2 usage samples and 1024 MiB of them)',
      'the 2 oldest kept logs were left out (a snapshot holds at most 3 kept logs and 1024 MiB of them)',
    ]);
  }, 120_000);

  it('reads usage page after page in key order', async () => {
    const n = BATCH + 3;
    for (let i = 0; i < n; i++)
      await insertUsage(usageRow({ name: `p${String(i).padStart(5, '0')}`, time_ms: T0 + (i % 7) }));
    const got = await capture();
    expect(got.usage).toHaveLength(n);
    expect(new Set(got.usage.map((u) => u.name)).size).toBe(n);
    expect(got.gaps).toEqual([]);
  }, 120_000);
});
