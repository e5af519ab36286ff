/**
 * The apiserver's RBAC authorizer (plugin/pkg/auth/authorizer/rbac) over the Roles, ClusterRoles,
 * RoleBindings and ClusterRoleBindings the store holds: what a SubjectAccessReview asks
 * (access-review.ts). Rules: the decision and its reason are the real authorizer's, in its order
 * (ClusterRoleBindings first, then the RoleBindings of the request's namespace; the first rule
 * that allows wins); RBAC only allows, never denies, so a request nothing allows has no opinion
 * (allowed false, and a reason only when a binding names a role that does not exist). The user is
 * exactly who the review names: no group is added (the apiserver's authenticator adds
 * `system:authenticated`, not its authorizer), and a Namespace object's own namespace is whatever
 * the caller says (the apiserver's request info gives `namespaces/X` namespace X). Stored objects
 * came from anyone's POST, so every field is read defensively; nothing here writes.
 */

import type { SimStore } from './store';
import type { KubeObject } from './types';

/** spec.resourceAttributes of a review; "" namespace is every namespace (or cluster scope). */
export interface ResourceAttributes {
  namespace: string;
  verb: string;
  group: string;
  resource: string;
  subresource: string;
  name: string;
}

/** spec.nonResourceAttributes of a review. */
export interface NonResourceAttributes {
  path: string;
  verb: string;
}

export interface UserInfo {
  user: string;
  groups: readonly string[];
}

export interface Decision {
  allowed: boolean;
  /** "" when nothing allowed it and nothing was broken. */
  reason: string;
}

export interface PolicyRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

interface Subject {
  kind: string;
  name: string;
  namespace: string;
}

const ALL = '*';

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
/** Any value as something whose fields can be read: a field of null or a string is undefined. */
const record = (v: unknown): Record<string, unknown> => Object(v);

function rulesOf(role: KubeObject): PolicyRule[] {
  const rules = (role as { rules?: unknown }).rules;
  return (Array.isArray(rules) ? rules : []).map((r) => {
    const rule = record(r);
    return {
      verbs: strings(rule.verbs),
      apiGroups: strings(rule.apiGroups),
      resources: strings(rule.resources),
      resourceNames: strings(rule.resourceNames),
      nonResourceURLs: strings(rule.nonResourceURLs),
    };
  });
}

function resourceMatches(rule: PolicyRule, a: ResourceAttributes): boolean {
  const combined = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  return rule.resources.some(
    (r) =>
      r === ALL ||
      r === combined ||
      // "*/log" is any resource's log; "pods/*" matches nothing special, as in the apiserver.
      (a.subresource !== '' && r === `*/${a.subresource}`),
  );
}

function urlMatches(rule: PolicyRule, path: string): boolean {
  // "*" is the prefix "" and so every path.
  return rule.nonResourceURLs.some(
    (u) => u === path || (u.endsWith(ALL) && path.startsWith(u.replace(/\*+$/, ''))),
  );
}

/** rbac/v1 RuleAllows: one rule against one request. */
export function ruleAllows(rule: PolicyRule, a: ResourceAttributes | NonResourceAttributes): boolean {
  if (!rule.verbs.some((v) => v === ALL || v === a.verb)) return false;
  if ('path' in a) return urlMatches(rule, a.path);
  return (
    rule.apiGroups.some((g) => g === ALL || g === a.group) &&
    resourceMatches(rule, a) &&
    (rule.resourceNames.length === 0 || rule.resourceNames.includes(a.name))
  );
}

function subjectsOf(binding: KubeObject): Subject[] {
  const subjects = (binding as { subjects?: unknown }).subjects;
  return (Array.isArray(subjects) ? subjects : []).map((s) => {
    const subject = record(s);
    return { kind: text(subject.kind), name: text(subject.name), namespace: text(subject.namespace) };
  });
}

/** A ServiceAccount subject of a RoleBinding defaults to the binding's namespace. */
function appliesTo(s: Subject, who: UserInfo, bindingNamespace: string): boolean {
  if (s.kind === 'User') return s.name === who.user;
  if (s.kind === 'Group') return who.groups.includes(s.name);
  if (s.kind !== 'ServiceAccount') return false;
  const ns = s.namespace || bindingNamespace;
  return ns !== '' && who.user === `system:serviceaccount:${ns}:${s.name}`;
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `ServiceAccount "${s.name}/${s.namespace || bindingNamespace}"`;
  return `${s.kind} "${s.name}"`;
}

type Rules = { ok: true; rules: PolicyRule[] } | { ok: false; error: string };

/** The rules a binding's roleRef names: a Role in the binding's namespace, or a ClusterRole. */
function roleRules(store: SimStore, kind: string, name: string, bindingNamespace: string): Rules {
  if (kind === 'ClusterRole') {
    const role = store.peek('clusterroles', name);
    return role
      ? { ok: true, rules: rulesOf(role) }
      : { ok: false, error: `clusterrole.rbac.authorization.k8s.io "${name}" not found` };
  }
  if (kind === 'Role') {
    // From a ClusterRoleBinding ("" namespace) this finds nothing: every Role has a namespace.
    const role = store.peek('roles', bindingNamespace, name);
    return role
      ? { ok: true, rules: rulesOf(role) }
      : { ok: false, error: `role.rbac.authorization.k8s.io "${name}" not found` };
  }
  return { ok: false, error: `unsupported role reference kind: "${kind}"` };
}

/** The decision of the RBAC authorizer for one user and request. */
export function authorize(
  store: SimStore,
  who: UserInfo,
  attrs: ResourceAttributes | NonResourceAttributes,
): Decision {
  const errors: string[] = [];
  const bindings: [string, KubeObject][] = store.list('clusterrolebindings').map((b) => ['', b]);
  // Non-resource requests and cluster-scope ones have no namespace: ClusterRoleBindings only.
  if ('namespace' in attrs && attrs.namespace !== '') {
    const ns = attrs.namespace;
    for (const b of store.list('rolebindings', ns)) bindings.push([ns, b]);
  }
  for (const [bindingNamespace, binding] of bindings) {
    const subject = subjectsOf(binding).find((s) => appliesTo(s, who, bindingNamespace));
    if (!subject) continue;
    const ref = record((binding as { roleRef?: unknown }).roleRef);
    const kind = text(ref.kind);
    const roleName = text(ref.name);
    const rules = roleRules(store, kind, roleName, bindingNamespace);
    if (!rules.ok) {
      errors.push(rules.error);
      continue;
    }
    if (rules.rules.some((rule) => ruleAllows(rule, attrs))) {
      const what =
        bindingNamespace === ''
          ? `ClusterRoleBinding "${binding.metadata.name}"`
          : `RoleBinding "${binding.metadata.name}/${bindingNamespace}"`;
      return {
        allowed: true,
        reason: `RBAC: allowed by ${what} of ${kind} "${roleName}" to ${describeSubject(subject, bindingNamespace)}`,
      };
    }
  }
  return { allowed: false, reason: errors.length > 0 ? `RBAC: ${aggregate(errors)}` : '' };
}

/** utilerrors.NewAggregate's text: one error as is, several in brackets. */
function aggregate(errors: string[]): string {
  return errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`;
}
