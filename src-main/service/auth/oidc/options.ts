/**
 * What `--oidc-*` configures (cli/oidc-args.ts parses the flags; createService takes the same as
 * `auth.oidc`), with its defaults. Rules:
 * - An http:// issuer is refused unless `allowInsecureRequests` is set AND the issuer is on
 *   loopback: the only use is a provider a test or a developer runs on this machine.
 * - The redirect URI is derived, never configured apart: `{publicUrl}/v1/auth/oidc/callback`.
 */
import { OIDC_CALLBACK_PATH } from '../../../../src-shared/contract/oidc-operations';

export interface OidcOptions {
  /** The issuer identifier; its discovery document is `{issuer}/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE only). */
  clientSecret?: string;
  /** Default openid profile email groups. */
  scopes?: readonly string[];
  /** The ID token claim that names the account; default email. */
  usernameClaim?: string;
  /** The claim that lists the groups; default groups. */
  groupsClaim?: string;
  /** What the login button says; default the issuer's host. */
  name?: string;
  /** The login page shows no password form (administrators can still use the API). */
  only?: boolean;
  /** Members of these groups are administrators; re-evaluated whenever the groups are read again. */
  adminGroups?: readonly string[];
  /** How often, at most, the provider is asked again whether a user is still there; default 15 min. */
  recheckMs?: number;
  /** Tests only: talk to an http:// issuer on loopback. */
  allowInsecureRequests?: boolean;
}

export interface ResolvedOidc {
  issuer: URL;
  clientId: string;
  clientSecret: string | undefined;
  scopes: string;
  usernameClaim: string;
  groupsClaim: string;
  name: string;
  only: boolean;
  adminGroups: readonly string[];
  recheckMs: number;
  insecure: boolean;
  redirectUri: string;
}

export const DEFAULT_SCOPES = ['openid', 'profile', 'email', 'groups'] as const;
export const DEFAULT_RECHECK_MS = 15 * 60_000;
/** Below this the provider would be asked about every user every few seconds. */
export const MIN_RECHECK_MS = 60_000;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export class OidcConfigError extends Error {}

export function resolveOidc(o: OidcOptions, publicUrl: string | undefined): ResolvedOidc {
  const issuer = URL.parse(o.issuer);
  if (!issuer || (issuer.protocol !== 'https:' && issuer.protocol !== 'http:'))
    throw new OidcConfigError(`--oidc-issuer ${o.issuer}: give the provider's https:// issuer URL`);
  const insecure = issuer.protocol === 'http:';
  if (insecure && !(o.allowInsecureRequests && LOOPBACK.has(issuer.hostname)))
    throw new OidcConfigError(
      `--oidc-issuer ${o.issuer}: the issuer must be https:// (http:// only for a provider on loopback, with --oidc-insecure-http)`,
    );
  if (!o.clientId) throw new OidcConfigError('--oidc-client-id is required with --oidc-issuer');
  if (!publicUrl)
    throw new OidcConfigError(
      `--oidc-issuer needs --public-url: the redirect URI the provider sends browsers back to is {public-url}${OIDC_CALLBACK_PATH}`,
    );
  const recheckMs = o.recheckMs ?? DEFAULT_RECHECK_MS;
  if (!Number.isFinite(recheckMs) || recheckMs < MIN_RECHECK_MS)
    throw new OidcConfigError(`--oidc-recheck must be at least ${MIN_RECHECK_MS / 1000}s`);
  const scopes = o.scopes?.length ? [...o.scopes] : [...DEFAULT_SCOPES];
  if (!scopes.includes('openid')) scopes.unshift('openid');
  return {
    issuer,
    clientId: o.clientId,
    clientSecret: o.clientSecret || undefined,
    scopes: scopes.join(' '),
    usernameClaim: o.usernameClaim || 'email',
    groupsClaim: o.groupsClaim || 'groups',
    name: o.name || issuer.host,
    only: o.only ?? false,
    adminGroups: o.adminGroups ?? [],
    recheckMs,
    insecure,
    redirectUri: new URL(OIDC_CALLBACK_PATH, publicUrl).href,
  };
}
