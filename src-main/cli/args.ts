import { isIP } from 'node:net';
import { z } from 'zod';
import type { OidcOptions } from '../service/auth/oidc/options';
import { type EventHistoryOptions, parseDuration } from '../service/events/history/index';
import type { ChangeHistoryOptions } from '../service/history/changes/options';
import type { KeptLogsOptions } from '../service/history/kept-logs/options';
import type { UsageOptions } from '../service/history/usage/index';
import { checkDatabaseUrl, DatabaseUrlError } from '../service/storage/database-url';
import { CHANGE_FLAGS, changeArgs } from './change-args';
import { CLUSTER_OPTIONS, parseOptions, TIMEOUT_RULE, timeoutMsOf } from './cluster-args';
import { KEPT_LOGS_FLAGS, KEPT_LOGS_USAGE, type KeptLogsEnv, keptLogsArgs } from './kept-logs-args';
import { OIDC_FLAGS, OIDC_USAGE, OidcUsageError, parseOidcArgs } from './oidc-args';
import { usageArgs } from './usage-args';

export interface ServeOptions {
  host: string;
  port: number;
  kubeconfig: string[];
  dataDir: string;
  demo: boolean;
  timeoutMs: number;
  staticDir?: string;
  /** Proxy addresses or CIDRs whose X-Forwarded-For is believed. */
  trustProxy: string[];
  /** Extra Host header values accepted (DNS-rebinding protection). */
  allowedHosts: string[];
  /** .mmdb file or directory for session locations; from --geoip-db or $SKIFF_GEOIP_DB. */
  geoipDb?: string;
  /** Absent unless given, so that lifetimes saved in Settings apply. */
  accessTokenMinutes?: number;
  refreshTokenDays?: number;
  /** --record-events, --event-retention, --event-history-max. */
  eventHistory: EventHistoryOptions;
  /** --record-changes, --record-noisy-kinds (else $SKIFF_RECORD_CHANGES, $SKIFF_RECORD_NOISY_KINDS). */
  changeHistory: ChangeHistoryOptions;
  /** --kept-logs, --kept-log-lines, --kept-logs-max-bytes (else $SKIFF_KEPT_LOGS…): the logs of dead containers. */
  keptLogs: Partial<KeptLogsOptions>;
  /** --usage-interval (else $SKIFF_USAGE_INTERVAL): how often recorded clusters' usage is sampled. */
  usage?: UsageOptions;
  /** --demo-event-ttl: the demo cluster deletes events this old, as an apiserver's --event-ttl does. */
  demoEventTtlMs?: number;
  /** --demo-bad-rollout: the demo's bad rollout (shop/checkout crash-loops) happens this long after start. */
  demoBadRolloutMs?: number;
  /** Days the security activity log keeps an entry (default 90). */
  activityRetentionDays: number;
  /** Entries the activity log keeps at most, oldest pruned first (default 100,000). */
  activityMaxEntries: number;
  /** --max-event-watches: concurrent event watches per session or API key (default 8). */
  maxEventWatches: number;
  /** --snapshot: `.skiff` files opened as read-only clusters at start. */
  snapshots: string[];
  /** --snapshot-max-size: the largest file POST /v1/snapshots accepts, in bytes. */
  snapshotMaxBytes?: number;
  /** --snapshot-kubeconfig: where to write a kubeconfig that reaches the open snapshots (kubectl). */
  snapshotKubeconfig?: string;
  /** --snapshot-dir: the folder of capture jobs' files, shared by every replica (default: the data dir's snapshots/). */
  snapshotDir?: string;
  /** --demo-kubeconfig: where to write a kubeconfig that reaches the demo cluster (kubectl); implies --demo. */
  demoKubeconfig?: string;
  /** --database or $SKIFF_DATABASE_URL: a PostgreSQL URL replicas share; absent: SQLite in the data dir. */
  database?: string;
  /** --replica-id or $SKIFF_REPLICA_ID: this process's name among replicas (default host name and pid). */
  replicaId?: string;
  /** --secret-key-file: the key that encrypts the token signing keys in the database (else $SKIFF_SECRET_KEY). */
  secretKeyFile?: string;
  /** --in-cluster (true), --no-in-cluster (false), neither (on when in a pod with a service account). */
  inCluster?: boolean;
  /** --cluster-name: what the pod's own cluster is called (default `in-cluster`). */
  clusterName: string;
  /** --tls-cert/--tls-key: serve HTTPS with these files, reloaded when they change. */
  tls?: { certFile: string; keyFile: string };
  /** --public-url: the URL clients reach the service at; absolute links are made under it. */
  publicUrl?: string;
  /** --shutdown-grace: how long requests in flight may take to finish after SIGTERM (default 20 s). */
  shutdownGraceMs: number;
  /** --oidc-* (issue 26): sign-in with an OpenID Provider (cli/oidc-args.ts). */
  oidc?: OidcOptions;
  /** --local-login on|off; absent: on. */
  localLogin?: boolean;
  /** --authorize rbac (or $SKIFF_AUTHORIZE) with --rbac-local-prefix/--rbac-oidc-prefix; absent: none. */
  authorize?: { localPrefix: string; oidcPrefix: string };
}

export const USAGE = `usage: npm run serve -- [--host 127.0.0.1] [--port 7733] [--kubeconfig PATH ...] [--data-dir DIR] [--demo] [--timeout SECONDS]
       [--trust-proxy ADDR ...] [--allowed-host NAME[:PORT] ...] [--geoip-db PATH] [--secret-key-file FILE]
       [--access-token-minutes 15-60] [--refresh-token-days 1-365]
       [--activity-retention DAYS (1-3650, default 90)] [--activity-max-entries N (1000-10000000, default 100000)]
       [--record-events viewed|all|off] [--event-retention 7d] [--event-history-max 1000000] [--demo-event-ttl 30s] [--demo-bad-rollout 2m]
       [--record-changes viewed|all|off] [--record-noisy-kinds]
       [--max-event-watches N (1-100, default 8)] [--usage-interval 30s|off]
       ${KEPT_LOGS_USAGE}
       [--database postgres://USER:PASSWORD@HOST:5432/DB?sslmode=verify-full] [--replica-id NAME]
       [--snapshot FILE.skiff ...] [--snapshot-max-size 4GiB] [--snapshot-kubeconfig FILE] [--demo-kubeconfig FILE]
       [--snapshot-dir DIR]
       [--in-cluster | --no-in-cluster] [--cluster-name in-cluster] [--tls-cert FILE --tls-key FILE]
       [--public-url https://NAME[:PORT]] [--shutdown-grace 20s]
       [--authorize rbac|none] [--rbac-local-prefix skiff:] [--rbac-oidc-prefix PREFIX]
${OIDC_USAGE}`;

const portSchema = z.coerce.number().int().min(0).max(65535);
const accessMinutesSchema = z.coerce.number().int().min(15).max(60);
const refreshDaysSchema = z.coerce.number().int().min(1).max(365);
const activityDaysSchema = z.coerce.number().int().min(1).max(3650);
const activityEntriesSchema = z.coerce.number().int().min(1000).max(10_000_000);

export class UsageError extends Error {}

const SIZE_UNITS: Record<string, number> = { '': 1, B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

/** `4GiB`, `512MiB`, `1048576`: a size in bytes; undefined when it is none. */
export function parseSize(text: string): number | undefined {
  const m = /^(\d+)\s*(B|KiB|MiB|GiB)?$/.exec(text.trim());
  if (!m) return undefined;
  const bytes = Number(m[1]) * SIZE_UNITS[m[2] ?? '']!;
  return bytes >= 1 && Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** `--help` or `-h` anywhere: the caller prints USAGE and exits 0 instead of starting. */
export const wantsHelp = (argv: readonly string[]): boolean => argv.includes('--help') || argv.includes('-h');

export function parseServeArgs(
  argv: readonly string[],
  defaults: {
    dataDir: string;
    geoipDb?: string | undefined;
    /** $SKIFF_DATABASE_URL, $SKIFF_REPLICA_ID: the flags win. */
    database?: string | undefined;
    replicaId?: string | undefined;
    /** $SKIFF_AUTHORIZE: the flag wins. */
    authorize?: string | undefined;
    /** $SKIFF_OIDC_CLIENT_SECRET: --oidc-client-secret-file wins. */
    oidcClientSecret?: string | undefined;
    /** $SKIFF_RECORD_CHANGES, $SKIFF_RECORD_NOISY_KINDS: the flags win. */
    recordChanges?: string | undefined;
    recordNoisyKinds?: string | undefined;
    /** $SKIFF_KEPT_LOGS, $SKIFF_KEPT_LOG_LINES, $SKIFF_KEPT_LOGS_MAX_BYTES: the flags win. */
    keptLogs?: KeptLogsEnv;
    /** $SKIFF_USAGE_INTERVAL: --usage-interval wins. */
    usageInterval?: string | undefined;
  },
): ServeOptions {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
  const { values } = parsed;
  const port = portSchema.safeParse(values.port ?? '7733');
  if (!port.success) throw new UsageError(`--port must be a whole number from 0 to 65535\n${USAGE}`);
  const timeoutMs = timeoutMsOf(values.timeout);
  if (timeoutMs === null) throw new UsageError(`${TIMEOUT_RULE}\n${USAGE}`);
  const access = accessMinutesSchema.optional().safeParse(values['access-token-minutes']);
  if (!access.success)
    throw new UsageError(`--access-token-minutes must be a whole number from 15 to 60\n${USAGE}`);
  const refresh = refreshDaysSchema.optional().safeParse(values['refresh-token-days']);
  if (!refresh.success)
    throw new UsageError(`--refresh-token-days must be a whole number from 1 to 365\n${USAGE}`);
  const activityDays = activityDaysSchema.safeParse(values['activity-retention'] ?? '90');
  if (!activityDays.success)
    throw new UsageError(`--activity-retention must be a whole number of days from 1 to 3650\n${USAGE}`);
  const activityEntries = activityEntriesSchema.safeParse(values['activity-max-entries'] ?? '100000');
  if (!activityEntries.success)
    throw new UsageError(`--activity-max-entries must be a whole number from 1000 to 10000000\n${USAGE}`);
  const eventHistory = parseEventHistoryArgs(values);
  let changeHistory: ChangeHistoryOptions;
  try {
    changeHistory = changeArgs(values, defaults);
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
  let keptLogs: Partial<KeptLogsOptions>;
  try {
    keptLogs = keptLogsArgs(values, defaults.keptLogs ?? {});
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
  let usage: UsageOptions | undefined;
  try {
    usage = usageArgs(values['usage-interval'], defaults.usageInterval);
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
  const watches = z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .safeParse(values['max-event-watches'] ?? '8');
  if (!watches.success)
    throw new UsageError(`--max-event-watches must be a whole number from 1 to 100\n${USAGE}`);
  const ttlText = values['demo-event-ttl'];
  const demoEventTtlMs = ttlText === undefined ? undefined : parseDuration(ttlText);
  if (ttlText !== undefined && demoEventTtlMs === undefined)
    throw new UsageError(`--demo-event-ttl must be a duration such as 30s, 15m, 1h\n${USAGE}`);
  const rolloutText = values['demo-bad-rollout'];
  const demoBadRolloutMs = rolloutText === undefined ? undefined : parseDuration(rolloutText);
  if (rolloutText !== undefined && demoBadRolloutMs === undefined)
    throw new UsageError(`--demo-bad-rollout must be a duration such as 30s, 2m, 1h\n${USAGE}`);
  const sizeText = values['snapshot-max-size'];
  const snapshotMaxBytes = sizeText === undefined ? undefined : parseSize(sizeText);
  if (sizeText !== undefined && snapshotMaxBytes === undefined)
    throw new UsageError(`--snapshot-max-size must be a size such as 4GiB, 512MiB or 1048576\n${USAGE}`);
  for (const flag of ['demo-kubeconfig', 'snapshot-kubeconfig'] as const) {
    if (values[flag] === '') throw new UsageError(`--${flag} needs the path of the file to write\n${USAGE}`);
  }
  if (values['snapshot-dir'] === '')
    throw new UsageError(`--snapshot-dir needs the folder capture files are kept in\n${USAGE}`);
  const geoipDb = values['geoip-db'] ?? defaults.geoipDb;
  const deployment = parseDeploymentArgs(values);
  for (const proxy of values['trust-proxy'] ?? []) {
    const [addr, bits] = proxy.split('/') as [string, string | undefined];
    const family = isIP(addr);
    const maxBits = family === 4 ? 32 : 128;
    if (family === 0 || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= maxBits))) {
      throw new UsageError(
        `--trust-proxy ${proxy}: give an IP address or CIDR (e.g. 127.0.0.1 or 10.0.0.0/8)\n${USAGE}`,
      );
    }
  }
  for (const entry of values['allowed-host'] ?? []) {
    if (!isAllowedHostEntry(entry))
      throw new UsageError(
        `--allowed-host ${JSON.stringify(entry)}: give a host name or address, optionally with a port (skiff.lan, skiff.lan:8443, [fd00::1]:443)\n${USAGE}`,
      );
  }
  const { database, replicaId } = parseDatabaseArgs(values, defaults);
  const authorize = parseAuthorizeArgs(values, defaults.authorize);
  let oidc: ReturnType<typeof parseOidcArgs>;
  try {
    oidc = parseOidcArgs(values, { clientSecret: defaults.oidcClientSecret }, deployment.publicUrl);
  } catch (err) {
    if (err instanceof OidcUsageError) throw new UsageError(`${err.message}\n${USAGE}`);
    throw err;
  }
  return {
    host: values.host ?? '127.0.0.1',
    port: port.data,
    kubeconfig: values.kubeconfig ?? [],
    dataDir: values['data-dir'] ?? defaults.dataDir,
    // Asking for the demo's kubeconfig asks for the demo.
    demo: (values.demo ?? false) || values['demo-kubeconfig'] !== undefined,
    timeoutMs,
    ...(values['static-dir'] ? { staticDir: values['static-dir'] } : {}),
    trustProxy: values['trust-proxy'] ?? [],
    allowedHosts: values['allowed-host'] ?? [],
    ...(geoipDb ? { geoipDb } : {}),
    ...(access.data !== undefined ? { accessTokenMinutes: access.data } : {}),
    ...(refresh.data !== undefined ? { refreshTokenDays: refresh.data } : {}),
    eventHistory,
    changeHistory,
    keptLogs,
    ...(usage ? { usage } : {}),
    ...(demoEventTtlMs !== undefined ? { demoEventTtlMs } : {}),
    ...(demoBadRolloutMs !== undefined ? { demoBadRolloutMs } : {}),
    activityRetentionDays: activityDays.data,
    activityMaxEntries: activityEntries.data,
    maxEventWatches: watches.data,
    snapshots: values.snapshot ?? [],
    ...(snapshotMaxBytes !== undefined ? { snapshotMaxBytes } : {}),
    ...(values['snapshot-kubeconfig'] ? { snapshotKubeconfig: values['snapshot-kubeconfig'] } : {}),
    ...(values['snapshot-dir'] ? { snapshotDir: values['snapshot-dir'] } : {}),
    ...(values['demo-kubeconfig'] ? { demoKubeconfig: values['demo-kubeconfig'] } : {}),
    ...(database !== undefined ? { database } : {}),
    ...(replicaId !== undefined ? { replicaId } : {}),
    ...(values['secret-key-file'] !== undefined ? { secretKeyFile: values['secret-key-file'] } : {}),
    ...deployment,
    ...(authorize ? { authorize } : {}),
    ...oidc,
  };
}

/** --authorize rbac|none (else $SKIFF_AUTHORIZE, default none) and the prefixes RBAC names accounts with. */
function parseAuthorizeArgs(
  values: ReturnType<typeof parse>['values'],
  env: string | undefined,
): ServeOptions['authorize'] {
  const mode = values.authorize ?? (env || 'none');
  if (mode !== 'rbac' && mode !== 'none')
    throw new UsageError(`--authorize must be rbac or none (got ${JSON.stringify(mode)})\n${USAGE}`);
  const localPrefix = values['rbac-local-prefix'];
  const oidcPrefix = values['rbac-oidc-prefix'];
  if (mode === 'none') {
    if (localPrefix !== undefined || oidcPrefix !== undefined)
      throw new UsageError(`--rbac-local-prefix and --rbac-oidc-prefix need --authorize rbac\n${USAGE}`);
    return undefined;
  }
  if (localPrefix === '')
    throw new UsageError(
      `--rbac-local-prefix must not be empty: local accounts would pass for the cluster's own users\n${USAGE}`,
    );
  return { localPrefix: localPrefix ?? 'skiff:', oidcPrefix: oidcPrefix ?? '' };
}

/** The longest --shutdown-grace: well past any pod's terminationGracePeriodSeconds that makes sense. */
const MAX_GRACE_MS = 10 * 60_000;

/** --in-cluster, --cluster-name, --tls-cert/--tls-key, --public-url, --shutdown-grace. */
function parseDeploymentArgs(
  values: ReturnType<typeof parse>['values'],
): Pick<ServeOptions, 'inCluster' | 'clusterName' | 'tls' | 'publicUrl' | 'shutdownGraceMs'> {
  if (values['in-cluster'] && values['no-in-cluster'])
    throw new UsageError(`--in-cluster and --no-in-cluster contradict each other\n${USAGE}`);
  const inCluster = values['in-cluster'] ? true : values['no-in-cluster'] ? false : undefined;
  const clusterName = values['cluster-name'] ?? 'in-cluster';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(clusterName))
    throw new UsageError(
      `--cluster-name must be 1-63 letters, digits, '.', '_' or '-', starting with a letter or digit\n${USAGE}`,
    );
  const cert = values['tls-cert'];
  const key = values['tls-key'];
  if ((cert === undefined) !== (key === undefined) || cert === '' || key === '')
    throw new UsageError(`--tls-cert and --tls-key go together, each naming a PEM file\n${USAGE}`);
  const publicUrl = values['public-url'];
  const parsedUrl = publicUrl === undefined ? undefined : URL.parse(publicUrl);
  if (
    publicUrl !== undefined &&
    (!parsedUrl ||
      !/^https?:$/.test(parsedUrl.protocol) ||
      parsedUrl.pathname !== '/' ||
      parsedUrl.search !== '' ||
      parsedUrl.hash !== '' ||
      parsedUrl.username !== '' ||
      parsedUrl.password !== '')
  )
    throw new UsageError(
      `--public-url ${publicUrl}: give the http(s) origin clients use, without a path (https://skiff.example.com)\n${USAGE}`,
    );
  const graceText = values['shutdown-grace'];
  const shutdownGraceMs = graceText === undefined ? 20_000 : parseDuration(graceText);
  if (shutdownGraceMs === undefined || shutdownGraceMs > MAX_GRACE_MS)
    throw new UsageError(`--shutdown-grace must be a duration from 1s to 10m, such as 20s\n${USAGE}`);
  return {
    ...(inCluster !== undefined ? { inCluster } : {}),
    clusterName,
    ...(cert !== undefined && key !== undefined ? { tls: { certFile: cert, keyFile: key } } : {}),
    ...(parsedUrl ? { publicUrl: parsedUrl.origin } : {}),
    shutdownGraceMs,
  };
}

/** --database / $SKIFF_DATABASE_URL and --replica-id / $SKIFF_REPLICA_ID; an empty variable is unset. */
function parseDatabaseArgs(
  values: ReturnType<typeof parse>['values'],
  env: { database?: string | undefined; replicaId?: string | undefined },
): Pick<ServeOptions, 'database' | 'replicaId'> {
  const [text, source] =
    values.database !== undefined
      ? [values.database, '--database']
      : [env.database || undefined, 'SKIFF_DATABASE_URL'];
  let database: string | undefined;
  try {
    database = text === undefined ? undefined : checkDatabaseUrl(text, source);
  } catch (err) {
    if (err instanceof DatabaseUrlError) throw new UsageError(`${err.message}\n${USAGE}`);
    throw err;
  }
  const replicaId = values['replica-id'] ?? (env.replicaId || undefined);
  if (replicaId !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(replicaId))
    throw new UsageError(
      `--replica-id must be 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit\n${USAGE}`,
    );
  return {
    ...(database !== undefined ? { database } : {}),
    ...(replicaId !== undefined ? { replicaId } : {}),
  };
}

/** NAME or NAME:PORT as a Host header carries it: a DNS name, an IPv4 address or an IPv6 one in brackets. */
const ALLOWED_HOST_ENTRY = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::(\d{1,5}))?$/i;

function isAllowedHostEntry(entry: string): boolean {
  const match = ALLOWED_HOST_ENTRY.exec(entry.trim());
  if (!match) return false;
  const port = match[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65_535);
}

function parseEventHistoryArgs(values: ReturnType<typeof parse>['values']): EventHistoryOptions {
  const record = values['record-events'];
  if (record !== undefined && record !== 'viewed' && record !== 'all' && record !== 'off')
    throw new UsageError(`--record-events must be viewed, all or off\n${USAGE}`);
  const retention = values['event-retention'];
  const retentionMs = retention === undefined ? undefined : parseDuration(retention);
  if (retention !== undefined && retentionMs === undefined)
    throw new UsageError(`--event-retention must be a duration such as 7d, 12h, 30m\n${USAGE}`);
  const max = values['event-history-max'];
  if (max !== undefined && !(/^\d+$/.test(max) && Number(max) >= 1 && Number(max) <= 100_000_000))
    throw new UsageError(`--event-history-max must be a whole number from 1 to 100000000\n${USAGE}`);
  return {
    ...(record !== undefined ? { record } : {}),
    ...(retentionMs !== undefined ? { retentionMs } : {}),
    ...(max !== undefined ? { maxPerCluster: Number(max) } : {}),
  };
}

function parse(argv: readonly string[]) {
  return parseOptions(argv, {
    ...CLUSTER_OPTIONS,
    host: { type: 'string' },
    port: { type: 'string' },
    'data-dir': { type: 'string' },
    'static-dir': { type: 'string' },
    'trust-proxy': { type: 'string', multiple: true },
    'allowed-host': { type: 'string', multiple: true },
    'geoip-db': { type: 'string' },
    'access-token-minutes': { type: 'string' },
    'refresh-token-days': { type: 'string' },
    'record-events': { type: 'string' },
    'event-retention': { type: 'string' },
    'event-history-max': { type: 'string' },
    ...CHANGE_FLAGS,
    'demo-event-ttl': { type: 'string' },
    'demo-bad-rollout': { type: 'string' },
    'activity-retention': { type: 'string' },
    'activity-max-entries': { type: 'string' },
    'max-event-watches': { type: 'string' },
    'usage-interval': { type: 'string' },
    ...KEPT_LOGS_FLAGS,
    snapshot: { type: 'string', multiple: true },
    'snapshot-max-size': { type: 'string' },
    'snapshot-kubeconfig': { type: 'string' },
    'snapshot-dir': { type: 'string' },
    'demo-kubeconfig': { type: 'string' },
    database: { type: 'string' },
    'replica-id': { type: 'string' },
    'secret-key-file': { type: 'string' },
    'in-cluster': { type: 'boolean' },
    'no-in-cluster': { type: 'boolean' },
    'cluster-name': { type: 'string' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'public-url': { type: 'string' },
    'shutdown-grace': { type: 'string' },
    authorize: { type: 'string' },
    'rbac-local-prefix': { type: 'string' },
    'rbac-oidc-prefix': { type: 'string' },
    ...OIDC_FLAGS,
  });
}

export const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);
