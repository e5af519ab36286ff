// First: V8 must know it should keep the heap small before the other modules allocate.
import '../service/heap-profile';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { legacyAuthImport, OidcConfigError } from '../service/auth/index';
import { AuthStateError } from '../service/auth/state';
import { loadClusterSources } from '../service/clusters/sources';
import { ProblemError } from '../service/errors';
import { readTlsPair, TlsFilesError } from '../service/http/tls-files';
import { createService } from '../service/index';
import { InClusterError, inClusterSource, wantsInCluster } from '../service/kube/in-cluster';
import { KubeconfigError } from '../service/kube/kubeconfig-file';
import { createLogger } from '../service/logger';
import { readStoredAppSettings } from '../service/settings/app-settings';
import { type CheckedSnapshot, checkSnapshot } from '../service/snapshots/inspect';
import { confStore } from '../service/storage/conf-store';
import { DatabaseOpenError, openDatabaseStorage, openStorage } from '../service/storage/index';
import { DatabaseVersionError } from '../service/storage/migrations';
import { WorkspaceConfigError } from '../service/workspaces/config';
import { LOOPBACK_HOSTS, parseServeArgs, USAGE, UsageError, wantsHelp } from './args';
import { defaultDataDir } from './data-dir';
import { checkWritable, writePrivateFile } from './private-file';
import { readSecretKey } from './secret-key';

const here = dirname(fileURLToPath(import.meta.url));
// Built, this file is out/service/serve.js; from source (tests), src-main/cli/serve.ts.
const RENDERER_DIR = [resolve(here, '../renderer'), resolve(here, '../../out/renderer')].find((d) =>
  existsSync(join(d, 'index.html')),
);

async function main() {
  if (wantsHelp(process.argv.slice(2))) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const opts = parseServeArgs(process.argv.slice(2), {
    dataDir: defaultDataDir(),
    geoipDb: process.env.SKIFF_GEOIP_DB || undefined,
    database: process.env.SKIFF_DATABASE_URL,
    replicaId: process.env.SKIFF_REPLICA_ID,
    authorize: process.env.SKIFF_AUTHORIZE,
    oidcClientSecret: process.env.SKIFF_OIDC_CLIENT_SECRET,
    recordChanges: process.env.SKIFF_RECORD_CHANGES,
    recordNoisyKinds: process.env.SKIFF_RECORD_NOISY_KINDS,
    usageInterval: process.env.SKIFF_USAGE_INTERVAL,
    keptLogs: {
      keptLogs: process.env.SKIFF_KEPT_LOGS,
      keptLogLines: process.env.SKIFF_KEPT_LOG_LINES,
      keptLogsMaxBytes: process.env.SKIFF_KEPT_LOGS_MAX_BYTES,
    },
  });
  if (opts.geoipDb && !existsSync(opts.geoipDb))
    throw new UsageError(`--geoip-db ${opts.geoipDb}: no such file or directory`);
  for (const p of opts.kubeconfig)
    if (!existsSync(p)) throw new UsageError(`--kubeconfig ${p}: no such file`);
  if (opts.demoKubeconfig) checkWritable('--demo-kubeconfig', opts.demoKubeconfig);
  if (opts.snapshotKubeconfig) checkWritable('--snapshot-kubeconfig', opts.snapshotKubeconfig);
  const secretKey = readSecretKey(opts.secretKeyFile, process.env.SKIFF_SECRET_KEY);
  // Read once here so a missing or mismatched pair is one line and exit 2, not a stack.
  if (opts.tls) readTlsPair(opts.tls);
  const inCluster = wantsInCluster(opts.inCluster, process.env);
  // Until the service runs, a signal ends the process at once, a snapshot check in progress with
  // it (the check's process is killed on exit).
  const early = () => process.exit(0);
  process.once('SIGINT', early);
  process.once('SIGTERM', early);
  const checked = new Map<string, CheckedSnapshot>();
  for (const p of opts.snapshots) {
    if (!existsSync(p)) throw new UsageError(`--snapshot ${p}: no such file`);
    // Checked before anything starts, so a bad file is the only thing said; in a process of its
    // own, so a hostile file cannot hang this one.
    try {
      checked.set(p, await checkSnapshot(p));
    } catch (err) {
      if (err instanceof ProblemError) throw new UsageError(`--snapshot: ${err.message}`);
      throw err;
    }
  }
  const logger = createLogger();
  if (!LOOPBACK_HOSTS.has(opts.host)) {
    // Every request needs credentials, but tokens then cross the network in clear text unless a
    // TLS proxy is in front.
    logger.warn(
      { host: opts.host },
      'listening beyond loopback: other machines can reach the API; put a TLS-terminating proxy in front (--trust-proxy) and list its public name with --allowed-host',
    );
  }
  // Kubeconfig files chosen in Settings apply when neither --kubeconfig nor $KUBECONFIG says otherwise.
  // Storage first (PostgreSQL migrated once across replicas; SQLite in the data dir): the saved
  // settings live there. An unreachable or newer database is one line and exit 2, the URL's
  // password never shown.
  const storage = opts.database
    ? await openDatabaseStorage({
        url: opts.database,
        logger,
        store: confStore(opts.dataDir, 'skiff'),
        replicaId: opts.replicaId,
      })
    : openStorage({
        dataDir: opts.dataDir,
        logger,
        imports: [legacyAuthImport(opts.dataDir)],
        replicaId: opts.replicaId,
      });
  if (opts.database)
    logger.info({ database: storage.backend.where, replica: storage.replicaId }, 'database opened');
  const saved = readStoredAppSettings(storage.settings);
  const { paths, contexts, demo, simulator } = await loadClusterSources(
    opts.kubeconfig,
    opts.demo,
    saved.kubeconfigPaths ?? [],
    process.env,
    {
      ...(opts.demoEventTtlMs !== undefined ? { eventTtlMs: opts.demoEventTtlMs } : {}),
      ...(opts.demoBadRolloutMs !== undefined
        ? { scenarios: [{ name: 'bad-rollout', afterMs: opts.demoBadRolloutMs }] }
        : {}),
    },
    // The pod's own cluster is something to show: no demo unless asked for.
    opts.snapshots.length === 0 && !inCluster,
  );
  if (inCluster) {
    // The pod's cluster first, kubeconfig clusters beside it; one name cannot mean two clusters.
    if (contexts.some((c) => c.context === opts.clusterName))
      throw new UsageError(
        `--cluster-name ${opts.clusterName}: a kubeconfig context has that name too; choose another`,
      );
    const own = inClusterSource(opts.clusterName, process.env);
    contexts.unshift(own);
    logger.info(
      { cluster: opts.clusterName, server: own.server, namespace: own.config.context.namespace },
      'connecting to the cluster this pod runs in with its service account',
    );
  }
  if (contexts.length === 0 && demo) logger.info('no kubeconfig found; serving the embedded demo cluster');

  const staticDir = opts.staticDir ?? RENDERER_DIR;
  const service = createService({
    storage,
    dataDir: opts.dataDir,
    kubeconfigPaths: paths,
    contexts,
    ...(demo ? { demo } : {}),
    timeoutMs: opts.timeoutMs,
    eventHistory: opts.eventHistory,
    // The demo's bad rollout is recorded whatever was browsed before it: --record-changes all
    // unless it (or $SKIFF_RECORD_CHANGES) says otherwise.
    changeHistory:
      opts.demoBadRolloutMs !== undefined && opts.changeHistory.record === undefined
        ? { ...opts.changeHistory, record: 'all' }
        : opts.changeHistory,
    ...(opts.usage ? { usage: opts.usage } : {}),
    keptLogs: opts.keptLogs,
    eventWatch: { maxPerCredential: opts.maxEventWatches },
    ...(opts.snapshotMaxBytes !== undefined ? { snapshotMaxBytes: opts.snapshotMaxBytes } : {}),
    ...(opts.snapshotDir ? { snapshotDir: opts.snapshotDir } : {}),
    logger,
    ...(staticDir ? { staticDir } : {}),
    ...(opts.tls ? { tls: opts.tls } : {}),
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    ...(opts.authorize ? { authorize: opts.authorize } : {}),
    auth: {
      trustProxy: opts.trustProxy,
      allowedHosts: opts.allowedHosts,
      ...(opts.geoipDb ? { geoipDb: opts.geoipDb } : {}),
      ...(secretKey !== undefined ? { secretKey } : {}),
      ...(opts.accessTokenMinutes !== undefined ? { accessTokenMinutes: opts.accessTokenMinutes } : {}),
      ...(opts.refreshTokenDays !== undefined ? { refreshTokenDays: opts.refreshTokenDays } : {}),
      activityRetentionDays: opts.activityRetentionDays,
      activityMaxEntries: opts.activityMaxEntries,
      ...(opts.oidc ? { oidc: opts.oidc } : {}),
      ...(opts.localLogin !== undefined ? { localLogin: opts.localLogin } : {}),
    },
  });
  if (service.auth.geoipFiles.length === 0) {
    logger.info(
      'no GeoIP database found; public client addresses will show as "Unknown location" (see --geoip-db)',
    );
  }
  for (const p of opts.snapshots) {
    try {
      await service.snapshots.open(p, checked.get(p));
    } catch (err) {
      await service.close();
      await simulator?.close();
      if (err instanceof ProblemError) throw new UsageError(`--snapshot: ${err.message}`);
      throw err;
    }
  }
  const { url } = await service.listen(opts.port, opts.host);
  // Written once everything is up, so a file that is there names servers that answer; valid while
  // this process runs (the CA and credentials are made for each run).
  try {
    if (opts.demoKubeconfig && simulator) {
      const yaml = simulator.kubeconfigYaml('skiff-demo', { user: 'client-cert' });
      writePrivateFile('--demo-kubeconfig', opts.demoKubeconfig, yaml);
      logger.info({ path: opts.demoKubeconfig }, 'kubectl --kubeconfig this file reads the demo cluster');
    }
    if (opts.snapshotKubeconfig) {
      const yaml = await service.snapshots.kubeconfigYaml();
      writePrivateFile('--snapshot-kubeconfig', opts.snapshotKubeconfig, yaml);
      logger.info(
        { path: opts.snapshotKubeconfig },
        'kubectl --kubeconfig this file reads the open snapshots',
      );
    }
  } catch (err) {
    await service.close();
    await simulator?.close();
    throw err;
  }
  process.stdout.write(`listening on ${url}\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal, graceMs: opts.shutdownGraceMs }, 'shutting down: finishing the requests in flight');
    // The grace period, then 5 s for closing what is left; past that the process ends regardless.
    const force = setTimeout(() => process.exit(1), opts.shutdownGraceMs + 5_000);
    force.unref();
    const outcome = await service.shutdown(opts.shutdownGraceMs);
    if (outcome === 'cut')
      logger.warn(
        { graceMs: opts.shutdownGraceMs },
        'requests still in flight were cut off at the end of the grace period',
      );
    await simulator?.close();
    process.exit(0);
  };
  process.off('SIGINT', early);
  process.off('SIGTERM', early);
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  // RangeError: a setting out of its range, e.g. a too short SKIFF_ADMIN_PASSWORD.
  if (
    err instanceof UsageError ||
    err instanceof WorkspaceConfigError ||
    err instanceof AuthStateError ||
    err instanceof DatabaseVersionError ||
    err instanceof DatabaseOpenError ||
    err instanceof KubeconfigError ||
    err instanceof InClusterError ||
    err instanceof TlsFilesError ||
    err instanceof OidcConfigError ||
    err instanceof RangeError
  ) {
    process.stderr.write(`skiff: ${err.message}\n`);
    process.exit(2);
  }
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    process.stderr.write(`skiff: cannot listen: ${(err as Error).message}\n`);
    process.exit(1);
  }
  process.stderr.write(`skiff: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
