/**
 * Who may take a snapshot (issue 22 §6): administrators, with an access token. A capture reads
 * everything of a cluster at once, every container's log included, writes it to the service's
 * disk and holds one of its two capture slots: an operator's act. A member is refused with 403
 * admin_required, an API key (never an administrator's credential) with 403 api_key_not_allowed,
 * before anything is read from the cluster. Reading a job and its file is unchanged: whoever can
 * see the cluster.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import { checkAnswer } from '../test-support/contract-check.test-support';
import { eventually } from '../test-support/eventually.test-support';
import { CLUSTER_ID, type Stack, startStack } from '../test-support/harness.test-support';
import { type LoggedIn, login } from '../test-support/login.test-support';

let stack: Stack;
let member: LoggedIn;

const CAPTURE = `/v1/workspaces/default/clusters/${CLUSTER_ID}/snapshots`;

async function apiKeyOf(who: Record<string, string>): Promise<string> {
  const created = await stack.send<{ key: string }>('POST', '/v1/auth/api-keys', { name: 'script' }, who);
  expect(created.status).toBe(201);
  return created.body.key;
}

/** A capture request with exactly these credentials (the harness would add the admin's token). */
async function capture(credentials: Record<string, string>) {
  const res = await fetch(stack.url + CAPTURE, {
    method: 'POST',
    headers: { ...credentials, 'content-type': 'application/json' },
    body: JSON.stringify({ logs: 'none' }),
  });
  const contentType = res.headers.get('content-type') ?? '';
  const body = (await res.json()) as SnapshotJob | Problem;
  checkAnswer('POST', CAPTURE, res.status, contentType, body);
  return { status: res.status, body };
}

beforeAll(async () => {
  stack = await startStack({ simulator: { scale: { pods: 5 } } });
  const created = await stack.send('POST', '/v1/auth/accounts', {
    username: 'mia',
    password: 'mia-password-1',
    workspaces: ['default'],
  });
  expect(created.status).toBe(201);
  member = await login(stack.url, 'mia', 'mia-password-1');
});
afterAll(async () => stack?.close());

describe('starting a capture', () => {
  it('is refused to a member of the cluster’s workspace: 403 admin_required', async () => {
    // The member reads the cluster, but may not capture it.
    expect((await stack.get(`${stack.cluster}/kubernetes-proxy/pod?limit=1`, member.headers)).status).toBe(
      200,
    );
    const res = await capture(member.headers);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'admin_required',
      detail: 'only an administrator may take snapshots',
    });
  });

  it('is refused to API keys, an administrator’s too, however the key is sent: 403 api_key_not_allowed', async () => {
    const adminKey = await apiKeyOf(stack.session.headers);
    const memberKey = await apiKeyOf(member.headers);
    const keyed: Record<string, string>[] = [
      { 'x-api-key': adminKey },
      { authorization: `Bearer ${adminKey}` },
      { 'x-api-key': memberKey },
    ];
    for (const headers of keyed) {
      const res = await capture(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect((res.body as Problem).code).toBe('api_key_not_allowed');
    }
  });

  it('is an administrator’s, by session; the job is then seen by whoever sees the cluster', async () => {
    const res = await capture(stack.session.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const { snapshotId } = res.body as SnapshotJob;
    await eventually(async () => {
      const job = await stack.get<SnapshotJob>(`/v1/snapshots/${snapshotId}`, member.headers);
      expect(job.status).toBe(200);
      expect(job.body.status).toBe('done');
    });
  });
});
