/**
 * The demo's team, for Skiff's `--authorize rbac` (issue 26): who may read what, in the cluster's
 * own RBAC. "alice" of group "shop-devs" may read only namespace `shop`: Role `shop-reader` (get,
 * list, watch on every resource and subresource of every group, pods/log, events and the Namespace
 * object itself included) bound there by RoleBinding `shop-devs` to Group `shop-devs` and to User
 * `skiff:alice` (a local Skiff account "alice" under the default `skiff:` prefix). Administrators
 * read everything: ClusterRole `skiff-demo-reader` bound by ClusterRoleBinding `skiff-demo-reader`
 * to User `skiff:admin` and Group `skiff-admins`. Read-only on purpose: the demo grants no writes.
 * Built last among the tailored objects, so every other object keeps its resourceVersion.
 */

import { DAY } from '../time';
import type { Gen } from './context';
import { add, meta } from './more-kinds';

const RBAC = 'rbac.authorization.k8s.io/v1';
const RBAC_GROUP = 'rbac.authorization.k8s.io';
const READ = { apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] };

/** The names the team's objects have, for tests and docs. */
export const DEMO_TEAM = {
  namespace: 'shop',
  role: 'shop-reader',
  roleBinding: 'shop-devs',
  group: 'shop-devs',
  user: 'skiff:alice',
  clusterRole: 'skiff-demo-reader',
  clusterRoleBinding: 'skiff-demo-reader',
  adminUser: 'skiff:admin',
  adminGroup: 'skiff-admins',
} as const;

export function buildTeam(gen: Gen): void {
  const t = DEMO_TEAM;
  add(gen, {
    apiVersion: RBAC,
    kind: 'ClusterRole',
    metadata: meta(gen, 'ClusterRole', t.clusterRole, undefined, 10 * DAY),
    rules: [READ],
  });
  add(gen, {
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    metadata: meta(gen, 'ClusterRoleBinding', t.clusterRoleBinding, undefined, 10 * DAY),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: t.clusterRole },
    subjects: [
      { apiGroup: RBAC_GROUP, kind: 'User', name: t.adminUser },
      { apiGroup: RBAC_GROUP, kind: 'Group', name: t.adminGroup },
    ],
  });
  add(gen, {
    apiVersion: RBAC,
    kind: 'Role',
    metadata: meta(gen, 'Role', t.role, t.namespace, 10 * DAY),
    rules: [READ],
  });
  add(gen, {
    apiVersion: RBAC,
    kind: 'RoleBinding',
    metadata: meta(gen, 'RoleBinding', t.roleBinding, t.namespace, 10 * DAY),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: t.role },
    subjects: [
      { apiGroup: RBAC_GROUP, kind: 'Group', name: t.group },
      { apiGroup: RBAC_GROUP, kind: 'User', name: t.user },
    ],
  });
}
