import type { IncomingMessage } from 'node:http';
import type { ClientDescription, FirstLogin } from '../../../src-shared/contract/auth-models';
import type { ClientInfo } from '../context';
import type { Logger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { Accounts } from './accounts';
import { ActivityLog } from './activity';
import { ApiKeyUseLog } from './api-key-use';
import { ApiKeys } from './api-keys';
import { createAuthenticator } from './authenticator';
import { bootstrapAdmin, firstLoginOf } from './bootstrap';
import type { GeoLocator } from './geo';
import { FailureBackoff } from './login-backoff';
import { type BackoffCounter, loginLimits, type WindowLimiter } from './login-limits';
import type { AuthOptions, ResolvedLifetimes } from './options';
import { PendingWork } from './pending-work';
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimits } from './rate-limit';
import { TokenIssuer } from './refresh';
import { ReplicaSync } from './replica-sync';
import { SessionStore } from './sessions';
import { AccessTokens } from './tokens';
import { describeUserAgent } from './user-agent';

/** Everything authentication holds, built once the signing key is loaded and the first admin exists. */
export interface AuthCore {
  /** The storage backend the tables live in (the OIDC flows and links use it directly). */
  backend: StorageBackend;
  accounts: Accounts;
  sessions: SessionStore;
  apiKeys: ApiKeys;
  activity: ActivityLog;
  issuer: TokenIssuer;
  /** Refreshes per address and per account, counted by this replica (rate-limit.ts). */
  limiter: RateLimiter;
  /** Login attempts per address and failures per account: shared by every replica on PostgreSQL (login-limits.ts). */
  loginLimiter: WindowLimiter;
  /** Failed password checks per account and source (login-backoff.ts), shared as loginLimiter is. */
  backoff: BackoffCounter;
  rateLimits: RateLimits;
  authenticator: ReturnType<typeof createAuthenticator>;
  now: () => number;
  dataDir: string | undefined;
  logger: Logger;
  /** Writes that outlive their request; close drains them. */
  pending: PendingWork;
  /** What keeps memory true to the tables other replicas write (replica-sync.ts). */
  replicas: ReplicaSync;
  /** Where the generated first password is, while it is the only way in (bootstrap.ts). */
  firstLogin(): FirstLogin | null;
  /** What a session or activity entry records about the calling device. */
  describe(client: Pick<ClientInfo, 'address' | 'userAgent'>): Promise<ClientDescription>;
  /**
   * Set once the optional parts are built: `refreshed` runs after every Skiff refresh (the OIDC
   * recheck, which may end the account's sessions and throw); `groupWorkspaces` names the
   * workspaces whose member groups include one of an account's provider groups.
   */
  hooks: {
    refreshed?: (accountId: string) => Promise<void>;
    groupWorkspaces?: (groups: readonly string[]) => readonly string[];
  };
}

export interface CoreInputs {
  /** Where all of it is kept: the service's storage backend, opened and closed by its owner (storage/index.ts). */
  backend: StorageBackend;
  /** The client address of a request, as the HTTP edge resolves it (trusted proxies). */
  clientAddress: (req: IncomingMessage) => string | undefined;
  options: AuthOptions;
  lifetimes: ResolvedLifetimes;
  geo: GeoLocator;
  now: () => number;
  dataDir: string | undefined;
  logger: Logger;
}

export async function createCore(inputs: CoreInputs): Promise<AuthCore> {
  const { backend, options, lifetimes, geo, now, logger } = inputs;
  const replicas = new ReplicaSync(backend, logger);
  const accounts = await Accounts.load(backend, now, replicas, options.passwordCost);
  const activity = await ActivityLog.load(backend, now, {
    ...(options.activityRetentionDays !== undefined ? { retentionDays: options.activityRetentionDays } : {}),
    ...(options.activityMaxEntries !== undefined ? { maxEntries: options.activityMaxEntries } : {}),
  });
  const sessions = await SessionStore.load(backend, now, activity, replicas);
  const apiKeys = await ApiKeys.load(backend, now, replicas);
  const tokens = await AccessTokens.load({
    backend,
    now,
    ttlMs: lifetimes.accessTtlMs,
    secretKey: options.secretKey,
    logger,
  });
  const generated = await bootstrapAdmin(accounts, {
    ...(options.adminPassword !== undefined ? { adminPassword: options.adminPassword } : {}),
    ...(inputs.dataDir ? { dataDir: inputs.dataDir } : {}),
    ...(options.onAdminCreated ? { onAdminCreated: options.onAdminCreated } : {}),
    logger,
  });
  await accounts.warmUp();
  await sessions.sweep();
  activity.schedulePrune();
  await replicas.start({
    async changed(kind, id) {
      if (kind === 'account') await accounts.changed(id);
      else if (kind === 'api_key') await apiKeys.changed(id);
      else if (kind === 'account_sessions') await sessions.changedFor(id);
      else await sessions.changed(id);
    },
    async reloadAll() {
      await accounts.reloadAll();
      await sessions.reloadAll();
      await apiKeys.reloadAll();
    },
  });
  const issuer = new TokenIssuer(tokens, sessions, activity, now, lifetimes, backend);
  let keyUse: ApiKeyUseLog | undefined;
  const limiter = new RateLimiter(now);
  const login = loginLimits(backend, now, { limiter, backoff: new FailureBackoff(now) }, logger);
  const hooks: AuthCore['hooks'] = {};
  const core: AuthCore = {
    backend,
    hooks,
    accounts,
    sessions,
    apiKeys,
    activity,
    issuer,
    limiter,
    loginLimiter: login.limiter,
    backoff: login.backoff,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    authenticator: createAuthenticator({
      tokens,
      sessions,
      apiKeys,
      accounts,
      groupWorkspaces: (groups) => hooks.groupWorkspaces?.(groups) ?? [],
      onApiKeyUse: (key, req) =>
        keyUse?.used(key, { address: inputs.clientAddress(req), userAgent: req.headers['user-agent'] }),
    }),
    now,
    dataDir: inputs.dataDir,
    logger,
    pending: new PendingWork(),
    replicas,
    firstLogin: () => firstLoginOf(accounts, inputs.dataDir, generated),
    async describe(client) {
      return { ...describeUserAgent(client.userAgent), location: await geo.locate(client.address) };
    },
  };
  keyUse = new ApiKeyUseLog(core);
  return core;
}
