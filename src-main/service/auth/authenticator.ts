import type { IncomingMessage } from 'node:http';
import type { AuthRequirement } from '../../../src-shared/contract/define';
import type { Principal, PrincipalIdentity } from '../context';
import { ProblemError } from '../errors';
import type { Authenticator } from '../http/request-handler';
import { type Accounts, workspacesOf } from './accounts';
import type { ApiKeys } from './api-keys';
import { API_KEY_PREFIX } from './secrets';
import type { SessionStore } from './sessions';
import type { StoredAccount, StoredApiKey } from './state';
import { type AccessTokens, bearerChallenge, invalidToken } from './tokens';

/** Who calls a public operation: nobody in particular, and a member of nothing. */
export const ANONYMOUS: Principal = { accountId: '', workspaces: [] };

const BEARER = /^Bearer +([^\s]+) *$/i;

export interface Credentials {
  bearer?: string;
  apiKey?: string;
}

function readCredentials(req: IncomingMessage): Credentials {
  const header = req.headers.authorization;
  const apiKey = req.headers['x-api-key'];
  const out: Credentials = {};
  if (typeof apiKey === 'string' && apiKey.trim() !== '') out.apiKey = apiKey.trim();
  if (header !== undefined) {
    const m = BEARER.exec(header);
    if (!m) throw invalidToken('the Authorization header must be "Bearer <access token>"');
    out.bearer = m[1]!;
  }
  return out;
}

/** An optional credential that does not authenticate is no credential; other failures stay errors. */
function anonymousOn401(err: unknown): Principal {
  if (err instanceof ProblemError && err.status === 401) return ANONYMOUS;
  throw err;
}

/** The account as the cluster's RBAC is asked about it (`--authorize rbac`). */
function identityOf(account: StoredAccount): PrincipalIdentity {
  return { username: account.username, source: account.source, groups: account.groups };
}

export function createAuthenticator(deps: {
  tokens: AccessTokens;
  sessions: SessionStore;
  apiKeys: ApiKeys;
  accounts: Accounts;
  /** The workspaces provider groups give (workspaces' member groups); read per request, so a change applies at once. */
  groupWorkspaces?: (groups: readonly string[]) => readonly string[];
  /** Told of every request an API key authenticated (for the activity log). */
  onApiKeyUse?: (key: StoredApiKey, req: IncomingMessage) => void;
}) {
  const { tokens, sessions, apiKeys, accounts } = deps;

  /** Explicit membership, plus the workspaces the account's provider groups belong to. */
  function memberOf(account: StoredAccount): 'all' | readonly string[] {
    const explicit = workspacesOf(account);
    if (explicit === 'all' || account.groups.length === 0 || !deps.groupWorkspaces) return explicit;
    const derived = deps.groupWorkspaces(account.groups);
    return derived.length === 0 ? explicit : [...new Set([...explicit, ...derived])];
  }

  /** A live session's principal from an access token; 401 for anything else, logged-out sessions included. */
  async function fromAccessToken(token: string): Promise<Principal> {
    const payload = await tokens.verify(token);
    const session = await sessions.active(payload.sid);
    const account = await accounts.lookup(payload.sub);
    if (!session || session.accountId !== payload.sub || !account) {
      throw invalidToken('the session of this access token has ended');
    }
    await sessions.touch(session);
    return {
      accountId: account.accountId,
      sessionId: session.sessionId,
      admin: account.role === 'admin',
      workspaces: memberOf(account),
      identity: identityOf(account),
    };
  }

  async function fromApiKey(key: string, req: IncomingMessage): Promise<Principal> {
    const record = await apiKeys.authenticate(key);
    const account = record ? await accounts.lookup(record.accountId) : undefined;
    if (!record || !account) throw invalidToken('the API key is unknown, revoked or expired');
    deps.onApiKeyUse?.(record, req);
    const member = memberOf(account);
    // A key's scope narrows its owner's membership and never widens it; both are read per request
    // so that a membership change applies at once.
    const scoped =
      record.workspaces === null
        ? member
        : record.workspaces.filter((w) => member === 'all' || member.includes(w));
    return {
      accountId: account.accountId,
      apiKeyId: record.apiKeyId,
      workspaces: scoped,
      identity: identityOf(account),
    };
  }

  const authenticate: Authenticator = async (req: IncomingMessage, requirement: AuthRequirement) => {
    if (requirement === 'public') return ANONYMOUS;
    if (requirement === 'optional') return authenticate(req, 'credential').catch(anonymousOn401);
    const { bearer, apiKey } = readCredentials(req);
    const keyInBearer = bearer?.startsWith(API_KEY_PREFIX) ?? false;
    if (requirement === 'session' && (apiKey !== undefined || keyInBearer)) {
      throw new ProblemError(
        'api_key_not_allowed',
        'session management needs a Bearer access token from a login; API keys are refused here',
      );
    }
    if (bearer !== undefined && apiKey !== undefined) {
      throw new ProblemError(
        'unauthorized',
        'send either Authorization or X-API-Key, not both',
        {},
        bearerChallenge('more than one credential'),
      );
    }
    if (apiKey !== undefined) return fromApiKey(apiKey, req);
    if (bearer !== undefined) return keyInBearer ? fromApiKey(bearer, req) : fromAccessToken(bearer);
    throw new ProblemError(
      'unauthorized',
      'this endpoint needs Authorization: Bearer <access token> (POST /v1/auth/login gives one)',
      {},
      bearerChallenge('an access token is required'),
    );
  };

  return { authenticate, fromAccessToken };
}
