/**
 * The package's one entry point: an in-process Kubernetes API server simulator for demos, tests
 * and benchmarks. Clients reach it only through a kubeconfig, exactly like a real cluster. The
 * engine serves what a ContentProvider (content.ts) loads: the demo cluster unless `content` names
 * another. Rules: everything a user of the package needs is exported here, nothing else is
 * reachable (package.json `exports`); the package imports nothing of its host but the selector
 * grammar (biome.json).
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { AccessReviews } from './access-review';
import { SimAuth } from './auth';
import type { ContentProvider } from './content';
import { demoContent } from './demo';
import { expireEvents, startEventTtl } from './event-ttl';
import { type ExecPluginConfig, type KubeconfigUser, kubeconfigYaml } from './kubeconfig';
import type { ListOrder } from './list';
import { type MetricsProvider, MetricsSource } from './metrics';
import { type Faults, Router } from './server';
import { SimStore } from './store';
import { Ticker } from './ticker';
import { createPki, type SimPki } from './tls';

export { AccessReviews, type ReviewRecord } from './access-review';
export type { SimAuth } from './auth';
export { type CapturedContent, type CapturedObject, capturedContent } from './captured';
export type { ContentProvider, LoadedContent } from './content';
export {
  BAD_ROLLOUT,
  badRolloutPodName,
  buildDemo,
  DEMO_NAMESPACES,
  DEMO_NODES,
  DEMO_PODS,
  DEMO_TEAM,
  DEMO_WORKLOADS,
  demoContent,
  type NotablePod,
} from './demo';
// The discovery documents, for tests of a client's discovery reader against the simulator's own.
export { apiGroupList, apiVersions, resourceList } from './discovery';
export { aggregatedCore, aggregatedGroups } from './discovery-aggregated';
export type { EventBump, EventInput } from './events';
export { SimKinds } from './kinds';
export { type ExecPluginConfig, type KubeconfigUser, kubeconfigYaml } from './kubeconfig';
export { type FinishOptions, finishPod } from './pod-finish';
export type { Decision, NonResourceAttributes, ResourceAttributes, UserInfo } from './rbac';
export type { Faults } from './server';
export { type Change, SimStore } from './store';
export { objectKey } from './table';
export { rfc3339 } from './time';
export { type ClientIdentity, createPki, type SimPki } from './tls';
export type { CoreEvent, KubeObject, KubeObjectInput, Pod } from './types';

export interface SimulatorOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  seed?: number;
  /**
   * Interval of simulated activity (logs, restarts, events, metrics); false/undefined = frozen.
   * Content without simulated life (captured content) never ticks.
   */
  tickMs?: number | false;
  /** Size of the default demo content; ignored with `content`. */
  scale?: { pods?: number; events?: number; nodes?: number; namespaces?: number };
  now?: () => number;
  /** Interval of BOOKMARK events on watches with allowWatchBookmarks (default 15 s). */
  bookmarkMs?: number;
  /** Bearer token the kubeconfig carries and the server accepts. */
  token?: string;
  /** More bearer tokens the server accepts (an exec plugin's, say); `auth.tokens` changes them live. */
  tokens?: string[];
  /**
   * Serve HTTPS with a CA of the simulator's own (or the PKI given, so a restarted simulator keeps
   * its CA), accepting client certificates that CA signed. Default plain HTTP (tests); whoever
   * serves kubectl asks for HTTPS, since kubectl sends no bearer token to an http:// server (Skiff's
   * demo and its snapshots' kubeconfig do).
   */
  tls?: boolean | { pki?: SimPki };
  /** Order of list answers (see ListOrder); default `key`, etcd's order. */
  listOrder?: ListOrder;
  /**
   * The apiserver's --event-ttl: events last seen longer ago are deleted (checked every second).
   * Default none: events stay, as the demo data has events hours old.
   */
  eventTtlMs?: number;
  /**
   * Where the cluster comes from (content.ts): default the demo cluster at `scale`;
   * `capturedContent(...)` serves a frozen capture (no demo objects, no ticker, logs and metrics
   * as captured).
   */
  content?: ContentProvider;
  /**
   * Answer aggregated discovery (apidiscovery.k8s.io/v2) on /api and /apis to a client whose Accept
   * asks for it, as every apiserver since 1.30 does. Default true; false makes the simulator an
   * older apiserver, which answers only the legacy documents.
   */
  aggregatedDiscovery?: boolean;
  /**
   * Scenarios of the content (the demo's `bad-rollout`) to run this long after the start, as
   * `runScenario` runs them; a name the content does not have is an error at start.
   */
  scenarios?: { name: string; afterMs: number }[];
}

/** Which credential `kubeconfigYaml` gives the user. */
export interface KubeconfigUserOptions {
  /** Default 'token'. 'client-cert' needs tls. */
  user?: 'token' | 'client-cert' | 'exec';
  /** For 'token': default the simulator's token. */
  token?: string;
  /** For 'exec'. */
  exec?: ExecPluginConfig;
}

export interface Simulator {
  url: string;
  kubeconfigYaml(contextName?: string, opts?: KubeconfigUserOptions): string;
  /** The tokens and users the server accepts. */
  auth: SimAuth;
  /** The PKI the server uses; undefined over plain HTTP. */
  pki: SimPki | undefined;
  /** TCP connections the server accepted since it started, and those open now. */
  connections(): { accepted: number; open: number };
  store: SimStore;
  faults: Faults;
  /**
   * The SubjectAccessReviews the server answered (count, the latest 1000, reset()): how a test
   * tells how many RBAC checks a client made. Failed ones (400, 422, 503) are not counted.
   */
  accessReviews: AccessReviews;
  /** Advances simulated life by one step (what tickMs does on a timer). */
  tick(): void;
  /**
   * Runs a scenario of the content now (the demo's `bad-rollout`: shop/checkout rolled out to an
   * image that crash-loops); a second run changes nothing. Throws for a name the content lacks.
   */
  runScenario(name: string): void;
  /** Deletes the events older than eventTtlMs now (what its timer does); returns how many. */
  expireEvents(): number;
  close(): Promise<void>;
}

export const DEFAULT_SEED = 42;
export const DEFAULT_TOKEN = 'skiff-demo-token';

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const now = opts.now ?? Date.now;
  const seed = opts.seed ?? DEFAULT_SEED;
  const token = opts.token ?? DEFAULT_TOKEN;
  const auth = new SimAuth([token, ...(opts.tokens ?? [])]);
  const tls = opts.tls ?? false;
  const pki = tls ? ((tls !== true ? tls.pki : undefined) ?? (await createPki())) : undefined;
  const store = new SimStore(now);
  const content = opts.content ?? demoContent(opts.scale ? { scale: opts.scale } : {});
  const loaded = content.load(store, { seed, now: now() });
  // Before anything listens: an unknown scenario leaves nothing running.
  for (const { name } of opts.scenarios ?? [])
    if (!loaded.scenarios?.[name]) throw new Error(`the simulator's content has no scenario "${name}"`);
  store.logs.source = loaded.logSource;
  const computed = new MetricsSource(store, seed);
  const metrics: MetricsProvider = loaded.metrics ?? computed;
  const faults: Faults = {
    metricsDown: false,
    metricsMissing: false,
    latencyMs: 0,
    hang: false,
    unauthorized: false,
    discoveryDown: [],
    accessReviewsDown: false,
  };
  const accessReviews = new AccessReviews();
  const ticker = new Ticker({
    store,
    metrics: computed,
    crashers: loaded.life?.crashers ?? [],
    recurring: loaded.life?.recurring ?? [],
  });

  const host = opts.host ?? '127.0.0.1';
  let url = '';
  const router = new Router({
    store,
    metrics,
    faults,
    auth,
    reviews: accessReviews,
    bookmarkMs: opts.bookmarkMs ?? 15_000,
    serverAddress: () => url.replace(/^https?:\/\//, ''),
    ...(opts.listOrder ? { listOrder: opts.listOrder } : {}),
    ...(opts.aggregatedDiscovery !== undefined ? { aggregatedDiscovery: opts.aggregatedDiscovery } : {}),
  });
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    router.handle(req, res).catch(() => res.destroy());
  };
  // Client certificates are asked for but not required: a request without one may still bring a
  // token, and one the CA did not sign simply authenticates nobody (see SimAuth).
  const server: Server = pki
    ? createHttpsServer(
        {
          key: pki.serverKeyPem,
          cert: pki.serverCertPem,
          ca: pki.caPem,
          requestCert: true,
          rejectUnauthorized: false,
        },
        handle,
      )
    : createServer(handle);
  const sockets = new Set<Socket>();
  let accepted = 0;
  server.on('connection', (socket: Socket) => {
    accepted++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  url = `${pki ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (opts.tickMs && loaded.life) ticker.start(opts.tickMs);
  const runScenario = (name: string) => {
    const scenario = loaded.scenarios?.[name];
    if (!scenario) throw new Error(`the simulator's content has no scenario "${name}"`);
    ticker.addCrashers(scenario(store));
  };
  const scenarioTimers = (opts.scenarios ?? []).map(({ name, afterMs }) => {
    const timer = setTimeout(() => runScenario(name), afterMs);
    timer.unref();
    return timer;
  });
  const { eventTtlMs } = opts;
  const stopEventTtl = eventTtlMs ? startEventTtl(store, eventTtlMs) : () => {};

  let closing: Promise<void> | undefined;
  return {
    url,
    kubeconfigYaml: (contextName, userOpts = {}) =>
      kubeconfigYaml({
        server: url,
        ...(contextName !== undefined ? { contextName } : {}),
        ...(pki ? { caPem: pki.caPem } : {}),
        user: kubeconfigUser(userOpts, token, pki),
      }),
    auth,
    pki,
    connections: () => ({ accepted, open: sockets.size }),
    store,
    faults,
    accessReviews,
    tick: () => ticker.tick(),
    runScenario,
    expireEvents: () => (eventTtlMs ? expireEvents(store, eventTtlMs) : 0),
    close() {
      closing ??= (async () => {
        ticker.stop();
        for (const t of scenarioTimers) clearTimeout(t);
        stopEventTtl();
        router.closeStreams();
        store.logs.closeFollowers();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
          // closeAllConnections reaches only sockets past the TLS handshake.
          for (const socket of sockets) socket.destroy();
        });
        await Promise.all([...sockets].map((s) => new Promise((resolve) => s.once('close', resolve))));
      })();
      return closing;
    },
  };
}

function kubeconfigUser(opts: KubeconfigUserOptions, token: string, pki: SimPki | undefined): KubeconfigUser {
  switch (opts.user ?? 'token') {
    case 'token':
      return { token: opts.token ?? token };
    case 'client-cert':
      if (!pki) throw new Error('a client certificate needs a simulator started with tls');
      return { clientCert: pki.client };
    case 'exec':
      if (!opts.exec) throw new Error('an exec user needs the plugin to run');
      return { exec: opts.exec };
  }
}
