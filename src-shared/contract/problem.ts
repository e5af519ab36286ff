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
  unauthorized: 401,
  invalid_token: 401,
  invalid_credentials: 401,
  invalid_grant: 401,
  refresh_token_reused: 401,
  forbidden: 403,
  api_key_not_allowed: 403,
  admin_required: 403,
  host_not_allowed: 403,
  origin_not_allowed: 403,
  workspace_not_found: 404,
  cluster_not_found: 404,
  resource_not_found: 404,
  session_not_found: 404,
  account_not_found: 404,
  api_key_not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  account_exists: 409,
  last_admin: 409,
  snapshot_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  cluster_error: 502,
  cluster_unauthorized: 502,
  cluster_unreachable: 502,
  cluster_timeout: 504,
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  /** Extension members, e.g. `accepted` values or the offending `requirement`. */
  [extension: string]: unknown;
}

export const PROBLEM_TYPE_BASE = 'https://skiff.dev/problems/';

export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && typeof v.status === 'number' && typeof v.title === 'string';
}
