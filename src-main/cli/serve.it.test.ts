import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceArgs } from '../../scripts/serve.mjs';
import type { Cluster } from '../../src-shared/contract/models';
import { checkedBody } from '../service/test-support/contract-check.test-support';
import { login, TEST_ADMIN_PASSWORD } from '../service/test-support/login.test-support';

interface Running {
  url: string;
  stop(signal: NodeJS.Signals): Promise<number | null>;
  stderr: () => string;
}

/** Starts `serve` exactly as `npm run serve -- …` does and waits for its one ready line. */
function serve(args: string[], env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(process.execPath, serviceArgs(args), {
    env: { ...process.env, SKIFF_LOG_LEVEL: 'warn', SKIFF_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (!m) return reject(new Error(`unexpected first line: ${line}`));
      resolve({
        url: m[1]!,
        stderr: () => err,
        stop: (signal) =>
          new Promise((done) => {
            child.once('exit', (code) => done(code));
            child.kill(signal);
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

let sim: Simulator;
let dir: string;
beforeAll(async () => {
  sim = await startSimulator({ tickMs: false });
  dir = await mkdtemp(join(tmpdir(), 'skiff-cli-'));
  await writeFile(join(dir, 'a.yaml'), sim.kubeconfigYaml('Team A/prod'));
  await writeFile(join(dir, 'b.yaml'), sim.kubeconfigYaml('kind-dev'));
});
afterAll(async () => {
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

const clusterIds = async (url: string) => {
  const { headers } = await login(url);
  const path = '/v1/workspaces/default/clusters';
  const res = await fetch(url + path, { headers });
  const body = checkedBody<Cluster[]>('GET', path, res, await res.text());
  return body.map((c) => `${c.clusterId}:${c.context}:${c.status}`).sort();
};

describe('npm run serve', () => {
  it('prints exactly one ready line, serves repeatable --kubeconfig files and stops cleanly on SIGTERM', async () => {
    const run = await serve(
      [
        '--port',
        '0',
        '--kubeconfig',
        join(dir, 'a.yaml'),
        '--kubeconfig',
        join(dir, 'b.yaml'),
        '--data-dir',
        join(dir, 'd1'),
      ],
      {},
    );
    expect(await clusterIds(run.url)).toEqual([
      'kind-dev:kind-dev:connected',
      'team-a-prod:Team A/prod:connected',
    ]);
    expect(await run.stop('SIGTERM')).toBe(0);
  });

  it('merges $KUBECONFIG like kubectl and adds the demo cluster with --demo; SIGINT stops it', async () => {
    const run = await serve(['--port', '0', '--data-dir', join(dir, 'd2'), '--demo'], {
      KUBECONFIG: `${join(dir, 'a.yaml')}:${join(dir, 'missing.yaml')}:${join(dir, 'b.yaml')}`,
    });
    expect(await clusterIds(run.url)).toEqual([
      'demo:demo:connected',
      'kind-dev:kind-dev:connected',
      'team-a-prod:Team A/prod:connected',
    ]);
    expect(await run.stop('SIGINT')).toBe(0);
  });

  it('serves the embedded demo cluster when no kubeconfig exists', async () => {
    const run = await serve(['--port', '0', '--data-dir', join(dir, 'd3')], {
      KUBECONFIG: '',
      HOME: join(dir, 'empty-home'),
    });
    expect(await clusterIds(run.url)).toEqual(['demo:demo:connected']);
    expect(await run.stop('SIGTERM')).toBe(0);
  });

  it('refuses bad arguments with a usage line and exit code 2', async () => {
    await expect(serve(['--port', 'abc'], {})).rejects.toThrow(/exited with 2.*--port must be/s);
    await expect(serve(['--bogus'], {})).rejects.toThrow(/exited with 2/);
    await expect(serve(['--kubeconfig', join(dir, 'missing.yaml')], {})).rejects.toThrow(
      /exited with 2.*--kubeconfig .*missing\.yaml: no such file/s,
    );
  });

  it('--help and -h print the usage to stdout and exit 0 without starting (no port, no data dir)', async () => {
    for (const flag of ['--help', '-h']) {
      const child = spawn(process.execPath, serviceArgs(['--port', 'abc', flag]), {
        env: { ...process.env, SKIFF_LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
      });
      const code = await new Promise<number | null>((done) => child.once('exit', done));
      expect({ code, err }).toEqual({ code: 0, err: '' });
      expect(out).toMatch(/^usage: npm run serve -- \[--host 127\.0\.0\.1\] \[--port 7733\]/);
      expect(out).toContain('--demo-kubeconfig FILE');
      expect(out).not.toContain('listening on');
    }
  });
});
