/**
 * Who a Skiff principal is to Kubernetes RBAC (`--authorize rbac`). Rules:
 * - A local account is the user `{localPrefix}{username}` (default `skiff:`), so a cluster admin
 *   binds Skiff's accounts without them colliding with the cluster's own users; it has no groups.
 * - An OIDC account is `{oidcPrefix}{username}` with each of its provider's groups prefixed the
 *   same way (default no prefix), as the apiserver's own --oidc-username-prefix/--oidc-groups-prefix
 *   would name the same person, so the bindings that already exist for them apply.
 * - Everyone signed in is also in `system:authenticated`, as the apiserver adds it.
 * - No identity (an anonymous call) is no subject: such a caller may read nothing.
 * - A name from the provider never becomes a name Kubernetes or Skiff reserves: an OIDC username
 *   that would be `system:…` or one of the local accounts' (`{localPrefix}…`) is no subject, and a
 *   group that would be `system:…` (system:masters is every permission) is dropped, as the
 *   apiserver refuses such claims from its own OIDC authenticator.
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
const SYSTEM = 'system:';

export function subjectOf(
  identity: PrincipalIdentity | undefined,
  prefixes: SubjectPrefixes,
): KubeSubject | undefined {
  if (!identity || identity.username === '') return undefined;
  if (identity.source === 'local') {
    return { user: `${prefixes.localPrefix}${identity.username}`, groups: [AUTHENTICATED_GROUP] };
  }
  const user = `${prefixes.oidcPrefix}${identity.username}`;
  if (user.startsWith(SYSTEM) || user.startsWith(prefixes.localPrefix)) return undefined;
  const groups = identity.groups
    .map((g) => `${prefixes.oidcPrefix}${g}`)
    .filter((g) => !g.startsWith(SYSTEM));
  return { user, groups: [...groups, AUTHENTICATED_GROUP] };
}
