/**
 * A ResourceCache and its informer against the embedded simulator, for the cache and informer
 * tests: a client that records what it asks the cluster, a pod cache of one namespace, and an
 * observer that records what the cache tells it.
 */

import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { liveCollection } from '../clusters/source-live';
import type { BackoffOptions } from '../kube/backoff';
import { KubeClient, type RequestOptions } from '../kube/kube-client';
import { contextsFromYaml } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { Collection } from './collection';
import { compareResources, labelKeys, type ResourceEntry, resourceEntry } from './entries';
import { type CacheObserver, type CacheOptions, ResourceCache } from './resource-cache';

/** Retries come within a tenth of a second: tests wait for recoveries, never for backoff. */
export const FAST_BACKOFF: BackoffOptions = { baseMs: 20, capMs: 100, stableAfterMs: 60_000 };

/** A backoff no test waits for: a retry within a test comes only from a caller waiting, or a bug. */
export const SLOW_BACKOFF: BackoffOptions = { baseMs: 60_000, capMs: 60_000, stableAfterMs: 60_000 };

export interface Asked {
  path: string;
  query: Record<string, string | undefined>;
  watch: boolean;
}

/** The real client, noting each request it is asked to make. */
export class RecordingClient extends KubeClient {
  readonly asked: Asked[] = [];

  override open(path: string, opts: RequestOptions) {
    this.asked.push({ path, query: { ...opts.query }, watch: opts.query?.watch === '1' });
    return super.open(path, opts);
  }

  override getJson<T>(path: string, opts: RequestOptions): Promise<T> {
    this.asked.push({ path, query: { ...opts.query }, watch: false });
    return super.getJson<T>(path, opts);
  }

  get lists(): Asked[] {
    return this.asked.filter((a) => !a.watch);
  }

  get watches(): Asked[] {
    return this.asked.filter((a) => a.watch);
  }
}

export function startSim(bookmarkMs?: number): Promise<Simulator> {
  return startSimulator({
    tickMs: false,
    listOrder: 'scrambled',
    scale: { pods: 20, events: 20 },
    ...(bookmarkMs ? { bookmarkMs } : {}),
  });
}

export function clientOf(sim: Simulator): RecordingClient {
  return new RecordingClient(contextsFromYaml(sim.kubeconfigYaml('cache-test'))[0]!.config, sim.url);
}

export interface SimEnv {
  sim: Simulator;
  client: RecordingClient;
}

/**
 * One simulator and one recording client for a whole test file, started before its first test
 * and closed after its last. Each test still makes its own namespace and pods (`freshNamespace`,
 * `addPod`) inside the test: the simulator is the place, not a fixture of any rule.
 */
export function simPerFile(): SimEnv {
  const env = {} as SimEnv;
  beforeAll(async () => {
    env.sim = await startSim();
    env.client = clientOf(env.sim);
  });
  afterAll(async () => {
    await env.client?.close();
    await env.sim?.close();
  });
  return env;
}

let namespaces = 0;
/** A namespace of the test's own, so no test sees another's pods. */
export function freshNamespace(sim: Simulator, prefix: string): string {
  const name = `${prefix}-${++namespaces}`;
  sim.store.upsert({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return name;
}

export function addPod(sim: Simulator, namespace: string, name: string, labels?: Record<string, string>) {
  return sim.store.upsert({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, ...(labels ? { labels } : {}) },
    spec: { containers: [{ name: 'main', image: 'busybox' }] },
  });
}

export function podCache(
  client: KubeClient,
  namespace: string,
  over: Partial<CacheOptions<ResourceEntry>> = {},
): ResourceCache<ResourceEntry> {
  return new ResourceCache<ResourceEntry>({
    source: liveCollection(client, `/api/v1/namespaces/${namespace}/pods`),
    toEntry: (obj: KubeObject) => resourceEntry(obj, 'v1', 'Pod'),
    fingerprint: (e) => e.json,
    collection: new Collection(compareResources, { label: labelKeys }),
    timeoutMs: 5_000,
    logger: silentLogger(),
    backoff: FAST_BACKOFF,
    pins: { idleMs: 60_000, max: 8 },
    listChunk: 2,
    ...over,
  });
}

export type Told =
  | ['upserted', string, string | undefined]
  | ['removed', string, string | undefined]
  | ['listed', string[]]
  | ['stopped'];

/** An observer that writes down every call: keys, and the previous entry's key when there was one. */
export function recorder<E extends { key: string }>(): CacheObserver<E> & {
  told: Told[];
  lists: () => number;
} {
  const told: Told[] = [];
  return {
    told,
    upserted: (entry, previous) => told.push(['upserted', entry.key, previous?.key]),
    removed: (key, previous) => told.push(['removed', key, previous?.key]),
    listed: (entries) => told.push(['listed', entries.map((e) => e.key)]),
    stopped: () => told.push(['stopped']),
    lists: () => told.filter((t) => t[0] === 'listed').length,
  };
}

/** Polls until `check` holds: watch-driven state arrives a moment after the cluster changes. */
export async function until(check: () => boolean, what: string, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Ends the open watches as `store.endWatches` does, once there is one: a cache's watch opens a
 * moment after its list completed. Returns how many it ended.
 */
export async function endWatches(sim: Simulator, opts: { expired?: boolean } = {}): Promise<number> {
  let ended = 0;
  await until(() => {
    ended = sim.store.endWatches(opts);
    return ended > 0;
  }, 'a watch is open');
  return ended;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The keys a cache serves now, in its order. */
export function keysOf(cache: ResourceCache<ResourceEntry>): string[] {
  return cache.read().view.all.map((e) => e.key);
}
