/**
 * Under `--authorize rbac` a capture takes of what Skiff recorded only what its taker may read, as
 * the API would let them read it (issue 27 §5, capture-recorded.ts), against the simulator's RBAC
 * and its demo team: "alice" (skiff:alice, bound in `shop` only, an administrator of Skiff so she
 * may capture) gets shop's changes, pod usage and kept logs; nodes' changes and usage (cluster
 * scope), other namespaces' rows and a kind the cluster does not serve are left out, one gap per
 * part saying how many. The admin (bound cluster-wide) is the control.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TEAM } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import { CLUSTER_ID, type Stack, startStack } from '../test-support/harness.test-support';
import { login } from '../test-support/login.test-support';
import { download, finished, gapsOf, readSnapshot, SNAPSHOTS } from './snapshot-capture.test-support';
import { RECORDERS_OFF } from './snapshot-recorded.test-support';

const SHOP = DEMO_TEAM.namespace;
let stack: Stack;
let alice: Record<string, string>;
let dir: string;

async function seed(): Promise<void> {
  const db = stack.service.recorded.deps.backend;
  const now = Date.now() - 60_000;
  const changes: Array<[string, string, string, string]> = [
    ['deployment', 'Deployment', SHOP, 'checkout'],
    ['deployment', 'Deployment', 'kube-system', 'coredns'],
    ['node', 'Node', '', 'node-1'],
    ['widget.example.dev', 'Widget', SHOP, 'w'],
  ];
  for (const [type, kind, namespace, name] of changes)
    await db.run(
      `INSERT INTO change_history (cluster_id, time_ms, resource_type, kind, namespace, name, uid, change,
         resource_version, patch, summary, object, recorded_at)
       VALUES ($cluster, $now, $type, $kind, $namespace, $name, 'u', 'updated', '2', '[]', 'changed', NULL, $now)`,
      { cluster: CLUSTER_ID, now, type, kind, namespace, name },
    );
  const usage: Array<[string, string, string]> = [
    ['pod', SHOP, 'web-1'],
    ['pod', 'kube-system', 'dns-1'],
    ['node', '', 'node-1'],
  ];
  for (const [subject, namespace, name] of usage)
    await db.run(
      `INSERT INTO usage_samples (cluster_id, subject, namespace, name, time_ms, resolution_ms, containers)
       VALUES ($cluster, $subject, $namespace, $name, $now, 30000, '{}')`,
      { cluster: CLUSTER_ID, subject, namespace, name, now },
    );
  for (const namespace of [SHOP, 'kube-system'])
    await db.run(
      `INSERT INTO kept_logs (cluster_id, namespace, pod, pod_uid, container, restart_count, finished_at,
         finished_ms, exit_code, reason, lines, line_count, bytes, kept_at)
       VALUES ($cluster, $namespace, 'p', 'u', 'app', 0, NULL, $now, 1, 'Error', 'boom', 1, 4, $now)`,
      { cluster: CLUSTER_ID, namespace, now },
    );
}

beforeAll(async () => {
  // Only the rows seeded here: the recorders themselves are off (theirs to test).
  stack = await startStack({ service: { authorize: {}, ...RECORDERS_OFF } });
  dir = await mkdtemp(join(tmpdir(), 'skiff-recorded-rbac-'));
  const created = await stack.send('POST', '/v1/auth/accounts', {
    username: 'alice',
    password: 'alice-password-0123',
    role: 'admin',
    workspaces: ['default'],
  });
  expect(created.status).toBe(201);
  alice = (await login(stack.url, 'alice', 'alice-password-0123')).headers;
  await seed();
}, 60_000);
afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function captureAs(headers: Record<string, string> | undefined): Promise<string> {
  const res = await stack.send<SnapshotJob>('POST', SNAPSHOTS, { logs: 'none' }, headers);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const job = await finished(stack, res.body.snapshotId, 60_000);
  expect(job.status, JSON.stringify(job)).toBe('done');
  return (await download(stack, job.snapshotId, dir)).path;
}

const rowsOf = (path: string) =>
  readSnapshot(path, (db) => ({
    changes: db.prepare('SELECT namespace, name FROM change_history ORDER BY namespace, name').all(),
    usage: db.prepare('SELECT subject, namespace, name FROM usage_samples').all(),
    keptLogs: db.prepare('SELECT namespace FROM kept_logs').all(),
    gaps: gapsOf(db).filter((g) => ['changes', 'usage', 'keptLogs'].includes(g.part)),
  }));

describe('a capture of recorded data under --authorize rbac', () => {
  it("takes only shop's changes, pod usage and kept logs for a taker bound in shop, the rest a forbidden gap per part", async () => {
    const got = rowsOf(await captureAs(alice));
    expect(got.changes).toEqual([{ namespace: SHOP, name: 'checkout' }]);
    expect(got.usage).toEqual([{ subject: 'pod', namespace: SHOP, name: 'web-1' }]);
    expect(got.keptLogs).toEqual([{ namespace: SHOP }]);
    expect(got.gaps).toEqual([
      { part: 'changes', target: null, reason: 'forbidden: 3 changes the taker cannot read were left out' },
      {
        part: 'usage',
        target: null,
        reason: 'forbidden: 2 usage samples the taker cannot read were left out',
      },
      {
        part: 'keptLogs',
        target: null,
        reason: 'forbidden: 1 kept logs the taker cannot read were left out',
      },
    ]);
  }, 90_000);

  it('takes everything for a taker bound cluster-wide, but a kind the cluster does not serve, which cannot be asked about', async () => {
    const got = rowsOf(await captureAs(undefined));
    expect(got.changes).toEqual([
      { namespace: '', name: 'node-1' },
      { namespace: 'kube-system', name: 'coredns' },
      { namespace: SHOP, name: 'checkout' },
    ]);
    expect(got.usage).toHaveLength(3);
    expect(got.keptLogs).toHaveLength(2);
    expect(got.gaps).toEqual([
      { part: 'changes', target: null, reason: 'forbidden: 1 changes the taker cannot read were left out' },
    ]);
  }, 90_000);
});
