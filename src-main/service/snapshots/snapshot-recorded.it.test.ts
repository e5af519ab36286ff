import { copyFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import { recordedSource } from '../history/source';
import type { Queryable } from '../storage/backend';
import { CLUSTER_ID, type Stack, startStack } from '../test-support/harness.test-support';
import { alterFile, tempFolder, toVersion2 } from './skiff-file.test-support';
import { download, finished, gapsOf, readSnapshot, startCapture } from './snapshot-capture.test-support';
import { RECORDERS_OFF } from './snapshot-recorded.test-support';

/**
 * Snapshots carry what Skiff recorded (issue 27 §5, format version 3), over HTTP against the
 * simulator: rows recorded up to the capture's start are in the file (another cluster's rows and
 * later ones are not), and the opened snapshot answers them through recordedSource, as of its
 * takenAt, under its own cluster id; the usage and kept-logs endpoints of the opened snapshot
 * answer from them. A version-2 file opens with nothing recorded.
 */

let stack: Stack;
let folder: ReturnType<typeof tempFolder>;
beforeAll(async () => {
  stack = await startStack({ service: RECORDERS_OFF });
  folder = tempFolder();
});
afterAll(async () => {
  await stack?.close();
  folder?.remove();
});

const MIN = 60_000;

interface Seeded {
  changes: Array<Record<string, unknown>>;
  usage: Array<Record<string, unknown>>;
  keptLogs: Array<Record<string, unknown>>;
}

/** Rows as the recorders write them, straight into the app's database (the recorders are theirs to test). */
async function seed(db: Queryable, clusterId: string, now: number): Promise<Seeded> {
  const object = JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'checkout', namespace: 'shop', uid: 'uid-checkout', resourceVersion: '10' },
    spec: { template: { spec: { containers: [{ name: 'app', image: 'app:1.4.1' }] } } },
  });
  const change = (over: Record<string, unknown>) => ({
    cluster_id: clusterId,
    resource_type: 'deployment',
    kind: 'Deployment',
    namespace: 'shop',
    name: 'checkout',
    uid: 'uid-checkout',
    object: null,
    ...over,
  });
  const changes = [
    change({
      time_ms: now - 20 * MIN,
      change: 'seen',
      resource_version: '10',
      patch: '[]',
      summary: '',
      object,
    }),
    change({
      time_ms: now - 10 * MIN,
      change: 'updated',
      resource_version: '11',
      patch: JSON.stringify([
        { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'app:1.4.2' },
      ]),
      summary: 'image app: 1.4.1 → 1.4.2',
    }),
  ];
  const later = change({
    time_ms: now + 60 * MIN,
    change: 'updated',
    resource_version: '12',
    patch: '[]',
    summary: 'later',
  });
  const elsewhere = change({
    cluster_id: 'other',
    time_ms: now - 5 * MIN,
    change: 'updated',
    resource_version: '3',
    patch: '[]',
    summary: 'other cluster',
  });
  for (const c of [...changes, later, elsewhere])
    await db.run(
      `INSERT INTO change_history (cluster_id, time_ms, resource_type, kind, namespace, name, uid, change,
         resource_version, patch, summary, object, recorded_at)
       VALUES ($cluster_id, $time_ms, $resource_type, $kind, $namespace, $name, $uid, $change,
         $resource_version, $patch, $summary, $object, $time_ms)`,
      c as Record<string, string | number | null>,
    );
  const usage = [
    {
      cluster_id: clusterId,
      subject: 'pod',
      namespace: 'shop',
      name: 'checkout-1',
      time_ms: now - 5 * MIN,
      resolution_ms: 30_000,
      containers: JSON.stringify({ app: { cpuMillicores: 250, memoryBytes: 134_217_728 } }),
    },
  ];
  for (const u of [...usage, { ...usage[0]!, time_ms: now + 60 * MIN }])
    await db.run(
      `INSERT INTO usage_samples (cluster_id, subject, namespace, name, time_ms, resolution_ms, containers)
       VALUES ($cluster_id, $subject, $namespace, $name, $time_ms, $resolution_ms, $containers)`,
      u,
    );
  const lines = '2026-03-01T11:55:59.000000000Z panic: no config';
  const keptLogs = [
    {
      cluster_id: clusterId,
      namespace: 'shop',
      pod: 'checkout-1',
      pod_uid: 'uid-checkout-1',
      container: 'app',
      restart_count: 0,
      finished_at: new Date(now - 4 * MIN).toISOString(),
      finished_ms: now - 4 * MIN,
      exit_code: 1,
      reason: 'Error',
      lines,
      line_count: 1,
      bytes: Buffer.byteLength(lines),
      kept_at: now - 4 * MIN,
    },
  ];
  for (const k of keptLogs)
    await db.run(
      `INSERT INTO kept_logs (cluster_id, namespace, pod, pod_uid, container, restart_count, finished_at,
         finished_ms, exit_code, reason, lines, line_count, bytes, kept_at)
       VALUES ($cluster_id, $namespace, $pod, $pod_uid, $container, $restart_count, $finished_at,
         $finished_ms, $exit_code, $reason, $lines, $line_count, $bytes, $kept_at)`,
      k,
    );
  return { changes, usage, keptLogs };
}

const withoutCluster = (rows: Array<Record<string, unknown>>) =>
  rows.map(({ cluster_id: _, ...rest }) => rest);

const CHANGE_COLUMNS =
  'time_ms, resource_type, kind, namespace, name, uid, change, resource_version, patch, summary, object';

describe('a snapshot of a recorded cluster', () => {
  let job: SnapshotJob;
  let path: string;
  let seeded: Seeded;

  beforeAll(async () => {
    seeded = await seed(stack.service.recorded.deps.backend, CLUSTER_ID, Date.now());
    job = await finished(stack, (await startCapture(stack, { logs: 'none' })).snapshotId);
    expect(job.status, JSON.stringify(job)).toBe('done');
    path = (await download(stack, job.snapshotId, folder.dir)).path;
  });

  it("holds the cluster's recorded rows up to its start, without cluster_id, and no gap for them", () => {
    readSnapshot(path, (db) => {
      expect(db.prepare(`SELECT ${CHANGE_COLUMNS} FROM change_history ORDER BY id`).all()).toEqual(
        withoutCluster(seeded.changes),
      );
      expect(
        db
          .prepare('SELECT subject, namespace, name, time_ms, resolution_ms, containers FROM usage_samples')
          .all(),
      ).toEqual(withoutCluster(seeded.usage));
      expect(
        db
          .prepare(
            'SELECT namespace, pod, pod_uid, container, restart_count, finished_at, finished_ms, exit_code, reason, lines, line_count, bytes, kept_at FROM kept_logs',
          )
          .all(),
      ).toEqual(withoutCluster(seeded.keptLogs));
      expect(gapsOf(db).filter((g) => ['changes', 'usage', 'keptLogs'].includes(g.part))).toEqual([]);
    });
  });

  it('opened, answers them through recordedSource under its own id, as of takenAt', async () => {
    const opened = await stack.service.snapshots.open(path);
    const cluster = stack.service.registry.allClusters().find((c) => c.clusterId === opened.clusterId);
    expect(cluster?.frozen).toBeDefined();
    const source = await recordedSource(cluster!, stack.service.recorded.deps.backend);
    expect(source).toMatchObject({
      clusterId: opened.clusterId,
      frozen: true,
      asOfMs: Date.parse(job.startedAt),
    });
    expect(source!.db).not.toBe(stack.service.recorded.deps.backend);
    const rows = await source!.db.all(
      `SELECT ${CHANGE_COLUMNS} FROM change_history WHERE cluster_id = $cluster ORDER BY time_ms, id`,
      { cluster: source!.clusterId },
    );
    expect(rows).toEqual(withoutCluster(seeded.changes));
    const usage = await source!.db.all('SELECT name FROM usage_samples WHERE cluster_id = $cluster', {
      cluster: source!.clusterId,
    });
    expect(usage).toEqual([{ name: 'checkout-1' }]);
    const kept = await source!.db.all('SELECT pod, lines FROM kept_logs WHERE cluster_id = $cluster', {
      cluster: source!.clusterId,
    });
    expect(kept).toEqual([{ pod: 'checkout-1', lines: seeded.keptLogs[0]!.lines }]);
    // Nothing of the file reached the app's database.
    const app = await stack.service.recorded.deps.backend.all(
      'SELECT count(*) AS n FROM change_history WHERE cluster_id = $cluster',
      { cluster: opened.clusterId },
    );
    expect(app).toEqual([{ n: 0 }]);
  });

  it("opened, its usage and kept-logs endpoints answer the snapshot's rows", async () => {
    const opened = await stack.service.snapshots.open(path);
    const base = `/v1/workspaces/default/observability/${opened.clusterId}`;
    const since = encodeURIComponent(new Date(Date.parse(job.startedAt) - 60 * MIN).toISOString());
    const usage = await stack.get<{ points: Array<{ time: string; containers: unknown }> }>(
      `${base}/usage/namespaces/shop/pod/checkout-1?since=${since}`,
    );
    expect(usage.status, JSON.stringify(usage.body)).toBe(200);
    expect(usage.body.points).toEqual([
      {
        time: new Date(seeded.usage[0]!.time_ms as number).toISOString(),
        containers: { app: { cpuMillicores: 250, memoryBytes: 134_217_728 } },
      },
    ]);
    const pod = `${base}/kubernetes-proxy/namespaces/shop/pod/checkout-1`;
    const list = await stack.get<Array<Record<string, unknown>>>(`${pod}/kept-logs`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body).toMatchObject([
      { container: 'app', restartCount: 0, exitCode: 1, reason: 'Error', lines: 1 },
    ]);
    const text = await stack.get<string>(`${pod}/kept-logs/app/0`, { accept: 'text/plain' });
    expect(text.status).toBe(200);
    expect(text.body).toContain('panic: no config');
  });

  it('a version-2 file of it still opens, with nothing recorded', async () => {
    const v2 = folder.path('v2.skiff');
    await copyFile(path, v2);
    toVersion2(v2);
    // Another capture as far as the opener knows (a file of the same capture with other content is a conflict).
    const finishedAt = new Date(Date.parse(job.startedAt) + 60 * MIN).toISOString();
    alterFile(v2, "UPDATE meta SET value = ? WHERE key = 'finishedAt'", finishedAt);
    const opened = await stack.service.snapshots.open(v2);
    const cluster = stack.service.registry.allClusters().find((c) => c.clusterId === opened.clusterId);
    expect(await recordedSource(cluster!, stack.service.recorded.deps.backend)).toBeUndefined();
    const base = `/v1/workspaces/default/observability/${opened.clusterId}`;
    const pods = await stack.get<{ items: unknown[] }>(`${base}/kubernetes-proxy/pod`);
    expect(pods.status).toBe(200);
    const kept = await stack.get(`${base}/kubernetes-proxy/namespaces/shop/pod/checkout-1/kept-logs`);
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body).toEqual([]);
  });
});
