/**
 * `npm run serve -- --snapshot FILE`, as a process: a bad file is one line on stderr and exit 2; a
 * good one is served with no kubeconfig and no demo cluster (none was asked for), and kubectl's
 * kubeconfig for it is written where --snapshot-kubeconfig says.
 */
import { spawn } from 'node:child_process';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { serviceArgs } from '../../../scripts/serve.mjs';
import type { Cluster } from '../../../src-shared/contract/models';
import { login, TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { SNAPSHOT_SCHEMA_VERSION } from './format';
import { alterMeta } from './open-fixture.test-support';
import { fixtureDirPerFile } from './snapshot-open.test-support';

const fx = fixtureDirPerFile('skiff-open-cli-');

/** No kubeconfig anywhere: an empty $KUBECONFIG and a home without ~/.kube. */
const env = () => ({
  ...process.env,
  SKIFF_LOG_LEVEL: 'warn',
  SKIFF_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
  KUBECONFIG: '',
  HOME: join(fx.dir, 'home'),
});

function run(args: string[]) {
  const child = spawn(
    process.execPath,
    serviceArgs(['--port', '0', '--data-dir', join(fx.dir, 'data'), ...args]),
    {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

describe('serve --snapshot', () => {
  it('stops with one line on stderr and exit code 2 for a file that is not a snapshot', async () => {
    const bad = join(fx.dir, 'notes.skiff');
    await writeFile(bad, 'not a database\n');
    const proc = run(['--snapshot', bad]);
    expect(await proc.exited).toBe(2);
    expect(proc.stderr()).toBe(
      `skiff: --snapshot: ${bad} is not a usable Skiff snapshot: it is not an SQLite database\n`,
    );
  });

  it('says which version it reads for a snapshot from a newer Skiff, and exits 2', async () => {
    const newer = join(fx.dir, 'newer.skiff');
    await copyFile(fx.good, newer);
    alterMeta(newer, 'schemaVersion', '9');
    const proc = run(['--snapshot', newer]);
    expect(await proc.exited).toBe(2);
    const lines = proc.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `newer Skiff \\(snapshot format version 9\\); this Skiff reads versions up to ${SNAPSHOT_SCHEMA_VERSION}:`,
      ),
    );
  });

  it('serves a good snapshot as the only cluster, with no demo cluster, and writes a kubeconfig for it', async () => {
    const kubeconfig = join(fx.dir, 'snapshot.kubeconfig');
    const proc = run(['--snapshot', fx.good, '--snapshot-kubeconfig', kubeconfig]);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: proc.child.stdout }).once('line', (line) => {
          const m = /^listening on (http:\/\/\S+)$/.exec(line);
          if (m) resolve(m[1]!);
          else reject(new Error(line));
        });
        proc.exited.then((code) => reject(new Error(`exited ${code}: ${proc.stderr()}`)));
      });
      const { headers } = await login(url);
      const res = await fetch(`${url}/v1/workspaces/default/clusters`, { headers });
      const clusters = (await res.json()) as Cluster[];
      expect(clusters.map((c) => [c.clusterId, c.status])).toEqual([
        ['prod-eu-snapshot-20260301t120000z', 'snapshot'],
      ]);
      const yaml = await readFile(kubeconfig, 'utf8');
      expect(yaml).toContain('prod-eu-snapshot-20260301t120000z');
      // HTTPS with the CA to trust: kubectl sends no token to an http:// server.
      expect(yaml).toMatch(/server: "?https:\/\/127\.0\.0\.1:\d+/);
      expect(yaml).toMatch(/certificate-authority-data: "?[A-Za-z0-9+/]+=*"?$/m);
    } finally {
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
    }
  });
});
