/** Data shapes of authentication: accounts, login sessions, tokens, API keys and the activity log. */

export type SessionStatus = 'active' | 'expired' | 'logged_out';

/** How a session ended, when it did; `expired` sessions end with 'expired'. */
export type SessionEndReason =
  | 'logout'
  | 'refresh_token_reused'
  | 'password_changed'
  | 'account_removed'
  | 'expired';

/** What kind of program holds the session: a browser, a script (curl, python-requests...) or the desktop app. */
export type ClientType = 'browser' | 'script' | 'desktop-app' | 'unknown';

export interface DeviceInfo {
  /** desktop, mobile, tablet, console, smarttv, wearable, embedded, or unknown (scripts). */
  type: string;
  vendor: string | null;
  model: string | null;
}

export interface NameVersion {
  name: string | null;
  version: string | null;
}

export type LocationKind = 'loopback' | 'private' | 'public' | 'unknown';

/** City-level location, estimated from the client address with its last octet (IPv4) or 80 bits (IPv6) removed. */
export interface SessionLocation {
  kind: LocationKind;
  /** What a person reads: "This device", "Local network", "Mountain View, California, United States". */
  label: string;
  city: string | null;
  region: string | null;
  /** Country name in English. */
  country: string | null;
  /** ISO 3166-1 alpha-2. */
  countryCode: string | null;
  /** The /24 (IPv4) or /48 (IPv6) network of the client; the full address is never stored. */
  network: string | null;
}

/** Who a session belongs to on the client side; set at login and kept for the session's life. */
export interface ClientDescription {
  clientType: ClientType;
  device: DeviceInfo;
  browser: NameVersion;
  os: NameVersion;
  location: SessionLocation;
}

export interface SessionRecord extends ClientDescription {
  sessionId: string;
  status: SessionStatus;
  /** True for the session whose access token made this request. */
  current: boolean;
  /** ISO 8601 UTC. */
  firstLoginAt: string;
  lastSeenAt: string;
  /** When the session ends unless refreshed (idle limit), never later than its absolute limit. */
  expiresAt: string;
  endedAt: string | null;
  endReason: SessionEndReason | null;
}

/** The decoded payload of an access token (a JWT). Times are Unix seconds. */
export interface AuthPayload {
  sub: string;
  sid: string;
  jti: string;
  iat: number;
  exp: number;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  auth: AuthPayload;
}

export interface LoginResult extends TokenPair {
  sessionId: string;
}

export type AccountRole = 'admin' | 'member';

export interface Account {
  accountId: string;
  username: string;
  role: AccountRole;
  /** 'all' for administrators; otherwise the workspaces the account is a member of. */
  workspaces: 'all' | string[];
  createdAt: string;
  passwordChangedAt: string;
}

export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

export interface ApiKeyRecord {
  apiKeyId: string;
  name: string;
  /** The first characters of the key, to recognise it; the key itself is shown only once. */
  hint: string;
  /** null: every workspace the owner is a member of. */
  workspaces: string[] | null;
  status: ApiKeyStatus;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CreatedApiKey {
  apiKey: ApiKeyRecord;
  /** The secret; send it as `X-API-Key`. Shown only in this response. */
  key: string;
}

export type ActivityType =
  | 'login'
  | 'login_failed'
  | 'refresh'
  | 'logout'
  | 'refresh_token_reused'
  | 'session_expired'
  | 'password_changed'
  | 'api_key_created'
  | 'api_key_used'
  | 'api_key_revoked';

export const ACTIVITY_TYPES: readonly ActivityType[] = [
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
];

export interface ActivityEntry {
  activityId: string;
  type: ActivityType;
  /** ISO 8601 UTC. */
  at: string;
  /** The account the entry is about, and its name (null once the account is gone). */
  accountId: string;
  username: string | null;
  sessionId: string | null;
  apiKeyId: string | null;
  /** Who did it, when not the session itself: another session of the account, or an administrator. */
  by: { accountId: string; username: string | null; sessionId: string | null } | null;
  /** The device the event came from, when one did. */
  client: ClientDescription | null;
  detail: string | null;
}

export interface WhoAmI {
  account: Account;
  sessionId: string | null;
  apiKeyId: string | null;
}

/**
 * GET /v1/session: whether the request's credentials name a live session (or API key), answered
 * without an error either way, so a page can ask before its login.
 */
export type CurrentSession =
  | { authenticated: false }
  | {
      authenticated: true;
      account: Account;
      /** The login session the access token belongs to; null when an API key called. */
      sessionId: string | null;
      apiKeyId: string | null;
      /** When the session (idle limit) or the API key ends unless used or refreshed; ISO 8601 UTC. */
      expiresAt: string;
    };
