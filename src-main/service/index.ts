import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MonitoringFlags } from '../../src-shared/contract/models';
import { type AuthOptions, type AuthService, createAuth } from './auth/index';
import { DEFAULT_ACCESS_TOKEN_MINUTES, DEFAULT_REFRESH_TOKEN_DAYS } from './auth/options';
import { sealable } from './auth/sealed-store';
import type { WatchOptions } from './clusters/cluster';
import type { ContextSource } from './clusters/kubeconfig';
import { ClusterRegistry } from './clusters/registry';
import { EventHistory, type EventHistoryOptions } from './history/index';
import { createHttpServer, type HttpServerOptions } from './http/http-server';
import { createHttpApp } from './http/server';
import { createStaticHandler } from './http/static';
import { createInvoker, type Invoker } from './invoke';
import { createLogger, type Logger } from './logger';
import { createHandlers, SERVICE_VERSION } from './operations';
import { type AppHost, type AppSettingsDeps, readStoredAppSettings } from './settings/app-settings';
import { confStore } from './storage/conf-store';
import type { AppDatabase } from './storage/database';
import { type KeyValueStore, memoryStore } from './storage/store';

export interface ServiceConfig {
  /** Where configuration and state live; omitted means in memory (tests). */
  dataDir?: string;
  store?: KeyValueStore;
  contexts: readonly ContextSource[];
  demo?: ContextSource;
  /** Cluster request timeout; a cluster slower than this gets a 504. */
  timeoutMs?: number;
  /** Watch retry backoff and list snapshot retention; the defaults suit production, tests shorten them. */
  watch?: WatchOptions;
  logger?: Logger;
  now?: () => number;
  /** Built renderer to serve for non-API paths (web mode). */
  staticDir?: string;
  /**
   * Password of the first `admin` account, used only when no account exists yet; defaults to
   * $SKIFF_ADMIN_PASSWORD, else one is generated and printed once.
   */
  adminPassword?: string;
  /** Token lifetimes, proxy trust, Host/Origin allowlists, GeoIP database, rate limits. */
  auth?: AuthOptions;
  /** The kubeconfig files this run read, for the Settings view. */
  kubeconfigPaths?: readonly string[];
  /** The desktop shell describes itself here; `serve` leaves it out (web mode). */
  appHost?: AppHost;
  /** Timeouts and connection bounds for slow clients; the defaults suit production. */
  http?: HttpServerOptions;
  /** When events are recorded into the event history and how long they are kept (history/options.ts). */
  eventHistory?: EventHistoryOptions;
}

export interface Service {
  invoke: Invoker;
  registry: ClusterRegistry;
  /** Sessions for the desktop window and tests: `service.auth.createLocalSession()`. */
  auth: AuthService;
  listen(port: number, host: string): Promise<{ url: string; server: Server }>;
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Web mode: the API is the server the browser talks to, so it is always on. */
function webHost(url: string | null): AppHost {
  const port = url ? Number(new URL(url).port) : 0;
  return {
    mode: 'web',
    localApi: () => ({ enabled: true, port, url, editable: false }),
    tokenStorage: () => ({
      kind: 'browser-memory',
      backend: 'browser',
      notice:
        "In the browser, tokens live in this tab's memory only; reloading the page asks you to log in again.",
    }),
  };
}

/** The whole service, free of Electron: the desktop shell and `serve` both build it with this. */
export function createService(config: ServiceConfig): Service {
  const logger = config.logger ?? createLogger();
  // Sealed on close like the auth stores: a closed service never writes into its data dir again.
  const store = sealable(
    config.store ?? (config.dataDir ? confStore(config.dataDir, 'skiff') : memoryStore()),
    logger,
  );
  // The history writes into the database authentication opens (one file, one connection).
  let attachDatabase: (db: Promise<AppDatabase>) => void = () => {};
  const database = new Promise<AppDatabase>((resolve) => {
    attachDatabase = resolve;
  });
  database.catch(() => {});
  const history: EventHistory = new EventHistory({
    db: database,
    ...(config.eventHistory ? { options: config.eventHistory } : {}),
    flags: (clusterId): MonitoringFlags => registry.monitoring(clusterId),
    logger,
    ...(config.now ? { now: config.now } : {}),
  });
  const registry: ClusterRegistry = new ClusterRegistry({
    contexts: config.contexts,
    eventRecording: history,
    ...(config.demo ? { demo: config.demo } : {}),
    store,
    logger,
    timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(config.watch ? { watch: config.watch } : {}),
    ...(config.now ? { now: config.now } : {}),
  });
  const adminPassword =
    config.adminPassword ?? config.auth?.adminPassword ?? process.env.SKIFF_ADMIN_PASSWORD;
  const stored = readStoredAppSettings(store);
  // Command-line lifetimes win; otherwise what Settings saved; otherwise the defaults.
  const accessTokenMinutes =
    config.auth?.accessTokenMinutes ?? stored.accessTokenMinutes ?? DEFAULT_ACCESS_TOKEN_MINUTES;
  const refreshTokenDays =
    config.auth?.refreshTokenDays ?? stored.refreshTokenDays ?? DEFAULT_REFRESH_TOKEN_DAYS;
  const auth = createAuth({
    ...config.auth,
    accessTokenMinutes,
    refreshTokenDays,
    ...(adminPassword !== undefined ? { adminPassword } : {}),
    ...(config.dataDir ? { dataDir: config.dataDir } : {}),
    ...(config.now ? { now: config.now } : {}),
    logger,
    appVersion: SERVICE_VERSION,
  });
  attachDatabase(auth.core().then((core) => core.db));
  history.startAll(registry.allClusters());
  let webUrl: string | null = null;
  const settings: AppSettingsDeps = {
    store,
    host: () => config.appHost ?? webHost(webUrl),
    active: { kubeconfigPaths: config.kubeconfigPaths ?? [], accessTokenMinutes, refreshTokenDays },
  };
  const invoke = createInvoker(createHandlers(registry, auth, settings, history, config.now));
  const listener = createHttpApp({
    invoke,
    authenticate: auth.authenticate,
    guard: auth.guard,
    clientAddress: auth.clientAddress,
    logger,
    ...(config.staticDir ? { serveStatic: createStaticHandler(config.staticDir) } : {}),
  });
  const servers: Server[] = [];

  return {
    invoke,
    registry,
    auth,
    async listen(port, host) {
      // Nothing is served before the signing key and the first account exist.
      await auth.ready;
      auth.allowListenAddress(host);
      // Slow clients are bounded there; answers (lists, log follows) are not (see http/http-server.ts).
      const server = createHttpServer(listener, config.http ?? {}, logger);
      servers.push(server);
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const { port: bound } = server.address() as AddressInfo;
          const shownHost = host.includes(':') ? `[${host}]` : host;
          const url = `http://${shownHost}:${bound}`;
          webUrl ??= url;
          resolve({ url, server });
        });
      });
    },
    async close() {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
      await registry.close();
      // What the event caches saw last is written before the database closes with auth.
      await history.close();
      // Drains the writes that outlive their request (a failed login's log entry), then seals.
      await auth.close();
      store.seal();
    },
  };
}
