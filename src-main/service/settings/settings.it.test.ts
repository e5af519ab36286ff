import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster, Workspace } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import type { AppSettings } from '../../../src-shared/contract/settings-models';
import { type Stack, startStack } from '../test-support/harness.test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack?.close());

describe('workspaces', () => {
  it('are created, renamed, given clusters and removed, and gate their clusters', async () => {
    const created = await stack.send<Workspace & { clusterIds: string[] }>('POST', '/v1/workspaces', {
      workspaceId: 'team-a',
      name: 'Team A',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ workspaceId: 'team-a', name: 'Team A', clusterIds: [], groups: [] });
    expect((await stack.get<Cluster[]>('/v1/workspaces/team-a/clusters')).body).toEqual([]);
    expect((await stack.get(`/v1/workspaces/team-a/observability/sim-test/kubernetes-events`)).status).toBe(
      404,
    );

    const assigned = await stack.send('PATCH', '/v1/workspaces/team-a', {
      name: 'Team A (prod)',
      clusterIds: ['sim-test'],
    });
    expect(assigned.body).toEqual({
      workspaceId: 'team-a',
      name: 'Team A (prod)',
      clusterIds: ['sim-test'],
      groups: [],
    });
    const clusters = await stack.get<Cluster[]>('/v1/workspaces/team-a/clusters');
    expect(clusters.body.map((c) => [c.clusterId, c.workspaceId])).toEqual([['sim-test', 'team-a']]);
    expect(
      (await stack.get('/v1/workspaces/team-a/observability/sim-test/kubernetes-proxy/node')).status,
    ).toBe(200);

    const names = (await stack.get<Workspace[]>('/v1/workspaces')).body.map((w) => w.name);
    expect(names).toEqual(['Default', 'Team A (prod)']);
    expect((await stack.send('DELETE', '/v1/workspaces/team-a')).status).toBe(200);
    expect((await stack.get('/v1/workspaces/team-a/clusters')).status).toBe(404);
  });

  it('refuse duplicates, unknown clusters and changes to the default workspace', async () => {
    const dup = await stack.send<Problem>('POST', '/v1/workspaces', { workspaceId: 'default', name: 'x' });
    expect([dup.status, dup.body.code]).toEqual([409, 'conflict']);
    const unknown = await stack.send<Problem>('POST', '/v1/workspaces', {
      workspaceId: 'b',
      name: 'B',
      clusterIds: ['nope'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toContain('nope');
    expect((await stack.send('PATCH', '/v1/workspaces/default', { clusterIds: [] })).status).toBe(409);
    expect((await stack.send('DELETE', '/v1/workspaces/default')).status).toBe(409);
    expect((await stack.send('POST', '/v1/workspaces', { workspaceId: 'Bad Id', name: 'x' })).status).toBe(
      400,
    );
  });
});

describe('application settings', () => {
  it('describe web mode and keep kubeconfig and token lifetimes for the next start', async () => {
    const first = await stack.get<AppSettings>('/v1/app/settings');
    expect(first.body.mode).toBe('web');
    expect(first.body.localApi).toMatchObject({ enabled: true, editable: false, url: stack.url });
    expect(first.body.tokenStorage.kind).toBe('browser-memory');
    expect(first.body.tokens).toEqual({
      accessTokenMinutes: 15,
      refreshTokenDays: 14,
      restartRequired: false,
    });

    const next = await stack.send<AppSettings>('PATCH', '/v1/app/settings', {
      tokens: { accessTokenMinutes: 30 },
      kubeconfig: { paths: ['/tmp/a.yaml'] },
    });
    expect(next.status).toBe(200);
    expect(next.body.tokens).toEqual({ accessTokenMinutes: 30, refreshTokenDays: 14, restartRequired: true });
    expect(next.body.kubeconfig).toMatchObject({ paths: ['/tmp/a.yaml'], restartRequired: true });
    expect((await stack.get<AppSettings>('/v1/app/settings')).body.tokens.accessTokenMinutes).toBe(30);
  });

  it('refuse out-of-range lifetimes and switching off the server itself', async () => {
    expect(
      (await stack.send('PATCH', '/v1/app/settings', { tokens: { accessTokenMinutes: 5 } })).status,
    ).toBe(400);
    expect(
      (await stack.send('PATCH', '/v1/app/settings', { tokens: { accessTokenMinutes: 61 } })).status,
    ).toBe(400);
    const off = await stack.send<Problem>('PATCH', '/v1/app/settings', { localApi: { enabled: false } });
    expect([off.status, off.body.code]).toEqual([409, 'conflict']);
  });
});

describe('request bodies', () => {
  it('refuses a body over 1 MiB with 413 and malformed JSON with 400', async () => {
    const big = JSON.stringify({ workspaceId: 'big', name: 'x'.repeat(1024 * 1024 + 10) });
    const res = await stack.send<Problem>('POST', '/v1/workspaces', big);
    expect([res.status, res.body.code]).toEqual([413, 'payload_too_large']);
    const bad = await stack.send<Problem>('POST', '/v1/workspaces', '{"workspaceId": ');
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_json']);
  });
});

describe('guidance', () => {
  it('serves the knowledge base by reason, case-insensitively', async () => {
    const res = await stack.get<{ match: string; meaning: string; causes: string[]; checks: unknown[] }>(
      '/v1/guidance/crashloopbackoff',
    );
    expect(res.status).toBe(200);
    expect(res.body.match).toBe('CrashLoopBackOff');
    expect(res.body.causes.length).toBeGreaterThan(0);
    expect(res.body.checks.length).toBeGreaterThan(0);
    expect((await stack.get('/v1/guidance/NoSuchReason')).status).toBe(404);
    const list = await stack.get<unknown[]>('/v1/guidance?subject=exit-code&limit=1000');
    expect(Number(list.headers.get('x-total'))).toBe(list.body.length);
    expect(list.body.length).toBeGreaterThan(0);
  });
});
