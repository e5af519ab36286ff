/**
 * `serve` as a pod runs it (issue 25 §3), as its own process: $KUBERNETES_SERVICE_HOST/PORT name
 * an HTTPS simulator with a CA made for the run, and $SKIFF_SERVICE_ACCOUNT_DIR a folder holding
 * the service account's token, ca.crt and namespace, as the kubelet mounts them. In-cluster is on
 * without the flag; the cluster is named by --cluster-name, with a kubeconfig cluster beside it.
 * The token rotates during the test and the simulator then refuses the old one, so a service that
 * did not read the file again would answer 502. SIGTERM with a slow request in flight finishes it
 * and exits 0. Waits are for states (ready line, the simulator having the request), never times.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceArgs } from '../../scripts/serve.mjs';
import type { Cluster } from '../../src-shared/contract/models';
import { checkedBody } from '../service/test-support/contract-check.test-support';
import { type LoggedIn, login, TEST_ADMIN_PASSWORD } from '../service/test-support/login.test-support';

interface Running {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

/** `npm run serve -- …` as a process, resolved at its ready line; rejects with its stderr if it exits first. */
function serve(args: string[], env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(process.execPath, serviceArgs(['--port', '0', ...args]), {
    env: {
      ...process.env,
      SKIFF_LOG_LEVEL: 'warn',
      SKIFF_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      KUBECONFIG: '',
      HOME: join(dir, 'home'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => {
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (!m) return reject(new Error(`unexpected first line: ${line}`));
      resolve({ url: m[1]!, child, exited });
    });
    exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

let dir: string;
let sim: Simulator;
let saDir: string;
let podEnv: NodeJS.ProcessEnv;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-in-cluster-'));
  sim = await startSimulator({ tickMs: false, tls: true, token: 'alpha-sa-token' });
  saDir = join(dir, 'serviceaccount');
  await mkdir(saDir);
  await writeFile(join(saDir, 'token'), 'alpha-sa-token\n');
  await writeFile(join(saDir, 'ca.crt'), sim.pki!.caPem);
  await writeFile(join(saDir, 'namespace'), 'skiff\n');
  // A second cluster from a kubeconfig, beside the pod's own (the same simulator, its own token).
  await writeFile(join(dir, 'other.yaml'), sim.kubeconfigYaml('other', { token: 'other-token' }));
  sim.auth.tokens.add('other-token');
  podEnv = {
    KUBERNETES_SERVICE_HOST: '127.0.0.1',
    KUBERNETES_SERVICE_PORT: new URL(sim.url).port,
    SKIFF_SERVICE_ACCOUNT_DIR: saDir,
  };
});
afterAll(async () => {
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

async function getJson<T>(
  url: string,
  path: string,
  session: LoggedIn,
): Promise<{ status: number; body: T }> {
  const res = await fetch(url + path, { headers: session.headers });
  return { status: res.status, body: checkedBody<T>('GET', path, res, await res.text()) };
}

describe('serve in a pod', () => {
  let run: Running;
  let session: LoggedIn;
  beforeAll(async () => {
    run = await serve(
      [
        '--data-dir',
        join(dir, 'data'),
        '--cluster-name',
        'home',
        '--kubeconfig',
        join(dir, 'other.yaml'),
        // The SIGTERM case knows its slow request reached the cluster by a new connection there;
        // the recorders' own reads (kept logs, usage) would leave idle pooled connections it reuses.
        '--record-changes',
        'off',
      ],
      podEnv,
    );
    session = await login(run.url);
  });
  afterAll(async () => {
    if (run && run.child.exitCode === null) {
      run.child.kill('SIGKILL');
      await run.exited;
    }
  });

  it('connects to its own cluster with the service account, named by --cluster-name, a kubeconfig cluster beside it', async () => {
    const { body } = await getJson<Cluster[]>(run.url, '/v1/workspaces/default/clusters', session);
    expect(body.map((c) => [c.clusterId, c.context, c.server, c.status]).sort()).toEqual([
      ['home', 'home', sim.url, 'connected'],
      ['other', 'other', sim.url, 'connected'],
    ]);
    const pods = await getJson<unknown[]>(
      run.url,
      '/v1/workspaces/default/observability/home/kubernetes-proxy/pod',
      session,
    );
    expect(pods.status).toBe(200);
    expect(pods.body.length).toBeGreaterThan(0);
    expect(sim.auth.seenUsers).toContain('token:alpha-');
  });

  it('reads the token again when it rotates: the old one refused, the new one used', async () => {
    await writeFile(join(saDir, 'token'), 'bravo-sa-token\n');
    sim.auth.tokens.delete('alpha-sa-token');
    sim.auth.tokens.add('bravo-sa-token');
    // A kind not read before: a new request to the cluster, with whatever token the service holds.
    const path = '/v1/workspaces/default/observability/home/kubernetes-proxy/deployment';
    const res = await getJson<unknown[]>(run.url, path, session);
    expect(res.status).toBe(200);
    expect(sim.auth.seenUsers).toContain('token:bravo-');
  });

  it('on SIGTERM finishes a slow request in flight, then exits 0', async () => {
    sim.faults.latencyMs = 1_500;
    try {
      const before = sim.connections().accepted;
      const slow = getJson<unknown[]>(
        run.url,
        '/v1/workspaces/default/observability/home/kubernetes-proxy/service',
        session,
      );
      while (sim.connections().accepted <= before) await new Promise((r) => setTimeout(r, 20));
      run.child.kill('SIGTERM');
      const res = await slow;
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(await run.exited).toBe(0);
    } finally {
      sim.faults.latencyMs = 0;
    }
  });
});

describe('serve --in-cluster where it cannot work', () => {
  it('exits 2 naming what is missing', async () => {
    await expect(serve(['--in-cluster'], { KUBERNETES_SERVICE_HOST: '' })).rejects.toThrow(
      /exited with 2.*--in-cluster: \$KUBERNETES_SERVICE_HOST is not set/s,
    );
    await expect(
      serve(['--in-cluster'], { ...podEnv, SKIFF_SERVICE_ACCOUNT_DIR: join(dir, 'nowhere') }),
    ).rejects.toThrow(/exited with 2.*--in-cluster: the service account's token is not in .*nowhere/s);
  });
});
