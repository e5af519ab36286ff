/**
 * DELETE /v1/workspaces/{workspaceId}/clusters/{clusterId} over real HTTP: an opened snapshot is
 * closed and gone everywhere (cluster lists, this session's and a new one's, every workspace that
 * listed it, the saved settings, its endpoints), its file is let go; a live cluster cannot be
 * closed, and closing twice is 404. Every answer is checked against the contract.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src-shared/contract/models';
import { SNAPSHOT_MEDIA_TYPE } from '../../../src-shared/contract/snapshot-operations';
import { CLUSTER_ID, type Stack, startStack } from '../test-support/harness.test-support';
import { login } from '../test-support/login.test-support';
import { fixtureDirPerFile } from './snapshot-open.test-support';

let stack: Stack;
const fx = fixtureDirPerFile('skiff-close-files-');

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

type Problem = { code: string; detail: string };

async function upload(): Promise<Cluster> {
  const res = await fetch(`${stack.url}/v1/snapshots`, {
    method: 'POST',
    headers: { ...stack.session.headers, 'content-type': SNAPSHOT_MEDIA_TYPE },
    body: await readFile(fx.good),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Cluster;
}

const closeIt = (clusterId: string, workspaceId = 'default', headers: Record<string, string> = {}) =>
  stack.send<Cluster & Problem>(
    'DELETE',
    `/v1/workspaces/${workspaceId}/clusters/${clusterId}`,
    undefined,
    headers,
  );

const clusterIds = async (workspaceId = 'default', headers: Record<string, string> = {}) =>
  (await stack.get<Cluster[]>(`/v1/workspaces/${workspaceId}/clusters`, headers)).body.map(
    (c) => c.clusterId,
  );

const uploads = async () => readdir(join(stack.dataDir, 'opened-snapshots')).catch(() => [] as string[]);

/** The files this process holds open (Linux: /proc/self/fd), by path. */
async function openFiles(): Promise<string[]> {
  const fds = await readdir('/proc/self/fd').catch(() => [] as string[]);
  const paths = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return paths.filter(Boolean);
}

describe('closing an opened snapshot', () => {
  it('two closes at once (as the desktop and a browser may send them): one closes it, the other is 404', async () => {
    const snap = await upload();
    const principal = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
    const call = () =>
      stack.service
        .invoke(
          'closeSnapshot',
          { params: { workspaceId: 'default', clusterId: snap.clusterId }, query: {}, body: undefined },
          { principal, client: { via: 'ipc' }, signal: new AbortController().signal },
        )
        .then(
          (reply) => ({ closed: reply.data }),
          (err: unknown) => ({ refused: err }),
        );
    const answers = await Promise.all([call(), call()]);
    const closed = answers.flatMap((a) => ('closed' in a ? [a.closed] : []));
    const refused = answers.flatMap((a) => ('refused' in a ? [a.refused] : []));
    expect(closed).toEqual([expect.objectContaining({ clusterId: snap.clusterId, status: 'snapshot' })]);
    expect(refused).toEqual([expect.objectContaining({ code: 'cluster_not_found', status: 404 })]);
    expect((refused[0] as Error).message).toBe(
      `cluster "${snap.clusterId}" not found in workspace "default"`,
    );
    expect(await clusterIds()).toEqual([CLUSTER_ID]);
  });

  it('takes it out of every list and workspace, its endpoints 404, its upload removed; twice is 404', async () => {
    const snap = await upload();
    const id = snap.clusterId;
    const pods = `/v1/workspaces/default/observability/${id}/kubernetes-proxy/pod?limit=5`;
    expect((await stack.get(pods)).status).toBe(200);
    // A workspace that lists it, saved in the data dir.
    const team = await stack.send('POST', '/v1/workspaces', {
      workspaceId: 'team',
      name: 'Team',
      clusterIds: [CLUSTER_ID, id],
    });
    expect(team.status).toBe(201);
    expect(await clusterIds('team')).toEqual([CLUSTER_ID, id]);
    expect(await uploads()).toHaveLength(1);

    const closed = await closeIt(id, 'team');
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ clusterId: id, workspaceId: 'team', status: 'snapshot' });

    expect(await clusterIds()).toEqual([CLUSTER_ID]);
    expect(await clusterIds('team')).toEqual([CLUSTER_ID]);
    const gone = await stack.get<Problem>(pods);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('cluster_not_found');
    // The upload this service owned is removed; nothing saved names the snapshot any more.
    expect(await uploads()).toEqual([]);
    // (Workspaces live in the database: storage migration 3.)
    const saved = new DatabaseSync(join(stack.dataDir, 'skiff.db'), { readOnly: true });
    try {
      expect(JSON.stringify(saved.prepare('SELECT * FROM workspaces').all())).not.toContain(id);
    } finally {
      saved.close();
    }
    // A new login (a reload in the browser, another person) does not see it either.
    const other = await login(stack.url);
    expect(await clusterIds('default', other.headers)).toEqual([CLUSTER_ID]);

    const again = await closeIt(id);
    expect(again.status).toBe(404);
    expect(again.headers.get('content-type')).toContain('application/problem+json');
    expect(again.body.code).toBe('cluster_not_found');
  });

  it('lets go of a file opened from its path, which can then be opened again as a new snapshot', async () => {
    const snap = await stack.service.snapshots.open(fx.good);
    // The pods list starts reading the file at open; wait until the file is held.
    await expect.poll(async () => (await openFiles()).filter((p) => p === fx.good).length).toBeGreaterThan(0);
    expect((await closeIt(snap.clusterId)).status).toBe(200);
    expect((await openFiles()).filter((p) => p.startsWith(fx.good))).toEqual([]);
    // The file itself is the user's: closing never removes it.
    expect((await readFile(fx.good)).length).toBeGreaterThan(0);

    const reopened = await upload();
    expect(reopened.clusterId).toBe(snap.clusterId);
    expect(await clusterIds()).toEqual([CLUSTER_ID, snap.clusterId]);
    expect((await closeIt(snap.clusterId)).status).toBe(200);
  });

  it('refuses to close a live cluster with 409 conflict, and an unknown one with 404; the cluster stays', async () => {
    const live = await closeIt(CLUSTER_ID);
    expect(live.status).toBe(409);
    expect(live.body.code).toBe('conflict');
    expect(live.body.detail).toContain('only an opened snapshot can be closed');
    const unknown = await closeIt('no-such-cluster');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('cluster_not_found');
    const noWorkspace = await closeIt(CLUSTER_ID, 'no-such-workspace');
    expect(noWorkspace.status).toBe(404);
    expect(noWorkspace.body.code).toBe('workspace_not_found');
    expect(await clusterIds()).toEqual([CLUSTER_ID]);
    expect((await stack.get(`${stack.cluster}/kubernetes-proxy/pod?limit=1`)).status).toBe(200);
  });

  it('is for administrators: a member gets 403 admin_required and the snapshot stays open', async () => {
    const snap = await upload();
    const created = await stack.send('POST', '/v1/auth/accounts', {
      username: 'viewer',
      password: 'viewer-password-1',
      workspaces: ['default'],
    });
    expect(created.status).toBe(201);
    const member = await login(stack.url, 'viewer', 'viewer-password-1');
    const refused = await closeIt(snap.clusterId, 'default', member.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('admin_required');
    expect(refused.body.detail).toBe('only an administrator may close snapshots');
    expect(await clusterIds()).toContain(snap.clusterId);
    expect((await closeIt(snap.clusterId)).status).toBe(200);
  });
});
