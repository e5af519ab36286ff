import { describe, expect, it } from 'vitest';
import {
  authorize,
  type NonResourceAttributes,
  type PolicyRule,
  type ResourceAttributes,
  ruleAllows,
} from './rbac';
import { SimStore } from './store';
import type { KubeObject } from './types';

const RBAC = 'rbac.authorization.k8s.io/v1';

function attrs(a: Partial<ResourceAttributes>): ResourceAttributes {
  return { namespace: '', verb: 'get', group: '', resource: 'pods', subresource: '', name: '', ...a };
}

function rule(r: Partial<PolicyRule>): PolicyRule {
  return { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [], nonResourceURLs: [], ...r };
}

function put(store: SimStore, obj: Record<string, unknown>): void {
  store.upsert({ apiVersion: RBAC, ...obj } as unknown as KubeObject);
}

function clusterRole(store: SimStore, name: string, rules: unknown): void {
  put(store, { kind: 'ClusterRole', metadata: { name }, rules });
}

function role(store: SimStore, namespace: string, name: string, rules: unknown): void {
  put(store, { kind: 'Role', metadata: { name, namespace }, rules });
}

function crb(store: SimStore, name: string, roleRef: unknown, subjects: unknown): void {
  put(store, { kind: 'ClusterRoleBinding', metadata: { name }, roleRef, subjects });
}

function rb(store: SimStore, namespace: string, name: string, roleRef: unknown, subjects: unknown): void {
  put(store, { kind: 'RoleBinding', metadata: { name, namespace }, roleRef, subjects });
}

const ref = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });
const user = (name: string) => ({ kind: 'User', name });

describe('ruleAllows, a rule against one request', () => {
  const cases: [string, Partial<PolicyRule>, Partial<ResourceAttributes>, boolean][] = [
    ['* allows anything', {}, { verb: 'delete', group: 'apps', resource: 'deployments' }, true],
    ['an exact verb', { verbs: ['get', 'list'] }, { verb: 'list' }, true],
    ['another verb', { verbs: ['get', 'list'] }, { verb: 'watch' }, false],
    ['no verbs', { verbs: [] }, {}, false],
    ['an exact group', { apiGroups: ['apps'] }, { group: 'apps' }, true],
    ['the core group is ""', { apiGroups: [''] }, { group: 'apps' }, false],
    ['no groups', { apiGroups: [] }, {}, false],
    ['an exact resource', { resources: ['pods', 'services'] }, { resource: 'services' }, true],
    ['another resource', { resources: ['pods'] }, { resource: 'services' }, false],
    ['no resources', { resources: [] }, {}, false],
    ['pods does not grant pods/log', { resources: ['pods'] }, { subresource: 'log' }, false],
    ['pods/log grants pods/log', { resources: ['pods/log'] }, { subresource: 'log' }, true],
    ['pods/log does not grant pods', { resources: ['pods/log'] }, {}, false],
    ['*/log grants any log', { resources: ['*/log'] }, { subresource: 'log' }, true],
    ['*/log is not the resource itself', { resources: ['*/log'] }, {}, false],
    ['*/status is not pods/log', { resources: ['*/status'] }, { subresource: 'log' }, false],
    ['pods/* is nothing special', { resources: ['pods/*'] }, { subresource: 'log' }, false],
    ['* grants subresources', { resources: ['*'] }, { subresource: 'exec' }, true],
    ['*/ is no subresource', { resources: ['*/'] }, {}, false],
    ['no resourceNames: every name', { resourceNames: [] }, { name: 'x' }, true],
    ['a listed name', { resourceNames: ['a', 'b'] }, { name: 'b' }, true],
    ['an unlisted name', { resourceNames: ['a'] }, { name: 'b' }, false],
    ['resourceNames never grant a list', { resourceNames: ['a'] }, { verb: 'list' }, false],
    ['nonResourceURLs grant no resource', { resources: [], nonResourceURLs: ['*'] }, {}, false],
  ];
  for (const [what, r, a, allowed] of cases) {
    it(what, () => expect(ruleAllows(rule(r), attrs(a))).toBe(allowed));
  }

  const urls: [string, string[], NonResourceAttributes, boolean][] = [
    ['* is every path', ['*'], { path: '/healthz', verb: 'get' }, true],
    ['an exact path', ['/healthz'], { path: '/healthz', verb: 'get' }, true],
    ['not a prefix without *', ['/api'], { path: '/apis', verb: 'get' }, false],
    ['a prefix with *', ['/api/*'], { path: '/api/v1', verb: 'get' }, true],
    ['a prefix with * needs the prefix', ['/api/*'], { path: '/apis', verb: 'get' }, false],
    ['** trims to the same prefix', ['/metrics**'], { path: '/metrics/slis', verb: 'get' }, true],
    ['no URLs', [], { path: '/', verb: 'get' }, false],
    ['only trailing * make a prefix', ['/a*b*'], { path: '/a*bc', verb: 'get' }, true],
    ['a * inside is itself', ['/a*b*'], { path: '/abc', verb: 'get' }, false],
  ];
  for (const [what, nonResourceURLs, a, allowed] of urls) {
    it(what, () => expect(ruleAllows(rule({ resources: [], nonResourceURLs }), a)).toBe(allowed));
  }
  it('checks the verb of a non-resource request', () => {
    expect(ruleAllows(rule({ verbs: ['get'], nonResourceURLs: ['*'] }), { path: '/x', verb: 'post' })).toBe(
      false,
    );
  });
  it('matches an empty name only by an empty resourceName', () => {
    expect(ruleAllows(rule({ resourceNames: [''] }), attrs({}))).toBe(true);
  });
});

describe('authorize, over the store', () => {
  it('finds ClusterRoleBindings by user, group and service account', () => {
    const store = new SimStore();
    clusterRole(store, 'reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
    crb(store, 'by-user', ref('ClusterRole', 'reader'), [user('ann')]);
    crb(store, 'by-group', ref('ClusterRole', 'reader'), [{ kind: 'Group', name: 'ops' }]);
    crb(store, 'by-sa', ref('ClusterRole', 'reader'), [
      { kind: 'ServiceAccount', name: 'bot', namespace: 'ci' },
    ]);
    const a = attrs({ namespace: 'x' });
    expect(authorize(store, { user: 'ann', groups: [] }, a)).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "by-user" of ClusterRole "reader" to User "ann"',
    });
    expect(authorize(store, { user: 'bob', groups: ['dev', 'ops'] }, a)).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "by-group" of ClusterRole "reader" to Group "ops"',
    });
    expect(authorize(store, { user: 'system:serviceaccount:ci:bot', groups: [] }, a)).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by ClusterRoleBinding "by-sa" of ClusterRole "reader" to ServiceAccount "bot/ci"',
    });
    expect(authorize(store, { user: 'system:serviceaccount:cd:bot', groups: [] }, a)).toEqual({
      allowed: false,
      reason: '',
    });
    // Groups are what the review says: "ann" as a group grants nothing, nor does a group named like the user.
    expect(authorize(store, { user: 'carl', groups: ['ann'] }, a).allowed).toBe(false);
    expect(authorize(store, { user: 'ops', groups: [] }, a).allowed).toBe(false);
  });

  it('never matches a ServiceAccount without a namespace in a ClusterRoleBinding', () => {
    const store = new SimStore();
    clusterRole(store, 'all', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
    crb(store, 'sa', ref('ClusterRole', 'all'), [{ kind: 'ServiceAccount', name: 'bot' }]);
    expect(authorize(store, { user: 'system:serviceaccount::bot', groups: [] }, attrs({})).allowed).toBe(
      false,
    );
  });

  it('applies RoleBindings only in their namespace, with Roles of that namespace or ClusterRoles', () => {
    const store = new SimStore();
    role(store, 'shop', 'r', [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] }]);
    role(store, 'other', 'r', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
    clusterRole(store, 'events', [{ apiGroups: [''], resources: ['events'], verbs: ['list'] }]);
    rb(store, 'shop', 'team', ref('Role', 'r'), [{ kind: 'Group', name: 'team' }]);
    rb(store, 'shop', 'events', ref('ClusterRole', 'events'), [
      { kind: 'ServiceAccount', name: 'watcher' },
      user('eve'),
    ]);
    const team = { user: 'tom', groups: ['team'] };
    expect(authorize(store, team, attrs({ namespace: 'shop', verb: 'list' }))).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "team/shop" of Role "r" to Group "team"',
    });
    expect(authorize(store, team, attrs({ namespace: 'shop', subresource: 'log' })).allowed).toBe(true);
    // The Role of namespace "other" with the same name is not the one the binding names.
    expect(authorize(store, team, attrs({ namespace: 'shop', verb: 'delete' })).allowed).toBe(false);
    expect(authorize(store, team, attrs({ namespace: 'other', verb: 'list' })).allowed).toBe(false);
    expect(authorize(store, team, attrs({ verb: 'list' })).allowed).toBe(false);
    // A ClusterRole through a RoleBinding: its namespace only.
    const eve = { user: 'eve', groups: [] };
    expect(authorize(store, eve, attrs({ namespace: 'shop', verb: 'list', resource: 'events' }))).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "events/shop" of ClusterRole "events" to User "eve"',
    });
    expect(
      authorize(store, eve, attrs({ namespace: 'batch', verb: 'list', resource: 'events' })).allowed,
    ).toBe(false);
    expect(authorize(store, eve, attrs({ verb: 'list', resource: 'events' })).allowed).toBe(false);
    // A ServiceAccount subject of a RoleBinding defaults to the binding's namespace.
    const sa = (ns: string) => ({ user: `system:serviceaccount:${ns}:watcher`, groups: [] });
    expect(
      authorize(store, sa('shop'), attrs({ namespace: 'shop', verb: 'list', resource: 'events' })),
    ).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "events/shop" of ClusterRole "events" to ServiceAccount "watcher/shop"',
    });
    expect(
      authorize(store, sa('batch'), attrs({ namespace: 'shop', verb: 'list', resource: 'events' })).allowed,
    ).toBe(false);
  });

  it('lets a RoleBinding in X grant get on the Namespace X', () => {
    const store = new SimStore();
    role(store, 'shop', 'ns', [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }]);
    rb(store, 'shop', 'ns', ref('Role', 'ns'), [user('ann')]);
    const who = { user: 'ann', groups: [] };
    expect(
      authorize(store, who, attrs({ namespace: 'shop', resource: 'namespaces', name: 'shop' })).allowed,
    ).toBe(true);
    expect(authorize(store, who, attrs({ resource: 'namespaces', name: 'shop' })).allowed).toBe(false);
  });

  it('tries every binding that applies until one allows', () => {
    const store = new SimStore();
    clusterRole(store, 'a-nothing', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]);
    clusterRole(store, 'b-pods', [
      { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
    ]);
    crb(store, 'a', ref('ClusterRole', 'a-nothing'), [user('x'), user('ann')]);
    crb(store, 'b', ref('ClusterRole', 'b-pods'), [{ kind: 'Group', name: 'g' }, user('ann')]);
    expect(authorize(store, { user: 'ann', groups: ['g'] }, attrs({}))).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "b" of ClusterRole "b-pods" to Group "g"',
    });
  });

  it('says which roles are missing when nothing allows', () => {
    const store = new SimStore();
    crb(store, 'gone', ref('ClusterRole', 'gone'), [user('ann')]);
    expect(authorize(store, { user: 'ann', groups: [] }, attrs({}))).toEqual({
      allowed: false,
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
    rb(store, 'shop', 'gone', ref('Role', 'gone'), [user('ann')]);
    crb(store, 'role-ref', ref('Role', 'r'), [user('ann')]);
    crb(store, 'weird', ref('Thing', 't'), [user('ann')]);
    role(store, '', 'r', []);
    expect(authorize(store, { user: 'ann', groups: [] }, attrs({ namespace: 'shop' }))).toEqual({
      allowed: false,
      reason:
        'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "r" not found, ' +
        'unsupported role reference kind: "Thing", role.rbac.authorization.k8s.io "gone" not found]',
    });
    // A binding that does not apply reports nothing.
    expect(authorize(store, { user: 'bob', groups: [] }, attrs({ namespace: 'shop' }))).toEqual({
      allowed: false,
      reason: '',
    });
  });

  it('reads malformed stored objects as granting nothing, without throwing', () => {
    const store = new SimStore();
    clusterRole(store, 'odd', 'not a list');
    clusterRole(store, 'odder', [null, 'x', { verbs: 'get', apiGroups: [7], resources: ['*'] }]);
    crb(store, 'a', ref('ClusterRole', 'odd'), [user('ann')]);
    crb(store, 'b', ref('ClusterRole', 'odder'), [null, { kind: 'User', name: 5 }, user('ann')]);
    crb(store, 'c', null, 'nobody');
    crb(store, 'd', ref('ClusterRole', 'odder'), [{ kind: 'Robot', name: 'ann' }]);
    expect(authorize(store, { user: 'ann', groups: [] }, attrs({}))).toEqual({ allowed: false, reason: '' });
    // Subjects of unknown kinds never apply, even one shaped like a ServiceAccount.
    clusterRole(store, 'all', [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'], nonResourceURLs: [5, '/x'] },
    ]);
    crb(store, 'f', ref('ClusterRole', 'all'), [
      { kind: 'Robot', name: 'ann' },
      { kind: 'Robot', name: 'bot', namespace: 'ci' },
    ]);
    expect(authorize(store, { user: 'ann', groups: [] }, attrs({})).allowed).toBe(false);
    expect(authorize(store, { user: 'system:serviceaccount:ci:bot', groups: [] }, attrs({})).allowed).toBe(
      false,
    );
    // A URL that is not a string is skipped, not called.
    crb(store, 'g', ref('ClusterRole', 'all'), [user('urls')]);
    expect(authorize(store, { user: 'urls', groups: [] }, { path: '/x', verb: 'get' }).allowed).toBe(true);
    expect(authorize(store, { user: 'urls', groups: [] }, { path: '/y', verb: 'get' }).allowed).toBe(false);
    // A roleRef kind that is not a string is no kind at all.
    crb(store, 'h', { kind: 7, name: 'all' }, [user('ref')]);
    expect(authorize(store, { user: 'ref', groups: [] }, attrs({}))).toEqual({
      allowed: false,
      reason: 'RBAC: unsupported role reference kind: ""',
    });
    clusterRole(store, 'fine', [{ verbs: ['get', 1], apiGroups: ['', null], resources: ['pods'] }]);
    crb(store, 'e', ref('ClusterRole', 'fine'), [user('ann')]);
    expect(authorize(store, { user: 'ann', groups: [] }, attrs({})).allowed).toBe(true);
  });

  it('answers non-resource requests from ClusterRoleBindings only', () => {
    const store = new SimStore();
    clusterRole(store, 'health', [{ nonResourceURLs: ['/healthz', '/livez'], verbs: ['get'] }]);
    role(store, 'shop', 'health', [{ nonResourceURLs: ['*'], verbs: ['*'] }]);
    crb(store, 'health', ref('ClusterRole', 'health'), [{ kind: 'Group', name: 'system:authenticated' }]);
    rb(store, 'shop', 'health', ref('Role', 'health'), [user('ann')]);
    expect(
      authorize(store, { user: 'ann', groups: ['system:authenticated'] }, { path: '/livez', verb: 'get' }),
    ).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by ClusterRoleBinding "health" of ClusterRole "health" to Group "system:authenticated"',
    });
    expect(authorize(store, { user: 'ann', groups: [] }, { path: '/livez', verb: 'get' })).toEqual({
      allowed: false,
      reason: '',
    });
    // Not even a ClusterRole a RoleBinding names.
    rb(store, 'shop', 'cluster-health', ref('ClusterRole', 'health'), [user('ann')]);
    expect(authorize(store, { user: 'ann', groups: [] }, { path: '/livez', verb: 'get' })).toEqual({
      allowed: false,
      reason: '',
    });
    expect(
      authorize(store, { user: 'ann', groups: ['system:authenticated'] }, { path: '/readyz', verb: 'get' })
        .allowed,
    ).toBe(false);
  });
});
