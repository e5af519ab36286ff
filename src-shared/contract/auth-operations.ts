import { z } from 'zod';
import type {
  Account,
  ActivityEntry,
  ApiKeyRecord,
  CreatedApiKey,
  LoginResult,
  SessionRecord,
  TokenPair,
  WhoAmI,
} from './auth-models';
import { defineOperation, returns } from './define';
import { booleanParam, idParam, pageQuery } from './params';

/** Authentication operations: login, refresh, sessions, activity, API keys and accounts. */

const none = z.strictObject({});
const noBody = z.undefined();
/** Some clients send `{}` with a POST that takes nothing; both mean the same. */
const emptyBody = z.strictObject({}).optional();

export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

const usernameField = z
  .string()
  .regex(
    USERNAME_PATTERN,
    'username must be 1-63 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit',
  );
const newPasswordField = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `password must have at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `password must have at most ${MAX_PASSWORD_LENGTH} characters`);
const roleField = z.enum(['admin', 'member']);
const workspacesField = z.array(idParam('workspace')).max(200);
/** Ids are looked up, not validated: a malformed id is as unknown as a missing one (404). */
const lookupId = z.string().min(1).max(200);

const bodyObject = <T extends z.core.$ZodLooseShape>(shape: T, example: string) =>
  z.strictObject(shape, {
    error: (issue) => (issue.input === undefined ? `a JSON body ${example} is required` : undefined),
  });

export const authOperations = {
  login: defineOperation({
    method: 'POST',
    path: '/v1/auth/login',
    summary: 'Log in with a username and password; starts a session and answers its first tokens.',
    auth: 'public',
    requiresJson: true,
    params: none,
    query: none,
    body: bodyObject(
      { username: z.string().min(1).max(200), password: z.string().min(1).max(MAX_PASSWORD_LENGTH) },
      '{"username": "…", "password": "…"}',
    ),
    result: returns<LoginResult>(),
    paginated: false,
  }),

  refresh: defineOperation({
    method: 'POST',
    path: '/v1/auth/refresh',
    summary: 'Trade a refresh token for a new access token and a new refresh token.',
    auth: 'public',
    requiresJson: true,
    params: none,
    query: none,
    body: bodyObject({ refreshToken: z.string().min(1).max(500) }, '{"refreshToken": "…"}'),
    result: returns<TokenPair>(),
    paginated: false,
  }),

  whoAmI: defineOperation({
    method: 'GET',
    path: '/v1/auth/me',
    summary: 'The calling account, and the session or API key it called with.',
    auth: 'credential',
    params: none,
    query: none,
    body: noBody,
    result: returns<WhoAmI>(),
    paginated: false,
  }),

  listSessions: defineOperation({
    method: 'GET',
    path: '/v1/auth/sessions',
    summary: "The caller's login sessions, newest first; active only unless includeExpired=true.",
    auth: 'session',
    params: none,
    query: z.strictObject({ includeExpired: booleanParam('includeExpired'), ...pageQuery }),
    body: noBody,
    result: returns<SessionRecord[]>(),
    paginated: true,
  }),

  logoutSession: defineOperation({
    method: 'POST',
    path: '/v1/auth/sessions/:sessionId/logout',
    summary: 'End one of the caller’s sessions at once; its access and refresh tokens stop working.',
    auth: 'session',
    params: z.strictObject({ sessionId: lookupId }),
    query: none,
    body: emptyBody,
    result: returns<SessionRecord>(),
    paginated: false,
  }),

  listActivity: defineOperation({
    method: 'GET',
    path: '/v1/auth/activity',
    summary: "The caller's account activity (logins, refreshes, logouts...), newest first.",
    auth: 'session',
    params: none,
    query: z.strictObject({ sessionId: z.string().max(200).optional(), ...pageQuery }),
    body: noBody,
    result: returns<ActivityEntry[]>(),
    paginated: true,
  }),

  changePassword: defineOperation({
    method: 'POST',
    path: '/v1/auth/password',
    summary: "Change the caller's password; every other session of the account ends.",
    auth: 'session',
    requiresJson: true,
    params: none,
    query: none,
    body: bodyObject(
      { currentPassword: z.string().min(1).max(MAX_PASSWORD_LENGTH), newPassword: newPasswordField },
      '{"currentPassword": "…", "newPassword": "…"}',
    ),
    result: returns<{ endedSessions: number }>(),
    paginated: false,
  }),

  listApiKeys: defineOperation({
    method: 'GET',
    path: '/v1/auth/api-keys',
    summary: "The caller's API keys (never the secrets), newest first.",
    auth: 'session',
    params: none,
    query: z.strictObject({ ...pageQuery }),
    body: noBody,
    result: returns<ApiKeyRecord[]>(),
    paginated: true,
  }),

  createApiKey: defineOperation({
    method: 'POST',
    path: '/v1/auth/api-keys',
    summary: 'Create an API key for scripts; the secret is in this response only.',
    auth: 'session',
    requiresJson: true,
    params: none,
    query: none,
    body: bodyObject(
      {
        name: z.string().trim().min(1, 'name must not be empty').max(100),
        workspaces: workspacesField.optional(),
        expiresInDays: z.number().int().min(1).max(365).optional(),
      },
      '{"name": "…"}',
    ),
    result: returns<CreatedApiKey>(),
    paginated: false,
    successStatus: 201,
  }),

  revokeApiKey: defineOperation({
    method: 'DELETE',
    path: '/v1/auth/api-keys/:apiKeyId',
    summary: 'Revoke one of the caller’s API keys at once.',
    auth: 'session',
    params: z.strictObject({ apiKeyId: lookupId }),
    query: none,
    body: noBody,
    result: returns<ApiKeyRecord>(),
    paginated: false,
  }),

  listAccounts: defineOperation({
    method: 'GET',
    path: '/v1/auth/accounts',
    summary: 'Every local account (administrators only).',
    auth: 'session',
    params: none,
    query: z.strictObject({ ...pageQuery }),
    body: noBody,
    result: returns<Account[]>(),
    paginated: true,
  }),

  createAccount: defineOperation({
    method: 'POST',
    path: '/v1/auth/accounts',
    summary: 'Create a local account (administrators only).',
    auth: 'session',
    requiresJson: true,
    params: none,
    query: none,
    body: bodyObject(
      {
        username: usernameField,
        password: newPasswordField,
        role: roleField.optional(),
        workspaces: workspacesField.optional(),
      },
      '{"username": "…", "password": "…"}',
    ),
    result: returns<Account>(),
    paginated: false,
    successStatus: 201,
  }),

  updateAccount: defineOperation({
    method: 'PATCH',
    path: '/v1/auth/accounts/:accountId',
    summary: "Change an account's role, workspaces or password (administrators only).",
    auth: 'session',
    requiresJson: true,
    params: z.strictObject({ accountId: lookupId }),
    query: none,
    body: bodyObject(
      {
        role: roleField.optional(),
        workspaces: workspacesField.optional(),
        password: newPasswordField.optional(),
      },
      '{"role" | "workspaces" | "password": …}',
    ).refine((b) => Object.keys(b).length > 0, 'give at least one of role, workspaces, password'),
    result: returns<Account>(),
    paginated: false,
  }),

  removeAccount: defineOperation({
    method: 'DELETE',
    path: '/v1/auth/accounts/:accountId',
    summary: 'Remove an account with its sessions and API keys (administrators only).',
    auth: 'session',
    params: z.strictObject({ accountId: lookupId }),
    query: none,
    body: noBody,
    result: returns<Account>(),
    paginated: false,
  }),
} as const;
