import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server as TlsServer } from 'node:tls';
import type { Cluster, MonitoringFlags } from '../../src-shared/contract/models';
import { type AuthOptions, type AuthService, createAuth, legacyAuthImport } from './auth/index';
import { DEFAULT_ACCESS_TOKEN_MINUTES, DEFAULT_REFRESH_TOKEN_DAYS } from './auth/options';
import { createRbacAuthorizer } from './auth/rbac/authorizer';
import { DEFAULT_LOCAL_PREFIX, DEFAULT_OIDC_PREFIX } from './auth/rbac/subject';
import type { WatchOptions } from './clusters/cluster';
import { ClusterRegistry } from './clusters/registry';
import { EventHistory, type EventHistoryOptions } from './events/history/index';
import type { EventWatchOptions } from './events/watch/options';
import { ChangeHistory, type ChangeHistoryOptions } from './history/changes/index';
import { Recorded } from './history/index';
import { KeptLogs } from './history/kept-logs/index';
import type { KeptLogsOptions } from './history/kept-logs/options';
import { UsageHistory, type UsageOptions } from './history/usage/index';
import { Drain, type DrainOutcome } from './http/drain';
import { createHttpServer, type HttpServerOptions } from './http/listener';
import { publicUrlAuth } from './http/public-url';
import { createHttpApp } from './http/request-handler';
import { createStaticHandler } from './http/static';
import { readTlsPair, reloadOnChange, type TlsFiles } from './http/tls-files';
import { DEFAULT_UPLOAD_MAX_BYTES } from './http/upload';
import { createInvoker, type Invoker } from './invoke';
import type { ContextSource } from './kube/kubeconfig';
import { createLogger, type Logger } from './logger';
import { createDocsHandler } from './openapi/serve-docs';
import { createHandlers, SERVICE_VERSION } from './operations';
import { eventWatchHandlers } from './operations/event-watch';
import { Readiness } from './readiness';
import { type AppHost, type AppSettingsDeps, readStoredAppSettings } from './settings/app-settings';
import type { CheckedSnapshot } from './snapshots/inspect';
import { SnapshotJobs } from './snapshots/jobs';
import { SnapshotOpener } from './snapshots/open';
import { openStorage, type Storage } from './storage/index';
import type { KeyValueStore } from './storage/store';
import { DEFAULT_WORKSPACE_ID } from './workspaces/config';

export interface ServiceConfig {
  /** Where configuration and state live; omitted means in memory (tests). */
  dataDir?: string;
  /**
   * Storage opened by the caller (`serve --database`: PostgreSQL, opened before the service since
   * that is async). Given, it is used instead of the data dir's SQLite database, and the service
   * closes it with itself.
   */
  storage?: Storage;
  /** This process's name among replicas (`--replica-id`) when the service opens its own storage. */
  replicaId?: string;
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
  /** When events are recorded into the event history and how long they are kept (events/history/). */
  eventHistory?: EventHistoryOptions;
  /** `--record-changes`, `--record-noisy-kinds`: which object changes are recorded (history/changes/). */
  changeHistory?: ChangeHistoryOptions;
  /** Which ended container runs keep their logs, how many lines and bytes (history/kept-logs/). */
  keptLogs?: Partial<KeptLogsOptions>;
  /** How often recorded clusters' usage is sampled and how long it is kept (`--usage-interval`, history/usage/). */
  usage?: UsageOptions;
  /** The event watch's heartbeat, credential checks and bounds (events/watch/options.ts). */
  eventWatch?: EventWatchOptions;
  /** Largest snapshot file `POST /v1/snapshots` accepts (`--snapshot-max-size`; default 4 GiB). */
  snapshotMaxBytes?: number;
  /** A snapshot check's time budget before the file's size counts (default 30 s; tests shorten it). */
  snapshotCheckMs?: number;
  /**
   * Where capture jobs keep their files (`--snapshot-dir`): one folder every replica shares.
   * Default: the data dir's `snapshots/`; without a data dir, a temporary folder.
   */
  snapshotDir?: string;
  /** Capture jobs' heartbeat and the silence after which a replica's running job is failed (tests shorten them). */
  snapshotJobs?: { heartbeatMs?: number; staleMs?: number };
  /** Serve HTTPS with these files, reloaded when they change (`--tls-cert`/`--tls-key`). */
  tls?: TlsFiles & { pollMs?: number };
  /** The URL clients reach the service at (`--public-url`): absolute links are made under it. */
  publicUrl?: string;
  /**
   * `--authorize rbac`: every read of a live cluster is checked against its RBAC for the signed-in
   * user (auth/rbac/authorizer.ts); absent, everyone reads what Skiff's account reads.
   */
  authorize?: RbacConfig;
}

/** `--authorize rbac` and its prefixes; `ttlMs` (default 30 s) is for tests. */
export interface RbacConfig {
  localPrefix?: string;
  oidcPrefix?: string;
  ttlMs?: number;
}

export interface Service {
  invoke: Invoker;
  registry: ClusterRegistry;
  /** Event watches open now, all credentials together. */
  openEventWatches(): number;
  /** HTTP requests being answered now (what a shutdown's drain waits for). */
  pendingRequests(): number;
  /** Sessions for the desktop window and tests: `service.auth.createLocalSession()`. */
  auth: AuthService;
  /** What Skiff records beyond events (history/, issue 27); tests wait on its features. */
  recorded: Recorded;
  /**
   * Opening `.skiff` files as read-only clusters in the default workspace (`serve --snapshot`,
   * the desktop's "Open snapshot…"). `open` throws a ProblemError (`invalid_snapshot`,
   * `snapshot_version_unsupported`, `conflict`) for a file it cannot open (`checked`: what
   * snapshots/inspect.ts said of it just before, so it is not checked twice); `kubeconfigYaml`
   * names every open snapshot for kubectl while the service runs (starting, on its first call, the
   * simulators kubectl reads them through; Skiff itself reads the files directly).
   */
  snapshots: {
    open(path: string, checked?: CheckedSnapshot): Promise<Cluster>;
    kubeconfigYaml(): Promise<string>;
  };
  listen(port: number, host: string): Promise<{ url: string; server: Server }>;
  /**
   * What `GET /v1/health/ready` checks (readiness.ts); whatever owns a dependency adds its check
   * here.
   */
  readiness: Readiness;
  /**
   * SIGTERM: answers not ready, runs the shutdown steps at once (releasing the recorder's leases,
   * so another replica records without waiting for them to expire), stops taking connections,
   * waits up to `graceMs` for the requests in flight, then closes everything (close()).
   */
  shutdown(graceMs: number): Promise<DrainOutcome>;
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

function rbacAuthorizer(rbac: RbacConfig, config: ServiceConfig, logger: Logger) {
  return createRbacAuthorizer({
    localPrefix: rbac.localPrefix ?? DEFAULT_LOCAL_PREFIX,
    oidcPrefix: rbac.oidcPrefix ?? DEFAULT_OIDC_PREFIX,
    timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    logger,
    ...(config.now ? { now: config.now } : {}),
    ...(rbac.ttlMs !== undefined ? { ttlMs: rbac.ttlMs } : {}),
  });
}

/** The whole service, free of Electron: the desktop shell and `serve` both build it with this. */
export function createService(config: ServiceConfig): Service {
  const logger = config.logger ?? createLogger();
  // Opened first, once: a data dir that cannot be used throws here, before anything runs.
  const storage =
    config.storage ??
    openStorage({
      dataDir: config.dataDir,
      store: config.store,
      logger,
      imports: config.dataDir ? [legacyAuthImport(config.dataDir)] : [],
      replicaId: config.replicaId,
    });
  const { store } = storage;
  // One backend for every user: on SQLite its one connection serialises them all.
  const { backend } = storage;
  const history: EventHistory = new EventHistory({
    backend,
    replicaId: storage.replicaId,
    ...(config.eventHistory ? { options: config.eventHistory } : {}),
    flags: (clusterId): MonitoringFlags => registry.monitoring(clusterId),
    logger,
    ...(config.now ? { now: config.now } : {}),
  });
  // Object changes, usage samples and kept logs (history/, issue 27): each feature is made here and
  // registers on recorded.hooks before the registry makes its first cache.
  const recorded = new Recorded({ backend, logger, now: config.now ?? Date.now });
  recorded.changes = recorded.own(
    new ChangeHistory({
      ...recorded.deps,
      hooks: recorded.hooks,
      // Retention and the cap are the event history's unless given (one pair of numbers bounds both).
      options: {
        ...(config.eventHistory?.retentionMs !== undefined
          ? { retentionMs: config.eventHistory.retentionMs }
          : {}),
        ...(config.eventHistory?.maxPerCluster !== undefined
          ? { maxPerCluster: config.eventHistory.maxPerCluster }
          : {}),
        ...config.changeHistory,
      },
    }),
  );
  recorded.usage = recorded.own(
    new UsageHistory({
      ...recorded.deps,
      options: config.usage,
      // Read at each tick, after the registry below exists (start() is called once it does).
      clusters: () => registry.allClusters(),
      // The plan's one definition: --record-changes not off, and all, or the cluster was viewed.
      isRecorded: (clusterId) => recorded.changes?.isRecordedCluster(clusterId) ?? false,
    }),
  );
  recorded.keptLogs = recorded.own(
    new KeptLogs({
      ...recorded.deps,
      hooks: recorded.hooks,
      ...(config.keptLogs ? { options: config.keptLogs } : {}),
      // Recorded as the changes are (--record-changes): off keeps no logs, all watches every cluster's pods.
      isRecorded: (clusterId) => recorded.changes?.isRecordedCluster(clusterId) ?? false,
      watchAtStart: recorded.changes.mode === 'all',
    }),
  );
  const registry: ClusterRegistry = new ClusterRegistry({
    contexts: config.contexts,
    eventRecording: history,
    resourceRecording: recorded.hooks,
    ...(config.demo ? { demo: config.demo } : {}),
    store,
    workspaces: storage.workspaces,
    logger,
    timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(config.watch ? { watch: config.watch } : {}),
    ...(config.now ? { now: config.now } : {}),
    ...(config.authorize ? { authorizer: rbacAuthorizer(config.authorize, config, logger) } : {}),
  });
  const adminPassword =
    config.adminPassword ?? config.auth?.adminPassword ?? process.env.SKIFF_ADMIN_PASSWORD;
  const stored = readStoredAppSettings(storage.settings);
  // Command-line lifetimes win; otherwise what Settings saved; otherwise the defaults.
  const accessTokenMinutes =
    config.auth?.accessTokenMinutes ?? stored.accessTokenMinutes ?? DEFAULT_ACCESS_TOKEN_MINUTES;
  const refreshTokenDays =
    config.auth?.refreshTokenDays ?? stored.refreshTokenDays ?? DEFAULT_REFRESH_TOKEN_DAYS;
  const auth = createAuth({
    ...config.auth,
    // Naming the public URL is enough to be reached under it (http/public-url.ts).
    ...(config.publicUrl ? publicUrlAuth(config.auth, config.publicUrl) : {}),
    // The OIDC redirect URI is made under it (auth/oidc/options.ts).
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    backend,
    accessTokenMinutes,
    refreshTokenDays,
    ...(adminPassword !== undefined ? { adminPassword } : {}),
    ...(config.dataDir ? { dataDir: config.dataDir } : {}),
    ...(config.now ? { now: config.now } : {}),
    logger,
    appVersion: SERVICE_VERSION,
  });
  // Members of a workspace's groups (identity-provider groups) belong to it, read per request.
  auth.setGroupWorkspaces((groups) =>
    storage.workspaces.config.workspaces
      .filter((w) => w.groups?.some((g) => groups.includes(g)))
      .map((w) => w.workspaceId),
  );
  history.startAll(registry.allClusters());
  recorded.changes.startAll(registry.allClusters());
  recorded.usage.start();
  recorded.keptLogs.attach(
    (clusterId) => registry.byId(clusterId),
    registry.allClusters().map((c) => c.clusterId),
  );
  let webUrl: string | null = null;
  const settings: AppSettingsDeps = {
    store: storage.settings,
    saved: () => storage.settings.saved(),
    host: () => config.appHost ?? webHost(webUrl),
    active: { kubeconfigPaths: config.kubeconfigPaths ?? [], accessTokenMinutes, refreshTokenDays },
  };
  // Capture jobs, in the database every replica shares; their files in the shared snapshot folder.
  const snapshotDir = config.snapshotDir ?? (config.dataDir ? join(config.dataDir, 'snapshots') : undefined);
  const snapshots = new SnapshotJobs({
    backend,
    replicaId: storage.replicaId,
    dir: snapshotDir,
    ...config.snapshotJobs,
    skiffVersion: SERVICE_VERSION,
    logger,
    ...(config.now ? { now: config.now } : {}),
  });
  const eventWatch = eventWatchHandlers(registry, config.eventWatch, config.now);
  const opener = new SnapshotOpener({
    registry,
    logger,
    ...(config.snapshotCheckMs !== undefined ? { checkBudgetMs: config.snapshotCheckMs } : {}),
  });
  // Uploaded snapshots live here while open; a run that ended without closing left only leftovers.
  const uploadDir = config.dataDir
    ? join(config.dataDir, 'opened-snapshots')
    : join(tmpdir(), `skiff-uploads-${process.pid}-${randomBytes(6).toString('hex')}`);
  rmSync(uploadDir, { recursive: true, force: true });
  const invoke = createInvoker({
    ...createHandlers(registry, auth, settings, history, snapshots, config.now, eventWatch, opener, recorded),
    healthReady: async () => ({ data: await readiness.probe() }),
  });
  const listener = createHttpApp({
    invoke,
    authenticate: auth.authenticate,
    guard: auth.guard,
    clientAddress: auth.clientAddress,
    clientSecure: auth.clientSecure,
    logger,
    apiDocs: createDocsHandler(),
    ...(config.staticDir ? { serveStatic: createStaticHandler(config.staticDir) } : {}),
    uploads: { dir: uploadDir, maxBytes: config.snapshotMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES },
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
  });
  const servers: Server[] = [];
  const stopWatching: Array<() => void> = [];
  const drain = new Drain();
  const readiness = new Readiness();
  // Reachable and migrated (storage/index.ts ping: bounded, never throws, no URL in its reason).
  readiness.add({
    name: 'database',
    check: () => storage.ping(),
  });
  // Run at once on SIGTERM, before the requests in flight are waited for: the recorder's leases
  // go back at once, so another replica records from now on rather than when they expire.
  const shutdownSteps: Array<() => Promise<void>> = [() => history.releaseLeases()];

  return {
    invoke,
    registry,
    openEventWatches: eventWatch.openWatches,
    pendingRequests: () => drain.pending,
    auth,
    recorded,
    snapshots: {
      async open(path, checked) {
        const { cluster } = await opener.open(path, checked ? { checked } : {});
        return registry.describeCluster(cluster, DEFAULT_WORKSPACE_ID);
      },
      kubeconfigYaml: () => opener.kubeconfigYaml(),
    },
    async listen(port, host) {
      // Nothing is served before the signing key and the first account exist.
      await auth.ready;
      await snapshots.ready;
      auth.allowListenAddress(host);
      // Slow clients are bounded there; answers (lists, log follows) are not (see http/listener.ts).
      const tls = config.tls;
      const server = createHttpServer(
        drain.wrap(listener),
        config.http ?? {},
        logger,
        tls ? readTlsPair(tls) : undefined,
      );
      if (tls) stopWatching.push(reloadOnChange(server as unknown as TlsServer, tls, logger, tls.pollMs));
      servers.push(server);
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const { port: bound } = server.address() as AddressInfo;
          const shownHost = host.includes(':') ? `[${host}]` : host;
          const url = `${tls ? 'https' : 'http'}://${shownHost}:${bound}`;
          webUrl ??= config.publicUrl ?? url;
          resolve({ url, server });
        });
      });
    },
    readiness,
    async shutdown(graceMs) {
      readiness.drain();
      const steps = Promise.allSettled(shutdownSteps.map((step) => step()));
      const outcome = await drain.drain(servers, graceMs);
      await steps;
      await this.close();
      return outcome;
    },
    async close() {
      for (const stop of stopWatching.splice(0)) stop();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
      // Running captures stop (their temporary files removed) before their clusters close.
      await snapshots.close();
      await registry.close();
      // Snapshot files close once their clusters' caches stopped reading them (and kubectl's
      // simulators, if any, stop); uploaded files are removed.
      await opener.close();
      await rm(uploadDir, { recursive: true, force: true });
      // What the event caches saw last is written before the database closes.
      await history.close();
      await recorded.close();
      // Drains the writes that outlive their request (a failed login's log entry).
      await auth.close();
      await storage.close();
    },
  };
}
