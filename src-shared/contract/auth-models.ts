import { z } from 'zod';

/**
 * Data shapes of authentication: accounts, login sessions, tokens, API keys and the activity log,
 * as strict zod schemas with their types inferred (see models.ts for why).
 */

const isoTime = (description = 'ISO 8601 UTC.') => z.string().meta({ description });

export const sessionStatus = z.enum(['active', 'expired', 'logged_out']).meta({ id: 'SessionStatus' });
export type SessionStatus = z.infer<typeof sessionStatus>;

/** How a session ended, when it did; `expired` sessions end with 'expired'. */
export const sessionEndReason = z
  .enum([
    'logout',
    'refresh_token_reused',
    'password_changed',
    'account_removed',
    'expired',
    'oidc_access_removed',
  ])
  .meta({ id: 'SessionEndReason' });
export type SessionEndReason = z.infer<typeof sessionEndReason>;

/** What kind of program holds the session: a browser, a script (curl, python-requests...) or the desktop app. */
export const clientType = z.enum(['browser', 'script', 'desktop-app', 'unknown']).meta({ id: 'ClientType' });
export type ClientType = z.infer<typeof clientType>;

export const deviceInfo = z
  .strictObject({
    type: z.string().meta({
      description: 'desktop, mobile, tablet, console, smarttv, wearable, embedded, or unknown (scripts).',
    }),
    vendor: z.string().nullable(),
    model: z.string().nullable(),
  })
  .meta({ id: 'DeviceInfo' });
export type DeviceInfo = z.infer<typeof deviceInfo>;

export const nameVersion = z
  .strictObject({ name: z.string().nullable(), version: z.string().nullable() })
  .meta({ id: 'NameVersion' });
export type NameVersion = z.infer<typeof nameVersion>;

export const locationKind = z.enum(['loopback', 'private', 'public', 'unknown']).meta({ id: 'LocationKind' });
export type LocationKind = z.infer<typeof locationKind>;

/** City-level location, estimated from the client address with its last octet (IPv4) or 80 bits (IPv6) removed. */
export const sessionLocation = z
  .strictObject({
    kind: locationKind,
    label: z.string().meta({
      description:
        'What a person reads: "This device", "Local network", "Mountain View, California, United States".',
    }),
    city: z.string().nullable(),
    region: z.string().nullable(),
    country: z.string().nullable().meta({ description: 'Country name in English.' }),
    countryCode: z.string().nullable().meta({ description: 'ISO 3166-1 alpha-2.' }),
    network: z.string().nullable().meta({
      description: 'The /24 (IPv4) or /48 (IPv6) network of the client; the full address is never stored.',
    }),
  })
  .meta({ id: 'SessionLocation' });
export type SessionLocation = z.infer<typeof sessionLocation>;

const clientDescriptionShape = {
  clientType,
  device: deviceInfo,
  browser: nameVersion,
  os: nameVersion,
  location: sessionLocation,
};

/** Who a session belongs to on the client side; set at login and kept for the session's life. */
export const clientDescription = z.strictObject(clientDescriptionShape).meta({ id: 'ClientDescription' });
export type ClientDescription = z.infer<typeof clientDescription>;

/** The session record of the session list. */
export const sessionRecord = z
  .strictObject({
    ...clientDescriptionShape,
    sessionId: z.string(),
    status: sessionStatus,
    current: z.boolean().meta({ description: 'True for the session whose access token made this request.' }),
    firstLoginAt: isoTime(),
    lastSeenAt: isoTime(),
    expiresAt: isoTime(
      'When the session ends unless refreshed (idle limit), never later than its absolute limit; ISO 8601 UTC.',
    ),
    endedAt: z.string().nullable(),
    endReason: sessionEndReason.nullable(),
  })
  .meta({ id: 'SessionRecord' });
export type SessionRecord = z.infer<typeof sessionRecord>;

/** The decoded payload of an access token (a JWT). Times are Unix seconds. */
export const authPayload = z
  .strictObject({
    sub: z.string(),
    sid: z.string(),
    jti: z.string(),
    iat: z.number().int(),
    exp: z.number().int().meta({ description: 'Unix seconds.' }),
  })
  .meta({ id: 'AuthPayload' });
export type AuthPayload = z.infer<typeof authPayload>;

const tokenPairShape = {
  accessToken: z.string(),
  refreshToken: z.string().optional().meta({
    description:
      'The new refresh token; absent when it went into the HttpOnly skiff_refresh cookie instead (refreshTokenIn "cookie").',
  }),
  auth: authPayload,
};

/** The refresh payload: both tokens rotate, `auth` is the new access token's decoded payload. */
export const tokenPair = z.strictObject(tokenPairShape).meta({ id: 'TokenPair' });
export type TokenPair = z.infer<typeof tokenPair>;

export const loginResult = z
  .strictObject({ ...tokenPairShape, sessionId: z.string() })
  .meta({ id: 'LoginResult' });
export type LoginResult = z.infer<typeof loginResult>;

export const accountRole = z.enum(['admin', 'member']).meta({ id: 'AccountRole' });
export type AccountRole = z.infer<typeof accountRole>;

export const account = z
  .strictObject({
    accountId: z.string(),
    username: z.string(),
    role: accountRole,
    workspaces: z.union([z.literal('all'), z.array(z.string())]).meta({
      description: "'all' for administrators; otherwise the workspaces the account is a member of.",
    }),
    createdAt: z.string(),
    passwordChangedAt: z.string(),
    source: z.enum(['local', 'oidc']).meta({
      description:
        'local: made by an administrator, signs in with a password. oidc: made at a first sign-in with the identity provider; has no password.',
    }),
    groups: z.array(z.string()).meta({
      description:
        'The groups the identity provider last gave (re-read at every recheck); [] for local accounts.',
    }),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof account>;

export const apiKeyStatus = z.enum(['active', 'expired', 'revoked']).meta({ id: 'ApiKeyStatus' });
export type ApiKeyStatus = z.infer<typeof apiKeyStatus>;

export const apiKeyRecord = z
  .strictObject({
    apiKeyId: z.string(),
    name: z.string(),
    hint: z.string().meta({
      description: 'The first characters of the key, to recognise it; the key itself is shown only once.',
    }),
    workspaces: z
      .array(z.string())
      .nullable()
      .meta({ description: 'null: every workspace the owner is a member of.' }),
    status: apiKeyStatus,
    createdAt: z.string(),
    expiresAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'ApiKeyRecord' });
export type ApiKeyRecord = z.infer<typeof apiKeyRecord>;

export const createdApiKey = z
  .strictObject({
    apiKey: apiKeyRecord,
    key: z.string().meta({ description: 'The secret; send it as `X-API-Key`. Shown only in this response.' }),
  })
  .meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof createdApiKey>;

export const ACTIVITY_TYPES = [
  'login',
  'login_failed',
  'refresh',
  'logout',
  'refresh_token_reused',
  'session_expired',
  'password_changed',
  'api_key_created',
  'api_key_used',
  'api_key_revoked',
  'oidc_access_removed',
  'oidc_groups_changed',
] as const;
export const activityType = z.enum(ACTIVITY_TYPES).meta({ id: 'ActivityType' });
export type ActivityType = z.infer<typeof activityType>;

export const activityEntry = z
  .strictObject({
    activityId: z.string(),
    type: activityType,
    at: isoTime(),
    accountId: z.string().meta({ description: 'The account the entry is about.' }),
    username: z
      .string()
      .nullable()
      .meta({ description: "The account's name; null once the account is gone." }),
    sessionId: z.string().nullable(),
    apiKeyId: z.string().nullable(),
    by: z
      .strictObject({
        accountId: z.string(),
        username: z.string().nullable(),
        sessionId: z.string().nullable(),
      })
      .nullable()
      .meta({
        description:
          'Who did it, when not the session itself: another session of the account, or an administrator.',
      }),
    client: clientDescription
      .nullable()
      .meta({ description: 'The device the event came from, when one did.' }),
    detail: z.string().nullable(),
  })
  .meta({ id: 'ActivityEntry' });
export type ActivityEntry = z.infer<typeof activityEntry>;

export const whoAmI = z
  .strictObject({ account, sessionId: z.string().nullable(), apiKeyId: z.string().nullable() })
  .meta({ id: 'WhoAmI' });
export type WhoAmI = z.infer<typeof whoAmI>;

/** Where the generated first administrator's password is, for a login page to say. */
export const firstLogin = z
  .strictObject({
    username: z.string(),
    passwordFile: z.string().nullable().meta({
      description:
        "The file it was written to (mode 0600, on the service's machine); null when the service has no data dir and only printed it on its console at start.",
    }),
  })
  .meta({ id: 'FirstLogin' });
export type FirstLogin = z.infer<typeof firstLogin>;

/**
 * GET /v1/session: whether the request's credentials name a live session (or API key), answered
 * without an error either way, so a page can ask before its login.
 */
export const currentSession = z
  .discriminatedUnion('authenticated', [
    z.strictObject({
      authenticated: z.literal(false),
      firstLogin: firstLogin.optional().meta({
        description:
          'Present while the generated administrator is the only account and still has its generated password: where that password is (never the password).',
      }),
    }),
    z.strictObject({
      authenticated: z.literal(true),
      account,
      sessionId: z.string().nullable().meta({
        description: 'The login session the access token belongs to; null when an API key called.',
      }),
      apiKeyId: z.string().nullable(),
      expiresAt: isoTime(
        'When the session (idle limit) or the API key ends unless used or refreshed; ISO 8601 UTC.',
      ),
    }),
  ])
  .meta({ id: 'CurrentSession' });
export type CurrentSession = z.infer<typeof currentSession>;
