import { z } from 'zod';
import { ACTIVITY_TYPES } from '../../../src-shared/contract/auth-models';
import type { KeyValueStore } from '../storage/store';

/**
 * What authentication keeps, as the auth classes hold it in memory and as the older JSON files
 * held it; validated where it is read. Times are epoch milliseconds. Secrets appear only as
 * hashes, except the token signing key.
 */

const nameVersion = z.object({ name: z.string().nullable(), version: z.string().nullable() });

export const clientDescriptionSchema = z.object({
  clientType: z.enum(['browser', 'script', 'desktop-app', 'unknown']),
  device: z.object({ type: z.string(), vendor: z.string().nullable(), model: z.string().nullable() }),
  browser: nameVersion,
  os: nameVersion,
  location: z.object({
    kind: z.enum(['loopback', 'private', 'public', 'unknown']),
    label: z.string(),
    city: z.string().nullable(),
    region: z.string().nullable(),
    country: z.string().nullable(),
    countryCode: z.string().nullable(),
    network: z.string().nullable(),
  }),
});

export const accountSchema = z.object({
  accountId: z.string(),
  username: z.string(),
  role: z.enum(['admin', 'member']),
  workspaces: z.array(z.string()),
  /** Empty for accounts made by an OpenID Provider sign-in (source 'oidc'): they have no password. */
  passwordHash: z.string(),
  createdAt: z.number(),
  passwordChangedAt: z.number(),
  /** Where the account comes from: made by an administrator (local) or at a first OIDC sign-in. */
  source: z.enum(['local', 'oidc']).default('local'),
  /** The groups the provider last gave (auth/oidc); always [] for local accounts. */
  groups: z.array(z.string()).default([]),
});
export type StoredAccount = z.infer<typeof accountSchema>;

export const sessionSchema = z.object({
  sessionId: z.string(),
  accountId: z.string(),
  status: z.enum(['active', 'expired', 'logged_out']),
  client: clientDescriptionSchema,
  firstLoginAt: z.number(),
  lastSeenAt: z.number(),
  /** Idle limit: the current refresh token's expiry, never after absoluteExpiresAt. */
  expiresAt: z.number(),
  absoluteExpiresAt: z.number(),
  endedAt: z.number().nullable(),
  endReason: z
    .enum([
      'logout',
      'refresh_token_reused',
      'password_changed',
      'account_removed',
      'expired',
      'oidc_access_removed',
    ])
    .nullable(),
  refresh: z.object({
    hash: z.string(),
    generation: z.number(),
    rotatedAt: z.number(),
    /** The token the current one replaced: honoured again only within the overlap window. */
    previousHash: z.string().nullable(),
    /** Every earlier token of this family (bounded), to recognise reuse. */
    usedHashes: z.array(z.string()),
  }),
});
export type StoredSession = z.infer<typeof sessionSchema>;

export const apiKeySchema = z.object({
  apiKeyId: z.string(),
  accountId: z.string(),
  name: z.string(),
  hash: z.string(),
  hint: z.string(),
  workspaces: z.array(z.string()).nullable(),
  createdAt: z.number(),
  expiresAt: z.number(),
  lastUsedAt: z.number().nullable(),
  revokedAt: z.number().nullable(),
});
export type StoredApiKey = z.infer<typeof apiKeySchema>;

export const activitySchema = z.object({
  activityId: z.string(),
  type: z.enum(ACTIVITY_TYPES),
  at: z.number(),
  accountId: z.string(),
  sessionId: z.string().nullable(),
  apiKeyId: z.string().nullable(),
  client: clientDescriptionSchema.nullable(),
  detail: z.string().nullable(),
});
export type StoredActivity = z.infer<typeof activitySchema>;

export class AuthStateError extends Error {}

/**
 * Reads one key of an older JSON state file (see legacy-import.ts); a file Skiff cannot read is
 * refused rather than silently replaced (that would lock users out).
 */
export function loadState<T extends z.ZodType>(
  store: KeyValueStore,
  key: string,
  schema: T,
  fallback: z.output<T>,
) {
  const raw = store.get(key);
  if (raw === undefined) return fallback;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AuthStateError(
      `${store.path}: "${key}.${issue.path.join('.')}" ${issue.message}. Fix or remove it; Skiff does not overwrite authentication state it cannot read.`,
    );
  }
  return parsed.data;
}

export const iso = (ms: number): string => new Date(ms).toISOString();
