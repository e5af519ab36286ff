/**
 * read-scope.ts without a cluster: which namespaces a read may look in, from a rule table
 * (rule-access.test-support.ts). The cluster's own namespaces and locateReadable are exercised
 * over HTTP against the simulator (operations/reads-rbac.it.test.ts).
 */
import { expect, it } from 'vitest';
import { OPEN_ACCESS } from './rbac/access';
import { readableNamespaces } from './read-scope';
import { ruleAccess } from './rule-access.test-support';

const EVENTS = { verb: 'list', group: '', resource: 'events' } as const;

it('asks nothing, not even for the candidates, when access is open', async () => {
  let asked = false;
  const found = await readableNamespaces(OPEN_ACCESS, EVENTS, async () => {
    asked = true;
    return ['a'];
  });
  expect(found).toBeUndefined();
  expect(asked).toBe(false);
});

it('is every namespace when the verb is allowed cluster-wide', async () => {
  const access = ruleAccess([{ verbs: ['list'], group: '', resources: ['events'] }]);
  expect(await readableNamespaces(access, EVENTS, async () => ['a', 'b'])).toBeUndefined();
});

it('is the candidates where it is allowed, else', async () => {
  const access = ruleAccess([
    { verbs: ['list'], group: '', resources: ['events'], namespace: 'shop' },
    { verbs: ['get'], group: '', resources: ['events'], namespace: 'other' },
  ]);
  const found = await readableNamespaces(access, EVENTS, async () => ['shop', 'other', 'kube-system']);
  expect(found).toEqual(new Set(['shop']));
});
