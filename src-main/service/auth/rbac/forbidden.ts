/**
 * The 403 a read the cluster's RBAC refuses answers: `forbidden`, worded as kubectl words the
 * apiserver's refusal (`pods is forbidden: User "skiff:alice" cannot list resource "pods" in API
 * group "" in the namespace "kube-system"`), so an administrator can read off the Role to grant.
 * Rules: it names the Kubernetes user (prefix included: that is whom a binding must name), and
 * carries the permission as data (`permission`) for the UI to explain in words.
 */
import { ProblemError } from '../../errors';
import type { ResourceAttributes } from './access';

export function forbiddenProblem(user: string | undefined, attrs: ResourceAttributes): ProblemError {
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const what = attrs.name === undefined ? resource : `${resource} "${attrs.name}"`;
  const where =
    attrs.namespace === undefined ? 'at the cluster scope' : `in the namespace "${attrs.namespace}"`;
  const who = user === undefined ? 'an anonymous caller' : `User "${user}"`;
  const permission = {
    verb: attrs.verb,
    group: attrs.group,
    resource: attrs.resource,
    ...(attrs.subresource !== undefined ? { subresource: attrs.subresource } : {}),
    ...(attrs.namespace !== undefined ? { namespace: attrs.namespace } : {}),
    ...(attrs.name !== undefined ? { name: attrs.name } : {}),
  };
  return new ProblemError(
    'forbidden',
    `${what} is forbidden: ${who} cannot ${attrs.verb} resource "${resource}" in API group "${attrs.group}" ${where}`,
    { permission, ...(user !== undefined ? { user } : {}) },
  );
}
