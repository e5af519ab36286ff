import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterSources, loadClusterSources } from './sources';

function kubeconfig(context: string, server: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: ${context}-cluster, cluster: {server: '${server}'}}]`,
    `users: [{name: ${context}-user, user: {token: t}}]`,
    `contexts: [{name: ${context}, context: {cluster: ${context}-cluster, user: ${context}-user}}]`,
    `current-context: ${context}`,
    '',
  ].join('\n');
}

let dir: string;
const started: ClusterSources[] = [];
const load = async (...args: Parameters<typeof loadClusterSources>) => {
  const sources = await loadClusterSources(...args);
  started.push(sources);
  return sources;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-sources-'));
  await writeFile(join(dir, 'staging.yaml'), kubeconfig('staging', 'https://staging.example:6443'));
  await writeFile(join(dir, 'prod.yaml'), kubeconfig('prod', 'https://prod.example:6443'));
});

afterAll(async () => {
  await Promise.all(started.map((s) => s.simulator?.close()));
  await rm(dir, { recursive: true, force: true });
});

const noEnv = () => ({ KUBECONFIG: '', HOME: join(dir, 'empty-home') });

describe('loadClusterSources', () => {
  it('reads the named files in order and starts no demo cluster when they hold contexts', async () => {
    const files = [join(dir, 'prod.yaml'), join(dir, 'staging.yaml')];
    const s = await load(files, false, [], noEnv());
    expect(s.paths).toEqual(files);
    expect(s.contexts.map((c) => [c.context, c.server])).toEqual([
      ['prod', 'https://prod.example:6443'],
      ['staging', 'https://staging.example:6443'],
    ]);
    expect(s.demo).toBeUndefined();
    expect(s.simulator).toBeUndefined();
  });

  it('falls back to the paths kept in settings only when neither the command line nor $KUBECONFIG names any', async () => {
    const stored = [join(dir, 'staging.yaml'), join(dir, 'gone.yaml')];
    const fromSettings = await load([], false, stored, noEnv());
    expect(fromSettings.paths).toEqual([join(dir, 'staging.yaml')]);
    const fromEnv = await load([], false, stored, { ...noEnv(), KUBECONFIG: join(dir, 'prod.yaml') });
    expect(fromEnv.contexts.map((c) => c.context)).toEqual(['prod']);
  });

  it('serves the demo cluster beside the kubeconfig contexts when asked for', async () => {
    const s = await load([join(dir, 'staging.yaml')], true, [], noEnv());
    expect(s.contexts.map((c) => c.context)).toEqual(['staging']);
    expect(s.demo?.context).toBe('demo');
    // The demo context points at the simulator this call started, which answers like an apiserver.
    const version = await fetch(`${s.demo?.server}/version`);
    expect(version.status).toBe(200);
    expect(await version.json()).toHaveProperty('gitVersion');
  });

  it('serves the demo cluster alone when there is no kubeconfig anywhere', async () => {
    const s = await load([], false, [], noEnv());
    expect(s.paths).toEqual([]);
    expect(s.contexts).toEqual([]);
    expect(s.demo?.context).toBe('demo');
    expect(s.simulator).toBeDefined();
  });
});
