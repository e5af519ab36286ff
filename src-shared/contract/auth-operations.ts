/**
 * The authentication operations of the contract. It runs past 300 lines because each operation
 * is one declarative entry (path, schemas, auth level, result) and they belong together: the
 * session, token, API key, account and activity operations share their parameters.
 */
import { z } from 'zod';
import {
  ACTIVITY_TYPES,
  type ActivityType,
  account,
  activityEntry,
  apiKeyRecord,
  createdApiKey,
  currentSession,
  loginResult,
  sessionRecord,
  tokenPair,
  whoAmI,
} from './auth-models';
import { defineOperation, streamBody } from './define';
import { booleanParam, documented, idParam, pageQuery } from './params';
import { INSTANT_RANGE, instantRefusal, unlessRefused } from './time-range';

/** Authentication operations: login, refresh, sessions, activity, API keys and accounts. */

const none = z.strictObject({});
const noBody = z.undefined();
/** Some clients send `{}` with a POST that takes nothing; both mean the same. */
const emptyBody = z.strictObject({}).optional();

/** Where a login's refresh token goes: the answer's body (scripts, the desktop app) or a cookie (a browser). */
const refreshTokenInField = z.enum(['body', 'cookie']).optional().meta({
  description:
    '"body" (default): the refresh token is in the answer. "cookie": it is set as the HttpOnly, SameSite=Strict cookie skiff_refresh, sent only to POST /v1/auth/refresh, and the answer leaves it out; for browsers, whose scripts then never hold it.',
});

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

/** An RFC 3339 time with a zone, as epoch ms. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
const instantParam = (name: string) =>
  documented(instantText(name), {
    type: 'string',
    format: 'date-time',
    description: `${name}: an RFC 3339 time with a zone, ${INSTANT_RANGE}.`,
  });

const instantText = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx): number | undefined => {
      if (raw === undefined || raw === '') return undefined;
      const ms = RFC3339.test(raw) ? Date.parse(raw) : Number.NaN;
      if (Number.isFinite(ms)) return unlessRefused(ctx, instantRefusal(name, ms), ms);
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be an RFC 3339 time with a zone, e.g. 2026-03-01T09:00:00Z`,
      });
      return z.NEVER;
    });

/** `type=login,logout`: kinds of activity, any of which an entry may have. */
const activityTypesParam = documented(
  z
    .string()
    .optional()
    .transform((raw, ctx): ActivityType[] | undefined => {
      if (raw === undefined || raw.trim() === '') return undefined;
      const types = [...new Set(raw.split(',').map((t) => t.trim()))];
      const unknown = types.filter((t) => !(ACTIVITY_TYPES as readonly string[]).includes(t));
      if (unknown.length === 0) return types as ActivityType[];
      ctx.addIssue({
        code: 'custom',
        message: `unknown activity type "${unknown[0]}"; accepted values: ${ACTIVITY_TYPES.join(', ')}`,
      });
      return z.NEVER;
    }),
  {
    type: 'string',
    description: `Comma-separated kinds of activity: ${ACTIVITY_TYPES.join(', ')}.`,
    examples: ['login,logout'],
  },
);

/**
 * The activity log's filters. `accountId` omitted: the caller's own account; an administrator may
 * name any account, or `all`.
 */
export const activityFilterQuery = {
  accountId: z.string().min(1).max(200).optional(),
  sessionId: z.string().max(200).optional(),
  type: activityTypesParam,
  since: instantParam('since'),
  until: instantParam('until'),
};

export const ACTIVITY_EXPORT_TYPES = ['text/csv', 'application/json'] as const;

export const authOperations = {
  login: defineOperation({
    method: 'POST',
    path: '/v1/auth/login',
    summary:
      'Log in with a username and password; starts a session and answers its first tokens (the refresh token in the body, or with refreshTokenIn "cookie" in an HttpOnly cookie).',
    auth: 'public',
    requiresJson: true,
    params: none,
    query: none,
    body: bodyObject(
      {
        username: z.string().min(1).max(200),
        password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
        refreshTokenIn: refreshTokenInField,
      },
      '{"username": "…", "password": "…"}',
    ),
    result: loginResult,
    paginated: false,
  }),

  refresh: defineOperation({
    method: 'POST',
    path: '/v1/auth/refresh',
    summary:
      'Trade a refresh token (in the body, or else the skiff_refresh cookie) for a new access token and a new refresh token, which goes back where the old one came from.',
    auth: 'public',
    requiresJson: true,
    params: none,
    query: none,
    // No body, or one without refreshToken: the token is the skiff_refresh cookie (a browser's).
    body: z.strictObject({ refreshToken: z.string().min(1).max(500).optional() }).optional(),
    result: tokenPair,
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
    result: whoAmI,
    paginated: false,
  }),

  currentSession: defineOperation({
    method: 'GET',
    path: '/v1/session',
    summary:
      'Whether the credentials sent (if any) name a live session or API key, and whose; 200 either way.',
    auth: 'optional',
    params: none,
    query: none,
    body: noBody,
    result: currentSession,
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
    result: z.array(sessionRecord),
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
    result: sessionRecord,
    paginated: false,
  }),

  listActivity: defineOperation({
    method: 'GET',
    path: '/v1/auth/activity',
    summary:
      'The security activity log (logins, refreshes, logouts, API keys...), newest first; filters accountId, type, since, until, sessionId.',
    auth: 'session',
    params: none,
    query: z.strictObject({ ...activityFilterQuery, ...pageQuery }),
    body: noBody,
    result: z.array(activityEntry),
    paginated: true,
  }),

  exportActivity: defineOperation({
    method: 'GET',
    path: '/v1/auth/activity/export',
    summary:
      'Every activity entry the filters select, newest first, as text/csv (default) or application/json; format=csv|json overrides Accept.',
    auth: 'session',
    params: none,
    query: z.strictObject({ ...activityFilterQuery, format: z.enum(['csv', 'json']).optional() }),
    body: noBody,
    result: streamBody(),
    paginated: false,
    streaming: true,
    produces: ACTIVITY_EXPORT_TYPES,
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
    result: z.strictObject({ endedSessions: z.number().int() }),
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
    result: z.array(apiKeyRecord),
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
    result: createdApiKey,
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
    result: apiKeyRecord,
    paginated: false,
  }),

  listAccounts: defineOperation({
    method: 'GET',
    path: '/v1/auth/accounts',
    summary: 'Every account, local and made by the identity provider at first sign-in (administrators only).',
    auth: 'session',
    params: none,
    query: z.strictObject({ ...pageQuery }),
    body: noBody,
    result: z.array(account),
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
    result: account,
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
    result: account,
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
    result: account,
    paginated: false,
  }),
} as const;
