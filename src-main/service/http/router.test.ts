/**
 * The API router (router.ts), built from the contract table: what it finds, what it answers for a
 * path without the method (405 with Allow) or without a route (404), and which of two operations
 * sharing a path a query picks. Each test builds its own router, so the building is measured too.
 */
import { describe, expect, it } from 'vitest';
import { operationNames, operations } from '../../../src-shared/contract/operations';
import { createApiRouter } from './router';

const EVENTS = '/v1/workspaces/default/observability/sim/kubernetes-events';

describe('the API router', () => {
  it('finds every operation of the contract at its method and path, with its parameters', () => {
    const router = createApiRouter();
    for (const name of operationNames) {
      const spec = operations[name];
      if (spec.when) continue; // answers only with its query; see below
      const path = spec.path.replace(/:(\w+)/g, (_m, p: string) => `${p}-value`);
      const match = router.match(spec.method, path);
      expect(match, name).toMatchObject({ name });
      const params = [...spec.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      expect((match as { params: Record<string, string> }).params, name).toEqual(
        Object.fromEntries(params.map((p) => [p, `${p}-value`])),
      );
    }
  });

  it('passes path parameters as they are, long ones included', () => {
    const name = `pod-${'x'.repeat(300)}`;
    const match = createApiRouter().match(
      'GET',
      `/v1/workspaces/team-a/observability/prod/kubernetes-proxy/namespaces/kube-system/pod/${name}`,
    );
    expect(match).toEqual({
      name: 'getNamespacedResource',
      params: {
        workspaceId: 'team-a',
        clusterId: 'prod',
        namespace: 'kube-system',
        resourceType: 'pod',
        resourceName: name,
      },
    });
  });

  it('answers HEAD with the GET route, and takes methods in any case', () => {
    const router = createApiRouter();
    expect(router.match('HEAD', '/v1/health')).toEqual({ name: 'health', params: {} });
    expect(router.match('get', '/v1/workspaces')).toEqual({ name: 'listWorkspaces', params: {} });
    expect(router.match('delete', '/v1/workspaces/w')).toEqual({
      name: 'deleteWorkspace',
      params: { workspaceId: 'w' },
    });
  });

  it('ignores a trailing slash but not the case of the path', () => {
    const router = createApiRouter();
    expect(router.match('GET', '/v1/health/')).toEqual({ name: 'health', params: {} });
    expect(router.match('GET', '/V1/Health')).toBeNull();
  });

  it('names the allowed methods, in a fixed order, for a path that has routes but not this method', () => {
    const router = createApiRouter();
    expect(router.match('DELETE', '/v1/workspaces')).toEqual({ allowed: ['GET', 'POST'] });
    expect(router.match('PUT', '/v1/workspaces/w')).toEqual({ allowed: ['PATCH', 'DELETE'] });
    expect(router.match('POST', '/v1/health')).toEqual({ allowed: ['GET'] });
    // Methods the API has no route for at all are the same case.
    expect(router.match('OPTIONS', '/v1/health')).toEqual({ allowed: ['GET'] });
    expect(router.match('TRACE', '/v1/workspaces')).toEqual({ allowed: ['GET', 'POST'] });
  });

  it('answers null for a path no operation has, whatever the method', () => {
    const router = createApiRouter();
    for (const method of ['GET', 'POST', 'OPTIONS'])
      expect(router.match(method, '/v1/nothing-here'), method).toBeNull();
  });

  it('picks the operation whose query condition holds, and the other one otherwise', () => {
    const router = createApiRouter();
    const watch = router.match('GET', EVENTS, new URLSearchParams('watch=true&limit=5'));
    expect(watch).toEqual({ name: 'watchEvents', params: { workspaceId: 'default', clusterId: 'sim' } });
    for (const query of [undefined, new URLSearchParams(''), new URLSearchParams('watch=false')])
      expect(router.match('GET', EVENTS, query), String(query)).toMatchObject({ name: 'listEvents' });
    // HEAD follows the same choice.
    expect(router.match('HEAD', EVENTS, new URLSearchParams('watch=true'))).toMatchObject({
      name: 'watchEvents',
    });
  });
});
