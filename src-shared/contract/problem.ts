import { z } from 'zod';

/**
 * Error bodies are RFC 9457 problem+json. `code` is the stable, machine-readable part:
 * scripts branch on it, so a code is never renamed once shipped.
 */
export const PROBLEM_CODES = {
  invalid_parameter: 400,
  invalid_query: 400,
  unknown_query_parameter: 400,
  invalid_resource_type: 400,
  invalid_label_selector: 400,
  invalid_name: 400,
  invalid_pagination: 400,
  invalid_body: 400,
  invalid_json: 400,
  log_unavailable: 400,
  /** A request that is not valid HTTP/1.1 (answered by the server before any route). */
  malformed_request: 400,
  /** A file sent or named as a snapshot that is not one, or holds what the format does not allow (docs/snapshot-format.md). */
  invalid_snapshot: 400,
  /** A snapshot written by a newer Skiff (meta.schemaVersion above what this one reads). */
  snapshot_version_unsupported: 400,
  unauthorized: 401,
  invalid_token: 401,
  invalid_credentials: 401,
  invalid_grant: 401,
  refresh_token_reused: 401,
  /** OIDC sign-in: the ID token failed a check (issuer, audience, signature, expiry, nonce); nothing was started. */
  oidc_token_invalid: 401,
  forbidden: 403,
  api_key_not_allowed: 403,
  admin_required: 403,
  host_not_allowed: 403,
  origin_not_allowed: 403,
  /** `--local-login off`: password login is turned off; sign in with the identity provider. */
  local_login_disabled: 403,
  /** OIDC sign-in: the provider answered the sign-in with an error (the user declined, or is not allowed). */
  oidc_denied: 403,
  /** OIDC: the provider no longer knows the user (or refused its refresh token); the sessions were ended. */
  oidc_access_removed: 403,
  /** OIDC sign-in: the sign-in's state is unknown, used, expired or not this browser's. */
  oidc_state_mismatch: 400,
  /** OIDC sign-in: the provider refused the authorization code (used already, expired, or the PKCE check failed). */
  oidc_code_rejected: 400,
  /** OIDC is not configured on this service (no --oidc-issuer). */
  oidc_not_configured: 404,
  /** OIDC sign-in: a local account has the username the provider gave; it is never taken over. */
  oidc_account_conflict: 409,
  /** OIDC: the identity provider cannot be reached (discovery, token endpoint) right now. */
  oidc_unavailable: 503,
  workspace_not_found: 404,
  cluster_not_found: 404,
  resource_not_found: 404,
  session_not_found: 404,
  account_not_found: 404,
  api_key_not_found: 404,
  route_not_found: 404,
  snapshot_not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  /** The request's headers, or all of it, did not arrive within the server's timeouts. */
  request_timeout: 408,
  conflict: 409,
  account_exists: 409,
  last_admin: 409,
  snapshot_expired: 410,
  payload_too_large: 413,
  /** A request target (path and query) longer than the server takes. */
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limited: 429,
  /** A stream's client fell too far behind (the event watch); it may resume with Last-Event-ID. */
  client_too_slow: 429,
  /** The request line and headers together are larger than the server takes. */
  headers_too_large: 431,
  internal_error: 500,
  cluster_error: 502,
  cluster_unauthorized: 502,
  cluster_unreachable: 502,
  /**
   * A cache's first list is still arriving and the cluster is answering: `progress` says how far it
   * got, Retry-After (and `retryAfterSeconds`) when to ask again.
   */
  cluster_syncing: 503,
  /**
   * `--authorize rbac`: the cluster could not say whether the caller may read this (its
   * SubjectAccessReview failed or was refused to Skiff's own account); never taken as allowed.
   */
  authorization_unavailable: 503,
  /** GET /v1/health/ready: a check failed (the database) or the service is shutting down; `checks` says which. */
  service_not_ready: 503,
  cluster_timeout: 504,
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

const problemCodes = Object.keys(PROBLEM_CODES) as [ProblemCode, ...ProblemCode[]];

/**
 * An RFC 9457 problem body. Open, unlike the result shapes: extension members depend on the code
 * (`errors` of a validation error, `accepted` and `hint` of a resource type, `requirement` of a
 * selector, `clusterStatus` of a cluster's refusal...).
 */
export const problem = z
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(problemCodes).meta({ description: 'Stable and machine-readable: scripts branch on it.' }),
    errors: z
      .array(z.looseObject({ in: z.string(), field: z.string().optional(), message: z.string() }))
      .optional()
      .meta({ description: 'Validation errors: where, which field, and what is wrong.' }),
    progress: z
      .object({ items: z.number().int().nonnegative(), remaining: z.number().int().nonnegative().optional() })
      .optional()
      .meta({
        description:
          "cluster_syncing: objects of the first list received so far, and the cluster's estimate of those still to come.",
      }),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof problem>;

export const PROBLEM_TYPE_BASE = 'https://skiff.dev/problems/';

export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && typeof v.status === 'number' && typeof v.title === 'string';
}
