/**
 * Who a Skiff principal is to Kubernetes RBAC (`--authorize rbac`). Rules:
 * - A local account is the user `{localPrefix}{username}` (default `skiff:`), so a cluster admin
 *   binds Skiff's accounts without them colliding with the cluster's own users; it has no groups.
 * - An OIDC account is `{oidcPrefix}{username}` with each of its provider's groups prefixed the
 *   same way (default no prefix), as the apiserver's own --oidc-username-prefix/--oidc-groups-prefix
 *   would name the same person, so the bindings that already exist for them apply.
 * - Everyone signed in is also in `system:authenticated`, as the apiserver adds it.
 * - No identity (an anonymous call) is no subject: such a caller may read nothing.
 */
import type { PrincipalIdentity } from '../../context';

export interface KubeSubject {
  user: string;
  groups: readonly string[];
}

export interface SubjectPrefixes {
  localPrefix: string;
  oidcPrefix: string;
}

export const DEFAULT_LOCAL_PREFIX = 'skiff:';
export const DEFAULT_OIDC_PREFIX = '';
export const AUTHENTICATED_GROUP = 'system:authenticated';

export function subjectOf(
  identity: PrincipalIdentity | undefined,
  prefixes: SubjectPrefixes,
): KubeSubject | undefined {
  if (!identity || identity.username === '') return undefined;
  if (identity.source === 'local') {
    return { user: `${prefixes.localPrefix}${identity.username}`, groups: [AUTHENTICATED_GROUP] };
  }
  const groups = identity.groups.map((g) => `${prefixes.oidcPrefix}${g}`);
  return { user: `${prefixes.oidcPrefix}${identity.username}`, groups: [...groups, AUTHENTICATED_GROUP] };
}
