import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AuthOptions, type AuthService, createAuth } from './auth/index';
import type { ContextSource } from './clusters/kubeconfig';
import { ClusterRegistry } from './clusters/registry';
import { createHttpApp } from './http/server';
import { createStaticHandler } from './http/static';
import { createInvoker, type Invoker } from './invoke';
import { createLogger, type Logger } from './logger';
import { createHandlers, SERVICE_VERSION } from './operations';
import { confStore } from './storage/conf-store';
import { type KeyValueStore, memoryStore } from './storage/store';

export interface ServiceConfig {
  /** Where configuration and state live; omitted means in memory (tests). */
  dataDir?: string;
  store?: KeyValueStore;
  contexts: readonly ContextSource[];
  demo?: ContextSource;
  /** Cluster request timeout; a cluster slower than this gets a 504. */
  timeoutMs?: number;
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

/** The whole service, free of Electron: the desktop shell and `serve` both build it with this. */
export function createService(config: ServiceConfig): Service {
  const logger = config.logger ?? createLogger();
  const store = config.store ?? (config.dataDir ? confStore(config.dataDir, 'skiff') : memoryStore());
  const registry = new ClusterRegistry({
    contexts: config.contexts,
    ...(config.demo ? { demo: config.demo } : {}),
    store,
    logger,
    timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  const adminPassword = config.adminPassword ?? config.auth?.adminPassword ?? process.env.SKIFF_ADMIN_PASSWORD;
  const auth = createAuth({
    ...config.auth,
    ...(adminPassword !== undefined ? { adminPassword } : {}),
    ...(config.dataDir ? { dataDir: config.dataDir } : {}),
    ...(config.now ? { now: config.now } : {}),
    logger,
    appVersion: SERVICE_VERSION,
  });
  const invoke = createInvoker(createHandlers(registry, config.now ?? Date.now, auth));
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
      const server = createServer(listener);
      // Long-lived log follows must not be cut by Node's default request timeout.
      server.requestTimeout = 0;
      server.headersTimeout = 30_000;
      servers.push(server);
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const { port: bound } = server.address() as AddressInfo;
          const shownHost = host.includes(':') ? `[${host}]` : host;
          resolve({ url: `http://${shownHost}:${bound}`, server });
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
      await auth.close();
    },
  };
}
