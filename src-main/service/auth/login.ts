import type { ClientDescription, LoginResult, TokenPair } from '../../../src-shared/contract/auth-models';
import type { ClientInfo } from '../context';
import { ProblemError } from '../errors';
import { BOOTSTRAP_ADMIN } from './accounts';
import type { AuthCore } from './core';
import { failureSource } from './login-backoff';
import { rateLimited } from './rate-limit';
import type { StoredAccount } from './state';
import type { ClientSoftware } from './user-agent';

type Caller = Pick<ClientInfo, 'address' | 'userAgent'>;

/**
 * Rate-limit keys name the address as seen after proxy resolution (an IPv6 one by its /64);
 * in-process callers share one.
 */
const addressKey = (client: Caller) => failureSource(client.address);

const badCredentials = () =>
  new ProblemError(
    'invalid_credentials',
    'the username or password is wrong',
    {},
    { 'WWW-Authenticate': 'Bearer realm="skiff"' },
  );

/**
 * A password check under the login limits, for a login and a password change alike. A source
 * (address) that must still wait is refused with 429 before the password is read, so it learns
 * nothing. A failure counts against that source and towards the account's ceiling; a success
 * forgets that source's failures and no other's. Failures elsewhere never refuse a source that
 * has not failed: many sources failing on an account only take their own free failures away.
 */
export async function checkPassword(
  core: AuthCore,
  username: string,
  password: string,
  client: Caller,
  what: string,
): Promise<StoredAccount | null> {
  const { loginLimiter: limiter, backoff, rateLimits } = core;
  const sourceKey = `login:source:${username}@${addressKey(client)}`;
  const accountKey = `login:account:${username}`;
  const underAttack = (await limiter.wait(accountKey, rateLimits.loginFailuresPerAccount)) > 0;
  const waitMs = await backoff.wait(
    sourceKey,
    rateLimits.loginFailuresPerSource,
    underAttack ? 1 : undefined,
  );
  if (waitMs > 0) throw rateLimited(waitMs, what);
  const account = await core.accounts.verify(username, password);
  if (account) {
    await backoff.reset(sourceKey);
    return account;
  }
  await backoff.failed(sourceKey, rateLimits.loginFailuresPerSource);
  await limiter.hit(accountKey, rateLimits.loginFailuresPerAccount);
  return null;
}

/**
 * Password login. The limits are checked before the password is, so a limited client learns
 * nothing; an unknown username and a wrong password take the same path and the same time.
 */
export async function login(
  core: AuthCore,
  username: string,
  password: string,
  client: Caller,
): Promise<LoginResult> {
  const { loginLimiter: limiter, rateLimits } = core;
  const name = username.trim().toLowerCase();
  const addrKey = `login:address:${addressKey(client)}`;
  await limiter.enforce(addrKey, rateLimits.loginPerAddress, 'login attempts from this address');
  // Counted before the check, so a burst of parallel guesses is bounded too. Only a wrong password
  // keeps counting: a success, or a source told to wait (no password was checked), is taken back.
  await limiter.hit(addrKey, rateLimits.loginPerAddress);
  const account = await checkPassword(
    core,
    name,
    password,
    client,
    'failed logins for this account from this address',
  ).catch(async (err: unknown) => {
    await limiter.forgive(addrKey);
    throw err;
  });
  if (!account) {
    const known = core.accounts.byUsername(name);
    // Recorded after the answer has gone, so the write cannot make a known name measurably slower.
    if (known) {
      core.pending.later(
        async () => {
          const device = await core.describe(client);
          await core.activity.record({ type: 'login_failed', accountId: known.accountId, client: device });
        },
        (err) => core.logger.warn({ err }, 'could not record a failed login'),
      );
    }
    throw badCredentials();
  }
  await limiter.forgive(addrKey);
  return startSession(core, account.accountId, await core.describe(client));
}

export async function startSession(
  core: AuthCore,
  accountId: string,
  client: ClientDescription,
): Promise<LoginResult> {
  const { session, ...pair } = await core.issuer.startSession(accountId, client);
  await core.activity.record({ type: 'login', accountId, sessionId: session.sessionId, client });
  core.logger.info({ accountId, sessionId: session.sessionId }, 'login');
  return { ...pair, sessionId: session.sessionId };
}

/** The desktop window's own session: no password, since its user owns the data dir already. */
export async function startLocalSession(
  core: AuthCore,
  software: ClientSoftware,
  username = BOOTSTRAP_ADMIN,
): Promise<LoginResult> {
  const account = core.accounts.byUsername(username) ?? core.accounts.list().find((a) => a.role === 'admin');
  if (!account) throw new ProblemError('account_not_found', `account "${username}" not found`);
  return startSession(core, account.accountId, {
    ...software,
    location: await core.describe({}).then((d) => d.location),
  });
}

export async function refresh(core: AuthCore, refreshToken: string, client: Caller): Promise<TokenPair> {
  const { limiter, rateLimits } = core;
  const addrKey = `refresh:address:${addressKey(client)}`;
  limiter.enforce(addrKey, rateLimits.refreshPerAddress, 'refreshes from this address');
  limiter.hit(addrKey, rateLimits.refreshPerAddress);
  const { pair, session } = await core.issuer.refresh(
    refreshToken,
    () => core.describe(client),
    (s) => {
      const key = `refresh:account:${s.accountId}`;
      limiter.enforce(key, rateLimits.refreshPerAccount, 'refreshes for this account');
      limiter.hit(key, rateLimits.refreshPerAccount);
    },
  );
  // An OIDC account due for its recheck is asked about now; a user removed at the provider has
  // just lost every session, and this refresh is refused with it (auth/oidc/recheck.ts).
  await core.hooks.refreshed?.(session.accountId);
  core.logger.debug({ sessionId: session.sessionId }, 'refresh');
  return pair;
}
