/**
 * Opened snapshots under `--authorize rbac`, over real HTTP (issue 26 §2): a snapshot has no
 * apiserver to ask about what it holds, so it is seen only by the accounts that opened it, and one
 * opened at start (by the operator, through no account) only by Skiff's administrators. The
 * decision is the registry's (clusters/registry.ts), so listing, reading and closing all follow it.
 * Accounts: the test admin (opens the file), alice (a member of the default workspace, not an
 * administrator) and carol (an administrator of Skiff who did not open it).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src-shared/contract/models';
import { SNAPSHOT_MEDIA_TYPE } from '../../../src-shared/contract/snapshot-operations';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { login } from '../test-support/login.test-support';
import { writeSnapshotFixture } from './open-fixture.test-support';
import { captureFixture } from './snapshot-open.test-support';

let stack: Stack;
let dir: string;
let file: string;
let alice: Record<string, string>;
let carol: Record<string, string>;

async function upload(headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.url}/v1/snapshots`, {
    method: 'POST',
    headers: { ...stack.session.headers, ...headers, 'content-type': SNAPSHOT_MEDIA_TYPE },
    body: await readFile(file),
  });
  return { status: res.status, body: (await res.json()) as Cluster };
}

const listed = async (headers?: Record<string, string>) =>
  (await stack.get<Cluster[]>('/v1/workspaces/default/clusters', headers)).body.map((c) => c.clusterId);
const pods = (clusterId: string, headers?: Record<string, string>) =>
  stack.get<{ code?: string }>(
    `/v1/workspaces/default/observability/${clusterId}/kubernetes-proxy/pod?limit=1`,
    headers,
  );

async function account(username: string, role?: 'admin') {
  const password = `${username}-password-0123`;
  const created = await stack.send('POST', '/v1/auth/accounts', {
    username,
    password,
    workspaces: ['default'],
    ...(role ? { role } : {}),
  });
  expect(created.status).toBe(201);
  return (await login(stack.url, username, password)).headers;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-open-rbac-'));
  file = join(dir, 'good.skiff');
  await captureFixture(file);
  stack = await startStack({ service: { authorize: {} } });
  alice = await account('alice');
  carol = await account('carol', 'admin');
}, 60_000);
afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a snapshot opened over the API, under --authorize rbac', () => {
  let clusterId: string;

  beforeAll(async () => {
    const opened = await upload();
    expect(opened.status).toBe(201);
    clusterId = opened.body.clusterId;
  });

  it('is listed and read by the account that opened it', async () => {
    expect(await listed()).toContain(clusterId);
    expect((await pods(clusterId)).status).toBe(200);
  });

  it('does not exist for a member of the workspace who did not open it', async () => {
    expect(await listed(alice)).not.toContain(clusterId);
    const res = await pods(clusterId, alice);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('cluster_not_found');
    // Her live cluster is still there: only the snapshot is hidden.
    expect(await listed(alice)).toContain('sim-test');
  });

  it('does not exist for another administrator of Skiff either, who cannot close it', async () => {
    expect(await listed(carol)).not.toContain(clusterId);
    expect((await pods(clusterId, carol)).status).toBe(404);
    const close = await stack.send(
      'DELETE',
      `/v1/workspaces/default/clusters/${clusterId}`,
      undefined,
      carol,
    );
    expect(close.status).toBe(404);
    expect(await listed()).toContain(clusterId);
  });

  it('is shown to another account that opens the same file, and still not to the others', async () => {
    const again = await upload(carol);
    expect(again.status).toBe(200);
    expect(again.body.clusterId).toBe(clusterId);
    expect(await listed(carol)).toContain(clusterId);
    expect((await pods(clusterId, carol)).status).toBe(200);
    expect(await listed(alice)).not.toContain(clusterId);
  });
});

describe('a snapshot opened at start (serve --snapshot), under --authorize rbac', () => {
  it('is seen by Skiff’s administrators only', async () => {
    const atStart = join(dir, 'at-start.skiff');
    const sim = await startSimulator({ tickMs: false });
    try {
      await writeSnapshotFixture(sim, atStart, { context: 'at-start', takenAt: '2026-04-01T08:00:00Z' });
    } finally {
      await sim.close();
    }
    const { clusterId } = await stack.service.snapshots.open(atStart);
    expect(await listed()).toContain(clusterId);
    expect(await listed(carol)).toContain(clusterId);
    expect((await pods(clusterId, carol)).status).toBe(200);
    expect(await listed(alice)).not.toContain(clusterId);
    expect((await pods(clusterId, alice)).status).toBe(404);
  });
});
