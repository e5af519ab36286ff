/**
 * `npm run snapshot` as a process, on built JavaScript as `serve` runs: it writes a complete file
 * and exits 0, and bad input is one line on stderr and a non-zero exit.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_TYPES } from '../../../src-shared/kube/kinds';
import { metaOf, readSnapshot } from './snapshot-capture.test-support';

const SCRIPT = join(import.meta.dirname, '../../../scripts/snapshot.mjs');

function snapshot(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

let sim: Simulator;
let dir: string;
let kubeconfig: string;
beforeAll(async () => {
  sim = await startSimulator({ tickMs: false });
  dir = await mkdtemp(join(tmpdir(), 'skiff-snapshot-cli-'));
  kubeconfig = join(dir, 'kubeconfig');
  await writeFile(kubeconfig, sim.kubeconfigYaml('cli-test'));
});
afterAll(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('npm run snapshot', () => {
  it('writes a complete snapshot of the context and exits 0', async () => {
    const out = join(dir, 'cli.skiff');
    const r = await snapshot([
      '--kubeconfig',
      kubeconfig,
      '--context',
      'cli-test',
      '--out',
      out,
      '--logs',
      'failing',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^wrote .*cli\.skiff \([\d,]+ bytes, \d+ parts missing\)\n$/);
    expect(r.stderr).toMatch(/snapshot cli-test: \d+ objects, \d+ events/);
    readSnapshot(out, (db) => {
      expect(metaOf(db)).toMatchObject({
        context: 'cli-test',
        server: sim.url,
        logs: 'failing',
        complete: '1',
      });
      const kinds = db
        .prepare('SELECT DISTINCT kind FROM objects')
        .all()
        .map((r) => r.kind);
      expect(kinds).toEqual(expect.arrayContaining([...RESOURCE_TYPES, 'configmap', 'certificate']));
      expect(db.prepare('SELECT count(*) AS n FROM objects WHERE kind = ?').get('pod')).toEqual({
        n: sim.store.count('pods'),
      });
    });
    // Only the finished file: no temporary name is left beside it.
    expect(readdirSync(dir).filter((f) => f !== 'kubeconfig')).toEqual(['cli.skiff']);
  });

  it('with --kinds takes only the kinds named, resolved as resourceType is', async () => {
    const out = join(dir, 'some.skiff');
    const r = await snapshot([
      '--kubeconfig',
      kubeconfig,
      '--context',
      'cli-test',
      '--out',
      out,
      '--logs',
      'none',
      '--kinds',
      'ConfigMap,certificate.cert-manager.io',
      '--kinds',
      'pod',
    ]);
    expect(r.code, r.stderr).toBe(0);
    readSnapshot(out, (db) => {
      const kinds = db
        .prepare('SELECT DISTINCT kind FROM objects ORDER BY kind')
        .all()
        .map((row) => row.kind);
      expect(kinds).toEqual(['certificate', 'configmap', 'pod']);
    });
  });

  it('refuses --kinds naming what the cluster does not serve in one line, exit 2, writing nothing', async () => {
    for (const [kinds, says] of [
      ['pod,gizmo', /^skiff snapshot: --kinds: unknown resourceType "gizmo"/],
      ['configmaps', /^skiff snapshot: --kinds: .*did you mean configmap\?/],
      ['pod,,service', /^skiff snapshot: --kinds takes kind names separated by commas/],
    ] as const) {
      const out = join(dir, 'refused.skiff');
      const r = await snapshot([
        '--kubeconfig',
        kubeconfig,
        '--context',
        'cli-test',
        '--out',
        out,
        '--kinds',
        kinds,
      ]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.split('\n'), r.stderr).toHaveLength(2);
      expect(r.stderr).toMatch(says);
      expect(readdirSync(dir)).not.toContain('refused.skiff');
    }
  });

  it('says in one line on stderr that a context does not exist, and exits 2 writing nothing', async () => {
    const out = join(dir, 'none.skiff');
    const r = await snapshot(['--kubeconfig', kubeconfig, '--context', 'no-such-context', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `skiff snapshot: no context "no-such-context" in ${kubeconfig} (contexts: cli-test)\n`,
    );
    expect(readdirSync(dir)).not.toContain('none.skiff');
  });

  it('refuses bad options in one line', async () => {
    for (const args of [
      ['--context', 'cli-test', '--logs', 'some'],
      ['--context', 'cli-test', '--log-lines', '-3'],
      ['--wat'],
    ]) {
      const r = await snapshot(['--kubeconfig', kubeconfig, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')).toHaveLength(2);
      expect(r.stderr).toMatch(/^skiff snapshot: /);
    }
  });
});
