/** The 403's words, as kubectl's, and its permission as data. */
import { describe, expect, it } from 'vitest';
import { forbiddenProblem } from './forbidden';

describe('forbiddenProblem', () => {
  it('words a namespaced list as kubectl does', () => {
    const p = forbiddenProblem('skiff:alice', {
      verb: 'list',
      group: '',
      resource: 'pods',
      namespace: 'kube-system',
    }).toProblem();
    expect(p).toMatchObject({
      status: 403,
      code: 'forbidden',
      detail:
        'pods is forbidden: User "skiff:alice" cannot list resource "pods" in API group "" in the namespace "kube-system"',
      user: 'skiff:alice',
      permission: { verb: 'list', group: '', resource: 'pods', namespace: 'kube-system' },
    });
    expect(Object.keys(p.permission as object)).toEqual(['verb', 'group', 'resource', 'namespace']);
  });

  it('names the object, the subresource and the cluster scope', () => {
    const p = forbiddenProblem('bob', {
      verb: 'get',
      group: 'apps',
      resource: 'deployments',
      subresource: 'scale',
      name: 'web',
    }).toProblem();
    expect(p.detail).toBe(
      'deployments/scale "web" is forbidden: User "bob" cannot get resource "deployments/scale" in API group "apps" at the cluster scope',
    );
    expect(p.permission).toEqual({
      verb: 'get',
      group: 'apps',
      resource: 'deployments',
      subresource: 'scale',
      name: 'web',
    });
  });

  it('says an anonymous caller, and names no user', () => {
    const p = forbiddenProblem(undefined, { verb: 'list', group: '', resource: 'nodes' }).toProblem();
    expect(p.detail).toBe(
      'nodes is forbidden: an anonymous caller cannot list resource "nodes" in API group "" at the cluster scope',
    );
    expect('user' in p).toBe(false);
    // At the cluster scope the permission has no namespace member at all, not an undefined one.
    expect(Object.keys(p.permission as object)).toEqual(['verb', 'group', 'resource']);
  });
});
