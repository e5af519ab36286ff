/**
 * The capture job registry's rules (snapshots/jobs.ts) over real HTTP: at most two captures at
 * once (429), one per cluster (409 naming the running one), jobs visible only to members of the
 * job's workspace (404 otherwise), finished jobs forgotten with their files after their hour, and
 * close removing every file of the run.
 *
 * Captures are held running by a gate in front of the simulator that accepts connections and
 * forwards none until released, so "running" lasts exactly as long as a test wants, with no
 * timing in it. Three kubeconfig contexts name the same simulator: three clusters. The service's
 * clock is injected, so a job's hour passes when the test says.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Problem } from '../../../src-shared/contract/problem';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import { createService, type Service } from '../index';
import { loadContexts } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { checkAnswer } from '../test-support/contract-check.test-support';
import { eventually } from '../test-support/eventually.test-support';
import { type LoggedIn, login, TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';

const HOUR = 60 * 60_000;
const CLUSTERS = ['alpha', 'bravo', 'charlie'] as const;

/**
 * A TCP gate: while held, nothing a client sends reaches the simulator (new connections and open
 * keep-alive ones alike); release() sends what waited and lets everything through.
 */
interface Gate {
  port: number;
  release(): void;
  hold(): void;
  close(): Promise<void>;
}

async function startGate(targetPort: number): Promise<Gate> {
  let held = true;
  const waiting: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server: Server = createServer((client) => {
    track(client);
    const upstream = createConnection(targetPort, '127.0.0.1');
    track(upstream);
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      if (held) waiting.push(() => upstream.write(chunk));
      else upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    release() {
      held = false;
      for (const send of waiting.splice(0)) send();
    },
    hold() {
      held = true;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let dir: string;
let sim: Simulator;
let gate: Gate;
let service: Service;
let serviceClosed = false;
let url: string;
let clock = Date.parse('2026-06-01T09:00:00Z');
let admin: LoggedIn;

interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

async function call<T>(who: LoggedIn, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const res = await fetch(url + path, {
    method,
    headers: {
      ...who.headers,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  const parsed = (contentType.includes('json') && text !== '' ? JSON.parse(text) : text) as T;
  checkAnswer(method, path, res.status, contentType, parsed);
  return { status: res.status, headers: res.headers, body: parsed };
}

const capture = (workspaceId: string, clusterId: string) =>
  call<SnapshotJob | Problem>(
    admin,
    'POST',
    `/v1/workspaces/${workspaceId}/clusters/${clusterId}/snapshots`,
    {
      logs: 'none',
    },
  );

async function started(workspaceId: string, clusterId: string): Promise<SnapshotJob> {
  const res = await capture(workspaceId, clusterId);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const job = res.body as SnapshotJob;
  expect(job.status).toBe('running');
  return job;
}

const finished = (snapshotId: string) =>
  eventually(async () => {
    const res = await call<SnapshotJob>(admin, 'GET', `/v1/snapshots/${snapshotId}`);
    expect(res.status).toBe(200);
    expect(res.body.status).not.toBe('running');
    return res.body;
  }, 15_000);

const snapshotFiles = () => {
  const folder = join(dir, 'data', 'snapshots');
  return existsSync(folder) ? readdirSync(folder).sort() : [];
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-jobs-'));
  sim = await startSimulator({ tickMs: false });
  gate = await startGate(Number(new URL(sim.url).port));
  const gated = `${new URL(sim.url).protocol}//127.0.0.1:${gate.port}`;
  const docs = CLUSTERS.map((c) => parse(sim.kubeconfigYaml(c)) as Record<string, unknown[]>);
  const pick = (k: string) => docs.flatMap((d) => d[k] ?? []);
  const kubeconfig = stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: pick('clusters'),
    users: pick('users'),
    contexts: pick('contexts'),
    'current-context': CLUSTERS[0],
  }).replaceAll(sim.url, gated);
  const kubeconfigPath = join(dir, 'kubeconfig');
  await writeFile(kubeconfigPath, kubeconfig);
  service = createService({
    contexts: loadContexts([kubeconfigPath]),
    dataDir: join(dir, 'data'),
    logger: silentLogger(),
    adminPassword: TEST_ADMIN_PASSWORD,
    // Long enough that a held request never times out while a test holds it.
    timeoutMs: 120_000,
    now: () => clock,
  });
  url = (await service.listen(0, '127.0.0.1')).url;
  admin = await login(url);
});

afterAll(async () => {
  gate?.release();
  if (service && !serviceClosed) await service.close();
  await gate?.close();
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the capture job registry', () => {
  let alpha: SnapshotJob;
  let bravo: SnapshotJob;
  let charlie: SnapshotJob;
  let member: LoggedIn;

  it('a second capture of a cluster whose capture runs gets 409 naming the running snapshotId', async () => {
    // The gate holds: the capture waits for its first lists.
    alpha = await started('default', 'alpha');
    const again = await capture('default', 'alpha');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', snapshotId: alpha.snapshotId });
    expect((again.body as Problem).detail).toContain(alpha.snapshotId);
    expect(again.headers.get('location')).toBe(`/v1/snapshots/${alpha.snapshotId}`);
    // The refused request started nothing: the first job is the one still running.
    const job = await call<SnapshotJob>(admin, 'GET', `/v1/snapshots/${alpha.snapshotId}`);
    expect(job.body.status).toBe('running');
  });

  it('at most two captures run at once: a third cluster gets 429 rate_limited with Retry-After', async () => {
    // bravo in a workspace of its own, for the membership rule below.
    const ws = await call(admin, 'POST', '/v1/workspaces', {
      workspaceId: 'team-b',
      name: 'Team B',
      clusterIds: ['bravo'],
    });
    expect(ws.status).toBe(201);
    bravo = await started('team-b', 'bravo');
    const third = await capture('default', 'charlie');
    expect(third.status).toBe(429);
    expect(third.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(third.body).toMatchObject({
      code: 'rate_limited',
      status: 429,
      detail: '2 snapshots are being taken, the most at once; try again when one is done',
    });
    expect(third.headers.get('retry-after')).toBe('10');
  });

  it('a member of another workspace gets 404 snapshot_not_found for a job, as for one that does not exist', async () => {
    const created = await call(admin, 'POST', '/v1/auth/accounts', {
      username: 'bea',
      password: 'bea-password-1',
      workspaces: ['team-b'],
    });
    expect(created.status).toBe(201);
    member = await login(url, 'bea', 'bea-password-1');
    for (const path of [`/v1/snapshots/${alpha.snapshotId}`, `/v1/snapshots/${alpha.snapshotId}/file`]) {
      const res = await call<Problem>(member, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ code: 'snapshot_not_found' });
      const unknown = await call<Problem>(member, 'GET', path.replace(alpha.snapshotId, 'snap-00000000'));
      expect(unknown.status).toBe(404);
      expect(res.body.detail).toBe(unknown.body.detail.replace('snap-00000000', alpha.snapshotId));
    }
    // The job of a cluster of their own workspace they do see.
    const own = await call<SnapshotJob>(member, 'GET', `/v1/snapshots/${bravo.snapshotId}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      snapshotId: bravo.snapshotId,
      workspaceId: 'team-b',
      clusterId: 'bravo',
    });
  });

  it('a slot frees when a capture ends: the third cluster starts then', async () => {
    gate.release();
    expect((await finished(alpha.snapshotId)).status).toBe('done');
    expect((await finished(bravo.snapshotId)).status).toBe('done');
    charlie = await started('default', 'charlie');
    expect((await finished(charlie.snapshotId)).status).toBe('done');
    expect(snapshotFiles()).toEqual(
      [alpha, bravo, charlie].map((j) => `capture-${j.snapshotId}.skiff`).sort(),
    );
  });

  it('finished jobs are forgotten an hour after they end, their files removed', async () => {
    const ended = Date.parse((await finished(alpha.snapshotId)).finishedAt!);
    // Access tokens last 15 minutes: each jump of the clock needs a fresh login.
    clock = ended + HOUR - 60_000;
    admin = await login(url);
    for (const job of [alpha, bravo, charlie]) {
      expect((await call(admin, 'GET', `/v1/snapshots/${job.snapshotId}`)).status).toBe(200);
    }
    expect(snapshotFiles()).toHaveLength(3);
    clock = ended + HOUR + 60_000;
    admin = await login(url);
    for (const job of [alpha, bravo, charlie]) {
      for (const path of [`/v1/snapshots/${job.snapshotId}`, `/v1/snapshots/${job.snapshotId}/file`]) {
        const res = await call<Problem>(admin, 'GET', path);
        expect(res.status, path).toBe(404);
        expect(res.body).toMatchObject({ code: 'snapshot_not_found' });
      }
    }
    expect(snapshotFiles()).toEqual([]);
  });

  it('close stops a running capture and removes every file of this run', async () => {
    const done = await started('default', 'alpha');
    expect((await finished(done.snapshotId)).status).toBe('done');
    gate.hold();
    // Its caches listed before, but the metrics it reads next wait at the gate.
    const running = await started('default', 'charlie');
    const held = await call<SnapshotJob>(admin, 'GET', `/v1/snapshots/${running.snapshotId}`);
    expect(held.body.status).toBe('running');
    // Its temporary file is being written: what it took so far is in it.
    await eventually(async () =>
      expect(snapshotFiles()).toContain(`capture-${running.snapshotId}.skiff.partial`),
    );
    expect(snapshotFiles()).toContain(`capture-${done.snapshotId}.skiff`);
    serviceClosed = true;
    await service.close();
    expect(snapshotFiles()).toEqual([]);
  });
});
