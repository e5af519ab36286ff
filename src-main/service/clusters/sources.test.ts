/**
 * loadClusterSources (sources.ts): kubeconfig contexts, and the demo cluster when asked for or
 * when nothing else is there.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TOKEN } from '@skiff/kube-simulator';
import { Agent, fetch } from 'undici';
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

/** A request to the demo with its context's credentials, trusting only the CA its context names. */
async function demoGet(s: ClusterSources, path: string, credentials: 'context' | 'none' = 'context') {
  const { cluster, user } = s.demo!.config;
  const dispatcher = new Agent({ connect: { ca: Buffer.from(cluster.caData ?? '', 'base64').toString() } });
  try {
    const headers: Record<string, string> =
      credentials === 'context' ? { authorization: `Bearer ${user?.token}` } : {};
    const res = await fetch(`${s.demo!.server}${path}`, { dispatcher, headers });
    return { status: res.status, json: () => res.json() };
  } finally {
    await dispatcher.close();
  }
}

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
    const version = await demoGet(s, '/version');
    expect(version.status).toBe(200);
    expect(await version.json()).toHaveProperty('gitVersion');
  });

  it('serves the demo over HTTPS with a CA and a token made for this run, as kind does (kubectl sends no token over http)', async () => {
    const a = await load([], true, [], noEnv());
    const b = await load([], true, [], noEnv());
    for (const s of [a, b]) {
      expect(s.demo?.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(s.demo?.config.cluster.skipTLSVerify).toBeFalsy();
      expect((await demoGet(s, '/api/v1/namespaces')).status).toBe(200);
      expect((await demoGet(s, '/api/v1/namespaces', 'none')).status).toBe(401);
    }
    expect(a.demo?.config.cluster.caData).not.toBe(b.demo?.config.cluster.caData);
    expect(a.demo?.config.user?.token).not.toBe(b.demo?.config.user?.token);
    expect([a.demo?.config.user?.token, b.demo?.config.user?.token]).not.toContain(DEFAULT_TOKEN);
    // A client that does not trust this run's CA is refused before it sends anything.
    await expect(fetch(`${a.demo?.server}/version`)).rejects.toThrow();
  });

  it('serves the demo cluster alone when there is no kubeconfig anywhere', async () => {
    const s = await load([], false, [], noEnv());
    expect(s.paths).toEqual([]);
    expect(s.contexts).toEqual([]);
    expect(s.demo?.context).toBe('demo');
    expect(s.simulator).toBeDefined();
  });
});
