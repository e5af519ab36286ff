/**
 * The demo cluster: an in-process Kubernetes API server simulator for demos, tests and
 * benchmarks. Clients reach it only through a kubeconfig, exactly like a real cluster.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildDemo } from './demo-data';
import { kubeconfigYaml } from './kubeconfig';
import { MetricsSource } from './metrics';
import { type Faults, Router } from './server';
import { SimStore } from './store';
import { Ticker } from './ticker';

export { DEMO_NAMESPACES, DEMO_NODES, DEMO_PODS, DEMO_WORKLOADS, type NotablePod } from './demo-data';
export type { EventBump, EventInput } from './events';
export type { Faults } from './server';
export { type Change, SimStore } from './store';
export type { CoreEvent, KubeObject, KubeObjectInput, Pod } from './types';

export interface SimulatorOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  seed?: number;
  /** Interval of simulated activity (logs, restarts, events, metrics); false/undefined = frozen. */
  tickMs?: number | false;
  scale?: { pods?: number; events?: number; nodes?: number; namespaces?: number };
  now?: () => number;
  /** Interval of BOOKMARK events on watches with allowWatchBookmarks (default 15 s). */
  bookmarkMs?: number;
  /** Bearer token the kubeconfig carries and the server requires. */
  token?: string;
}

export interface Simulator {
  url: string;
  kubeconfigYaml(contextName?: string): string;
  store: SimStore;
  faults: Faults;
  /** Advances simulated life by one step (what tickMs does on a timer). */
  tick(): void;
  close(): Promise<void>;
}

export const DEFAULT_SEED = 42;
export const DEFAULT_TOKEN = 'skiff-demo-token';

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const now = opts.now ?? Date.now;
  const seed = opts.seed ?? DEFAULT_SEED;
  const token = opts.token ?? DEFAULT_TOKEN;
  const store = new SimStore(now);
  const demo = buildDemo({ seed, now: now(), ...(opts.scale ? { scale: opts.scale } : {}) });
  store.load(demo.objects);
  store.logs.source = demo.logSource;
  const metrics = new MetricsSource(store, seed);
  const faults: Faults = {
    metricsDown: false,
    metricsMissing: false,
    latencyMs: 0,
    hang: false,
    unauthorized: false,
  };
  const ticker = new Ticker({ store, metrics, crashers: demo.crashers, recurring: demo.recurring });

  const host = opts.host ?? '127.0.0.1';
  let url = '';
  const router = new Router({
    store,
    metrics,
    faults,
    token,
    bookmarkMs: opts.bookmarkMs ?? 15_000,
    serverAddress: () => url.replace(/^https?:\/\//, ''),
  });
  const server: Server = createServer((req, res) => {
    router.handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (opts.tickMs) ticker.start(opts.tickMs);

  let closing: Promise<void> | undefined;
  return {
    url,
    kubeconfigYaml: (contextName) => kubeconfigYaml(url, token, contextName),
    store,
    faults,
    tick: () => ticker.tick(),
    close() {
      closing ??= (async () => {
        ticker.stop();
        router.closeStreams();
        store.logs.closeFollowers();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
