/**
 * The demo cluster: an in-process Kubernetes API server simulator for demos, tests and
 * benchmarks. Clients reach it only through a kubeconfig, exactly like a real cluster.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { SimAuth } from './auth';
import { buildDemo } from './demo';
import { expireEvents, startEventTtl } from './event-ttl';
import { type ExecPluginConfig, type KubeconfigUser, kubeconfigYaml } from './kubeconfig';
import type { ListOrder } from './list';
import { type MetricsProvider, MetricsSource } from './metrics';
import { type Faults, Router } from './server';
import { CapturedMetrics, type SnapshotContent, SnapshotLogSource, storable } from './captured';
import { SimStore } from './store';
import { Ticker } from './ticker';
import { createPki, type SimPki } from './tls';

export type { SimAuth } from './auth';
export { DEMO_NAMESPACES, DEMO_NODES, DEMO_PODS, DEMO_WORKLOADS, type NotablePod } from './demo';
export type { EventBump, EventInput } from './events';
export type { ExecPluginConfig } from './kubeconfig';
export type { Faults } from './server';
export type { SnapshotContent, SnapshotObject } from './captured';
export { type Change, SimStore } from './store';
export { type ClientIdentity, createPki, type SimPki } from './tls';
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
  /** Bearer token the kubeconfig carries and the server accepts. */
  token?: string;
  /** More bearer tokens the server accepts (an exec plugin's, say); `auth.tokens` changes them live. */
  tokens?: string[];
  /**
   * Serve HTTPS with a CA of the simulator's own (or the PKI given, so a restarted simulator keeps
   * its CA), accepting client certificates that CA signed. Default: HTTPS for `content` (a
   * snapshot is served to kubectl, which sends no bearer token to an http:// server), plain HTTP
   * for the demo data (tests); the demo Skiff starts asks for HTTPS.
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
   * Serve this frozen cluster (a snapshot) instead of the demo data: no demo objects, no ticker,
   * logs and metrics as captured.
   */
  content?: SnapshotContent;
  /**
   * Answer aggregated discovery (apidiscovery.k8s.io/v2) on /api and /apis to a client whose Accept
   * asks for it, as every apiserver since 1.30 does. Default true; false makes the simulator an
   * older apiserver, which answers only the legacy documents.
   */
  aggregatedDiscovery?: boolean;
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
  /** Advances simulated life by one step (what tickMs does on a timer). */
  tick(): void;
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
  const tls = opts.tls ?? opts.content !== undefined;
  const pki = tls ? ((tls !== true ? tls.pki : undefined) ?? (await createPki())) : undefined;
  const store = new SimStore(now);
  const { content } = opts;
  const demo = content
    ? undefined
    : buildDemo({ seed, now: now(), ...(opts.scale ? { scale: opts.scale } : {}) });
  store.load(demo?.objects ?? []);
  if (content) {
    for (const [kind, read] of Object.entries(content.objects)) {
      const d = store.kinds.forObject(undefined, kind);
      if (!d) throw new Error(`unknown kind ${kind}`);
      store.defer(d.key, () => storable(d, read()));
    }
    const events = store.kinds.forObject('v1', 'Event');
    if (events) store.defer(events.key, () => storable(events, content.events()));
  }
  store.logs.source = content ? new SnapshotLogSource(store, content) : demo?.logSource;
  const computed = new MetricsSource(store, seed);
  const metrics: MetricsProvider = content ? new CapturedMetrics(content) : computed;
  const faults: Faults = {
    metricsDown: false,
    metricsMissing: false,
    latencyMs: 0,
    hang: false,
    unauthorized: false,
    discoveryDown: [],
  };
  const ticker = new Ticker({
    store,
    metrics: computed,
    crashers: demo?.crashers ?? [],
    recurring: demo?.recurring ?? [],
  });

  const host = opts.host ?? '127.0.0.1';
  let url = '';
  const router = new Router({
    store,
    metrics,
    faults,
    auth,
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
  if (opts.tickMs && !content) ticker.start(opts.tickMs);
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
    tick: () => ticker.tick(),
    expireEvents: () => (eventTtlMs ? expireEvents(store, eventTtlMs) : 0),
    close() {
      closing ??= (async () => {
        ticker.stop();
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
