/**
 * A ReadAccess that evaluates a fixed rule table, for unit tests of the reads that use one: a real
 * implementation of the interface (what a Role's rules grant, per namespace or cluster-wide), not
 * a mock of the cluster. It records every question asked, so tests can say what was (not) asked.
 */
import { ProblemError } from '../errors';
import type { ReadAccess, ResourceAttributes } from './rbac/access';

export interface Rule {
  verbs: readonly string[];
  group: string;
  /** Plurals, with `/subresource` for a subresource (`pods/log`). */
  resources: readonly string[];
  /** Absent: cluster-wide (a ClusterRoleBinding); else the namespace its RoleBinding is in. */
  namespace?: string;
}

export interface RuleAccess extends ReadAccess {
  readonly asked: ResourceAttributes[];
}

const resourceOf = (a: ResourceAttributes) => (a.subresource ? `${a.resource}/${a.subresource}` : a.resource);

export function ruleAccess(rules: readonly Rule[], user = 'skiff:test'): RuleAccess {
  const asked: ResourceAttributes[] = [];
  const granted = (a: ResourceAttributes) =>
    rules.some(
      (r) =>
        r.verbs.includes(a.verb) &&
        r.group === a.group &&
        r.resources.includes(resourceOf(a)) &&
        (r.namespace === undefined || r.namespace === a.namespace),
    );
  const allows = async (a: ResourceAttributes) => {
    asked.push(a);
    return granted(a);
  };
  return {
    open: false,
    asked,
    allows,
    async require(a) {
      if (await allows(a)) return;
      const where = a.namespace === undefined ? 'at the cluster scope' : `in the namespace "${a.namespace}"`;
      throw new ProblemError(
        'forbidden',
        `User "${user}" cannot ${a.verb} resource "${resourceOf(a)}" in API group "${a.group}" ${where}`,
        { permission: { ...a } },
      );
    },
    async namespaces(attrs, candidates) {
      if (await allows(attrs)) return 'all';
      const out = new Set<string>();
      for (const ns of candidates) if (await allows({ ...attrs, namespace: ns })) out.add(ns);
      return out;
    },
  };
}
