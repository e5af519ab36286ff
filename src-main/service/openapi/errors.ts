import type { OperationSpec } from '../../../src-shared/contract/define';
import { PROBLEM_CODES, type ProblemCode } from '../../../src-shared/contract/problem';

/**
 * The problem+json answers an operation can give, with their stable `code` values, worked out
 * from what the operation has (path parameters, a query, a body, its credential, a cluster behind
 * it). A code the table does not define is never listed.
 */

type Spec = OperationSpec & { consumes?: readonly string[] };

const ADMIN_ONLY =
  /^(createWorkspace|updateWorkspace|deleteWorkspace|updateAppSettings|updateCluster|listAccounts|createAccount|updateAccount|removeAccount|openSnapshot|closeSnapshot|createSnapshot)$/;

/** Served from a watch cache: a request can meet its first list still filling (503 cluster_syncing). */
const CACHE_BACKED =
  /^(listResources|listNamespacedResources|getResource|listEvents|eventTimeline|eventGroups|watchEvents)$/;

const SPECIAL: Partial<Record<string, ProblemCode[]>> = {
  login: ['invalid_credentials', 'local_login_disabled'],
  refresh: ['invalid_grant', 'refresh_token_reused', 'oidc_access_removed'],
  oidcLogin: ['oidc_not_configured', 'oidc_unavailable', 'rate_limited'],
  oidcCallback: [
    'oidc_not_configured',
    'oidc_state_mismatch',
    'oidc_denied',
    'oidc_code_rejected',
    'oidc_token_invalid',
    'oidc_account_conflict',
    'oidc_unavailable',
  ],
  oidcExchange: ['oidc_not_configured', 'invalid_grant'],
  changePassword: ['forbidden'],
  getResource: ['conflict'],
  createWorkspace: ['conflict'],
  updateWorkspace: ['conflict'],
  deleteWorkspace: ['conflict'],
  updateAppSettings: ['conflict'],
  updateCluster: ['conflict'],
  createAccount: ['account_exists'],
  updateAccount: ['last_admin'],
  removeAccount: ['last_admin'],
  getLogs: ['log_unavailable'],
  openSnapshot: ['invalid_snapshot', 'snapshot_version_unsupported', 'conflict'],
  closeSnapshot: ['conflict'],
  createSnapshot: ['conflict', 'rate_limited'],
  getSnapshot: ['snapshot_not_found'],
  downloadSnapshot: ['snapshot_not_found', 'conflict'],
  watchEvents: ['client_too_slow'],
  healthReady: ['service_not_ready'],
};

function codesOf(name: string, spec: Spec): ProblemCode[] {
  const codes = new Set<ProblemCode>([
    'internal_error',
    'host_not_allowed',
    'origin_not_allowed',
    'rate_limited',
  ]);
  const path = spec.path;
  const has = (param: string) => path.includes(`:${param}`);
  if (/:\w/.test(path)) codes.add('invalid_parameter');
  codes.add('invalid_query').add('unknown_query_parameter');
  if (spec.paginated) codes.add('invalid_pagination');
  if (has('resourceType')) codes.add('invalid_resource_type');
  if (has('namespace') || has('resourceName')) codes.add('invalid_name');
  if (spec.path.includes('/kubernetes-proxy/') && !spec.path.endsWith('/logs'))
    codes.add('invalid_label_selector');
  if (spec.method !== 'GET' && spec.method !== 'DELETE') {
    codes.add('invalid_body').add('invalid_json').add('payload_too_large').add('unsupported_media_type');
  }
  if (spec.auth === 'credential' || spec.auth === 'session') codes.add('unauthorized').add('invalid_token');
  if (spec.auth === 'session') codes.add('api_key_not_allowed');
  if (ADMIN_ONLY.test(name)) codes.add('admin_required');
  if (has('workspaceId')) codes.add('workspace_not_found');
  if (has('clusterId')) codes.add('cluster_not_found');
  if (has('resourceName') || has('reason')) codes.add('resource_not_found');
  if (has('sessionId')) codes.add('session_not_found');
  if (has('accountId')) codes.add('account_not_found');
  if (has('apiKeyId')) codes.add('api_key_not_found');
  if (spec.streaming) codes.add('not_acceptable');
  if ('snapshot' in ((spec.query as { shape?: object }).shape ?? {})) codes.add('snapshot_expired');
  if (path.includes('/observability/') || name === 'createSnapshot') {
    codes.add('cluster_error').add('cluster_unauthorized').add('cluster_unreachable').add('cluster_timeout');
  }
  // `--authorize rbac` (auth/rbac): a read the cluster's RBAC refuses the caller, or cannot decide.
  if (path.includes('/observability/')) codes.add('forbidden').add('authorization_unavailable');
  if (CACHE_BACKED.test(name)) codes.add('cluster_syncing');
  for (const code of SPECIAL[name] ?? []) codes.add(code);
  return [...codes];
}

const REASONS: Record<number, string> = {
  400: 'Bad input; it never reaches the cluster.',
  401: 'No valid credential.',
  403: 'Not allowed.',
  404: 'Not found (or not visible to the caller).',
  406: 'The Accept header allows none of the media types.',
  409: 'Conflict.',
  410: 'The snapshot token is no longer kept: start again from the first page.',
  413: 'The body is too large (JSON bodies: 1 MiB).',
  415: 'The body is not of a media type the operation takes.',
  429: 'Too many requests; Retry-After says when to try again.',
  500: 'An unexpected failure, logged by the service.',
  502: 'The cluster refused, rejected our credentials, or could not be reached.',
  503: 'The cache of this list is still receiving its first list from the cluster, which is answering; `progress` says how far it got, Retry-After when to ask again. With `--authorize rbac`, `authorization_unavailable`: the cluster could not answer whether the caller may read it.',
  504: 'The cluster did not answer in time.',
};

/** `responses` entries per status: problem+json whose `code` is one of the listed values. */
export function problemResponses(name: string, spec: Spec): Record<string, unknown> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codesOf(name, spec)) {
    const status = PROBLEM_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: `${REASONS[status] ?? 'An error.'} Codes: ${codes.join(', ')}.`,
      ...(status === 429 || status === 503
        ? { headers: { 'Retry-After': { schema: { type: 'integer' } } } }
        : {}),
      content: {
        'application/problem+json': {
          schema: {
            allOf: [{ $ref: '#/components/schemas/Problem' }, { properties: { code: { enum: codes } } }],
          },
        },
      },
    };
  }
  return out;
}
