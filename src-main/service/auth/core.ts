import type { ClientDescription } from '../../../src-shared/contract/auth-models';
import type { ClientInfo } from '../context';
import type { Logger } from '../logger';
import type { KeyValueStore } from '../storage/store';
import { Accounts } from './accounts';
import { ActivityLog } from './activity';
import { ApiKeys } from './api-keys';
import { createAuthenticator } from './authenticator';
import { bootstrapAdmin } from './bootstrap';
import type { GeoLocator } from './geo';
import type { AuthOptions, ResolvedLifetimes } from './options';
import { PendingWork } from './pending-work';
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimits } from './rate-limit';
import { TokenIssuer } from './refresh';
import { SessionStore } from './sessions';
import { AccessTokens } from './tokens';
import { describeUserAgent } from './user-agent';

/** Everything authentication holds, built once the signing key is loaded and the first admin exists. */
export interface AuthCore {
  accounts: Accounts;
  sessions: SessionStore;
  apiKeys: ApiKeys;
  activity: ActivityLog;
  issuer: TokenIssuer;
  limiter: RateLimiter;
  rateLimits: RateLimits;
  authenticator: ReturnType<typeof createAuthenticator>;
  now: () => number;
  dataDir: string | undefined;
  logger: Logger;
  /** Writes that outlive their request; close drains them. */
  pending: PendingWork;
  /** What a session or activity entry records about the calling device. */
  describe(client: Pick<ClientInfo, 'address' | 'userAgent'>): Promise<ClientDescription>;
}

export interface CoreInputs {
  store: KeyValueStore;
  activityStore: KeyValueStore;
  options: AuthOptions;
  lifetimes: ResolvedLifetimes;
  geo: GeoLocator;
  now: () => number;
  dataDir: string | undefined;
  logger: Logger;
}

export async function createCore(inputs: CoreInputs): Promise<AuthCore> {
  const { store, options, lifetimes, geo, now, logger } = inputs;
  const accounts = new Accounts(store, now, options.passwordCost);
  const activity = new ActivityLog(inputs.activityStore, now);
  const sessions = new SessionStore(store, now, activity);
  const apiKeys = new ApiKeys(store, now);
  const tokens = await AccessTokens.load(store, now, lifetimes.accessTtlMs);
  await bootstrapAdmin(accounts, {
    ...(options.adminPassword !== undefined ? { adminPassword: options.adminPassword } : {}),
    ...(inputs.dataDir ? { dataDir: inputs.dataDir } : {}),
    ...(options.onAdminCreated ? { onAdminCreated: options.onAdminCreated } : {}),
    logger,
  });
  await accounts.warmUp();
  sessions.sweep();
  const issuer = new TokenIssuer(tokens, sessions, activity, now, lifetimes);
  return {
    accounts,
    sessions,
    apiKeys,
    activity,
    issuer,
    limiter: new RateLimiter(now),
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    authenticator: createAuthenticator({ tokens, sessions, apiKeys, accounts }),
    now,
    dataDir: inputs.dataDir,
    logger,
    pending: new PendingWork(),
    async describe(client) {
      return { ...describeUserAgent(client.userAgent), location: await geo.locate(client.address) };
    },
  };
}
