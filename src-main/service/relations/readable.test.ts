/**
 * relations/readable.ts: an answer cut to what the caller may `get`, from a rule table
 * (auth/rule-access.test-support.ts): refs left out and counted, subtrees with their node, refs
 * of kinds not served kept, one question per kind and namespace.
 */
import { expect, it } from 'vitest';
import type { Relations } from '../../../src-shared/contract/relations-operations';
import { OPEN_ACCESS } from '../auth/rbac/access';
import { ruleAccess } from '../auth/rule-access.test-support';
import { type KindNames, readableRelations } from './readable';

const KINDS: Record<string, KindNames> = {
  pod: { group: '', plural: 'pods' },
  node: { group: '', plural: 'nodes' },
  secret: { group: '', plural: 'secrets' },
  replicaset: { group: 'apps', plural: 'replicasets' },
  deployment: { group: 'apps', plural: 'deployments' },
  service: { group: '', plural: 'services' },
};
const kindOf = (t: string) => KINDS[t];

/** What alice may get: pods and deployments in shop, services in shop; nothing cluster-wide. */
const alice = () =>
  ruleAccess([
    { verbs: ['get'], group: '', resources: ['pods', 'services'], namespace: 'shop' },
    { verbs: ['get'], group: 'apps', resources: ['deployments'], namespace: 'shop' },
  ]);

const answer = (): Relations => ({
  object: { resourceType: 'deployment', namespace: 'shop', name: 'web' },
  owners: [{ resourceType: 'widget.example.com', namespace: 'shop', name: 'w', missing: true }],
  dependents: [
    {
      resourceType: 'replicaset',
      namespace: 'shop',
      name: 'web-1',
      children: [{ resourceType: 'pod', namespace: 'shop', name: 'web-1-a' }],
    },
    {
      resourceType: 'pod',
      namespace: 'shop',
      name: 'direct',
      children: [{ resourceType: 'replicaset', namespace: 'shop', name: 'odd' }],
    },
    {
      resourceType: 'pod',
      namespace: 'shop',
      name: 'leaf',
      children: [{ resourceType: 'pod', namespace: 'shop', name: 'leaf-child' }],
    },
  ],
  uses: [
    { resourceType: 'node', name: 'n1' },
    { resourceType: 'secret', namespace: 'shop', name: 's', missing: true },
    { resourceType: 'pod', namespace: 'shop', name: 'p' },
  ],
  usedBy: [{ resourceType: 'pod', namespace: 'other', name: 'q' }],
  selects: [{ resourceType: 'pod', namespace: 'shop', name: 'sel' }],
  selectedBy: [
    { resourceType: 'service', namespace: 'shop', name: 'svc' },
    { resourceType: 'service', namespace: 'other', name: 'svc' },
  ],
});

it('answers the same object when access is open', async () => {
  const a = answer();
  expect(await readableRelations(a, OPEN_ACCESS, kindOf)).toBe(a);
});

it('leaves out what the caller may not get, a dependents node with its subtree, and counts it', async () => {
  const cut = await readableRelations(answer(), alice(), kindOf);
  expect(cut.object).toEqual(answer().object);
  // A kind the cluster does not serve has nothing to ask: kept.
  expect(cut.owners).toEqual(answer().owners);
  expect(cut.dependents).toEqual([
    // The pod kept, its unreadable child gone, and `children` with it.
    { resourceType: 'pod', namespace: 'shop', name: 'direct' },
    {
      resourceType: 'pod',
      namespace: 'shop',
      name: 'leaf',
      children: [{ resourceType: 'pod', namespace: 'shop', name: 'leaf-child' }],
    },
  ]);
  expect(cut.uses).toEqual([{ resourceType: 'pod', namespace: 'shop', name: 'p' }]);
  expect(cut.usedBy).toEqual([]);
  expect(cut.selects).toEqual([{ resourceType: 'pod', namespace: 'shop', name: 'sel' }]);
  expect(cut.selectedBy).toEqual([{ resourceType: 'service', namespace: 'shop', name: 'svc' }]);
  // replicaset web-1 and its pod (2), replicaset odd (1), node, secret, pod in other, service in other.
  expect(cut.hidden).toBe(7);
});

it('has no hidden when nothing was left out, and asks once per kind and namespace', async () => {
  const access = ruleAccess([
    { verbs: ['get'], group: '', resources: ['pods', 'services', 'secrets', 'nodes'] },
    { verbs: ['get'], group: 'apps', resources: ['replicasets'] },
  ]);
  const cut = await readableRelations(answer(), access, kindOf);
  expect(cut).toEqual(answer());
  expect(cut.hidden).toBeUndefined();
  const asked = access.asked.map((a) => `${a.verb} ${a.group}/${a.resource} ${a.namespace ?? '-'}`);
  expect(asked.sort()).toEqual(
    [
      'get /nodes -',
      'get /pods other',
      'get /pods shop',
      'get /secrets shop',
      'get /services other',
      'get /services shop',
      'get apps/replicasets shop',
    ].sort(),
  );
});

it('asks about refs met only deep in the dependents tree, and a cluster-scoped ref with no namespace', async () => {
  const access = ruleAccess([
    { verbs: ['get'], group: '', resources: ['pods'], namespace: 'shop' },
    { verbs: ['get'], group: '', resources: ['pods'], namespace: 'deep' },
  ]);
  const a: Relations = {
    ...answer(),
    owners: [],
    uses: [{ resourceType: 'node', name: 'n1' }],
    usedBy: [],
    selects: [],
    selectedBy: [],
    dependents: [
      {
        resourceType: 'pod',
        namespace: 'shop',
        name: 'top',
        children: [{ resourceType: 'pod', namespace: 'deep', name: 'below' }],
      },
    ],
  };
  const cut = await readableRelations(a, access, kindOf);
  expect(cut.dependents).toEqual(a.dependents);
  expect(cut.hidden).toBe(1);
  const node = access.asked.find((q) => q.resource === 'nodes');
  expect(node).toEqual({ verb: 'get', group: '', resource: 'nodes' });
  expect(node && 'namespace' in node).toBe(false);
});
