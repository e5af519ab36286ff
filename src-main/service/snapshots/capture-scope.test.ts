/** capture-scope.ts: the forbidden gap of a part, worded and bounded, and what may be taken. */
import { expect, it } from 'vitest';
import { forbiddenGap, inScope } from './capture-scope';

const PODS = { verb: 'list', group: '', resource: 'pods' } as const;
const scope = (allowed: string[], denied: string[]) => ({ allowed: new Set(allowed), denied });

it('is no gap when the part may be read everywhere', () => {
  expect(forbiddenGap('pods', PODS, undefined, true)).toBeUndefined();
  expect(forbiddenGap('nodes', PODS, undefined, false)).toBeUndefined();
  expect(forbiddenGap('pods', PODS, scope(['a', 'b'], []), true)).toBeUndefined();
});

it('names the permission and the namespaces refused, and where it was taken', () => {
  expect(forbiddenGap('pods', PODS, scope(['shop'], ['kube-system', 'default']), true)).toEqual({
    part: 'pods',
    reason:
      'forbidden: the taker cannot list resource "pods" in API group "" in the namespaces default, kube-system; taken in shop only',
  });
});

it('says nothing was taken when no namespace was allowed', () => {
  expect(forbiddenGap('pods', PODS, scope([], ['b', 'a']), true)).toEqual({
    part: 'pods',
    reason: 'forbidden: the taker cannot list resource "pods" in API group "" in the namespaces a, b',
  });
});

it('words a cluster-scoped part at the cluster scope, and a subresource as kubectl does', () => {
  const nodes = { verb: 'list', group: 'metrics.k8s.io', resource: 'nodes' } as const;
  expect(forbiddenGap('node metrics', nodes, scope([], []), false)).toEqual({
    part: 'node metrics',
    reason:
      'forbidden: the taker cannot list resource "nodes" in API group "metrics.k8s.io" at the cluster scope',
  });
  const logs = { verb: 'get', group: '', resource: 'pods', subresource: 'log' } as const;
  expect(forbiddenGap('logs', logs, scope(['x'], ['y']), true)?.reason).toBe(
    'forbidden: the taker cannot get resource "pods/log" in API group "" in the namespaces y; taken in x only',
  );
});

it('names the first ten namespaces, then how many more', () => {
  const many = Array.from({ length: 13 }, (_, i) => `ns-${String(i).padStart(2, '0')}`);
  const ten = many.slice(0, 10).join(', ');
  expect(forbiddenGap('pods', PODS, scope(many, [...many].reverse()), true)?.reason).toBe(
    `forbidden: the taker cannot list resource "pods" in API group "" in the namespaces ${ten} and 3 more; taken in ${ten} and 3 more only`,
  );
  const exactlyTen = many.slice(0, 10);
  expect(forbiddenGap('pods', PODS, scope([], exactlyTen), true)?.reason).toBe(
    `forbidden: the taker cannot list resource "pods" in API group "" in the namespaces ${ten}`,
  );
});

it('takes everything without a scope, else only the namespaces allowed', () => {
  expect(inScope(undefined, 'anything')).toBe(true);
  expect(inScope(undefined, '')).toBe(true);
  expect(inScope(scope(['shop'], ['x']), 'shop')).toBe(true);
  expect(inScope(scope(['shop'], ['x']), 'x')).toBe(false);
  expect(inScope(scope(['shop'], []), '')).toBe(false);
});
