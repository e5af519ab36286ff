import type { Logger } from '../logger';
import type { OidcOptions } from './oidc/options';
import type { RateLimits } from './rate-limit';

export interface AdminCreatedInfo {
  username: string;
  /** Present only when the password was generated. */
  generatedPassword?: string;
  /** Where the generated password was written (mode 0600), when there is a data dir. */
  passwordFile?: string;
  /**
   * A later start, which created nothing: `admin` is still the only account and still has the
   * password generated at first start, which is in `passwordFile`.
   */
  reminder?: boolean;
}

/**
 * Accounts, sessions, API keys, the signing key and the activity log live in the data dir's
 * database (storage/database.ts), in memory when there is no data dir.
 */
export interface AuthOptions {
  /** Activity entries older than this are pruned; default 90. */
  activityRetentionDays?: number;
  /** The activity log keeps at most this many entries, the oldest pruned first; default 100,000. */
  activityMaxEntries?: number;
  /** Password of the first `admin` account, used only when no account exists yet. */
  adminPassword?: string;
  /**
   * Told when the first admin is created, and on each later start while its generated password is
   * still its only one (`reminder`); the default prints to stderr.
   */
  onAdminCreated?: (info: AdminCreatedInfo) => void;
  /** 15-60, default 15. */
  accessTokenMinutes?: number;
  /** Idle lifetime of a session (each refresh token); default 14. */
  refreshTokenDays?: number;
  /** Absolute lifetime of a session; default 90. */
  sessionMaxDays?: number;
  /** How long the previous refresh token may be retried; default 10. */
  overlapSeconds?: number;
  /** Proxy addresses (or CIDRs) whose X-Forwarded-For is believed. */
  trustProxy?: readonly string[];
  /** Extra Host header values to accept (name, or name:port). */
  allowedHosts?: readonly string[];
  /** Extra origins (scheme://host[:port]) whose browser requests are accepted. */
  allowedOrigins?: readonly string[];
  /** An .mmdb file or a directory of them; false for none; default the installed DB-IP Lite package. */
  geoipDb?: string | false;
  /**
   * Encrypts the token signing keys in the database (`--secret-key-file` / SKIFF_SECRET_KEY, at
   * least 32 bytes); required with PostgreSQL, optional with SQLite (auth/signing-keys.ts).
   */
  secretKey?: string;
  /** Sign-in with an OpenID Provider (`--oidc-*`); needs `publicUrl` and `secretKey`. */
  oidc?: OidcOptions;
  /** `--local-login off`: password login is refused (403 local_login_disabled); default on. */
  localLogin?: boolean;
  /** `--public-url`: the OIDC redirect URI is `{publicUrl}/v1/auth/oidc/callback`. */
  publicUrl?: string;
  /** log2 of scrypt's N; tests lower it. */
  passwordCost?: number;
  rateLimits?: Partial<RateLimits>;
}

export interface ResolvedLifetimes {
  accessTtlMs: number;
  refreshTtlMs: number;
  sessionMaxMs: number;
  overlapMs: number;
}

export const DEFAULT_ACCESS_TOKEN_MINUTES = 15;
export const DEFAULT_REFRESH_TOKEN_DAYS = 14;
export const DEFAULT_SESSION_MAX_DAYS = 90;
export const DEFAULT_OVERLAP_SECONDS = 10;

const DAY_MS = 24 * 3_600_000;

function inRange(name: string, value: number, min: number, max: number): number {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`${name} must be from ${min} to ${max} (got ${value})`);
  }
  return value;
}

export function resolveLifetimes(o: AuthOptions): ResolvedLifetimes {
  const access = inRange(
    'access token lifetime (minutes)',
    o.accessTokenMinutes ?? DEFAULT_ACCESS_TOKEN_MINUTES,
    15,
    60,
  );
  const refresh = inRange(
    'refresh token lifetime (days)',
    o.refreshTokenDays ?? DEFAULT_REFRESH_TOKEN_DAYS,
    1,
    365,
  );
  const max = inRange(
    'session lifetime (days)',
    o.sessionMaxDays ?? Math.max(DEFAULT_SESSION_MAX_DAYS, refresh),
    refresh,
    3650,
  );
  const overlap = inRange(
    'refresh overlap window (seconds)',
    o.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS,
    0,
    60,
  );
  return {
    accessTtlMs: access * 60_000,
    refreshTtlMs: refresh * DAY_MS,
    sessionMaxMs: max * DAY_MS,
    overlapMs: overlap * 1000,
  };
}

export type { Logger };
