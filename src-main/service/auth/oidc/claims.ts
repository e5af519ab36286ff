/**
 * Who an ID token names, as Skiff keeps it. Rules:
 * - The username is the configured claim (default `email`), trimmed and lower-cased (usernames
 *   are case-insensitive), at most 254 characters; a token without it is refused, never given
 *   a made-up name.
 * - Groups are the configured claim (default `groups`): an array of strings, or one string
 *   (some providers send a single group so); anything else is no groups. Kept sorted and unique,
 *   bounded, so comparing two readings is comparing two lists.
 * - The role follows the groups only when `--oidc-admin-groups` is set; otherwise the role an
 *   administrator gave the account stays.
 */
import type { AccountRole } from '../../../../src-shared/contract/auth-models';

export const MAX_USERNAME = 254;
export const MAX_GROUPS = 500;
export const MAX_GROUP_LENGTH = 256;

export class ClaimError extends Error {}

export function usernameOf(claims: Record<string, unknown>, claim: string): string {
  const raw = claims[claim];
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new ClaimError(`the ID token has no "${claim}" claim to name the account by`);
  const name = raw.trim().toLowerCase();
  if (name.length > MAX_USERNAME)
    throw new ClaimError(`the ID token's "${claim}" claim is longer than ${MAX_USERNAME} characters`);
  return name;
}

export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const raw = claims[claim];
  const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
  const groups = list.filter(
    (g): g is string => typeof g === 'string' && g !== '' && g.length <= MAX_GROUP_LENGTH,
  );
  return [...new Set(groups)].sort().slice(0, MAX_GROUPS);
}

/** The role the groups give, or undefined when the provider does not decide roles (no admin groups). */
export function roleOf(groups: readonly string[], adminGroups: readonly string[]): AccountRole | undefined {
  if (adminGroups.length === 0) return undefined;
  return groups.some((g) => adminGroups.includes(g)) ? 'admin' : 'member';
}

export function sameGroups(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((g, i) => g === b[i]);
}
