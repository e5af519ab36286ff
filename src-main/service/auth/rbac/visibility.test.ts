/**
 * Which namespaces and kinds a caller sees, decided by the simulator's RBAC and its demo team
 * (skiff:alice: namespace shop only; skiff:admin: everything; skiff:nobody: nothing).
 */
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClusterConnection } from '../../clusters/cluster';
import type { Principal } from '../../context';
import { contextsFromYaml } from '../../kube/kubeconfig';
import { silentLogger } from '../../logger';
import { OPEN_ACCESS, type ReadAccess } from './access';
import { createRbacAuthorizer } from './authorizer';
import { visibleKinds, visibleNamespaces } from './visibility';

let sim: Simulator;
let cluster: ClusterConnection;
let access: (username: string) => ReadAccess;

const local = (username: string): Principal => ({
  accountId: username,
  workspaces: 'all',
  identity: { username, source: 'local', groups: [] },
});

const KINDS = [
  { group: '', plural: 'nodes', namespaced: false, name: 'node' },
  { group: '', plural: 'pods', namespaced: true, name: 'pod' },
  { group: 'apps', plural: 'deployments', namespaced: true, name: 'deployment' },
  { group: '', plural: 'namespaces', namespaced: false, name: 'namespace' },
];
const NAMESPACES = ['default', 'kube-system', 'shop', 'web'];

beforeAll(async () => {
  sim = await startSimulator({ tickMs: false });
  cluster = new ClusterConnection('sim', contextsFromYaml(sim.kubeconfigYaml('sim'))[0]!, {
    timeoutMs: 5_000,
    logger: silentLogger(),
  });
  // A fresh authorizer per test: nothing remembered from the one before.
  access = (username) =>
    createRbacAuthorizer({ localPrefix: 'skiff:', oidcPrefix: '', timeoutMs: 5_000, logger: silentLogger() })(
      cluster,
      local(username),
    );
});
afterAll(async () => {
  await cluster.close();
  await sim.close();
});
beforeEach(() => sim.accessReviews.reset());

describe('visibleNamespaces', () => {
  it('is all for open access, asking nothing', async () => {
    expect(await visibleNamespaces(OPEN_ACCESS, NAMESPACES)).toBe('all');
  });

  it('is all for a caller that may list namespaces cluster-wide, in one review', async () => {
    expect(await visibleNamespaces(access('admin'), NAMESPACES)).toBe('all');
    expect(sim.accessReviews.count).toBe(1);
    expect(sim.accessReviews.recent[0]!.attributes).toMatchObject({ verb: 'list', resource: 'namespaces' });
  });

  it('is the namespaces a caller may get, by a Role in each', async () => {
    expect(await visibleNamespaces(access('alice'), NAMESPACES)).toEqual(new Set(['shop']));
    expect(sim.accessReviews.recent.find((r) => r.allowed)?.attributes).toMatchObject({
      verb: 'get',
      resource: 'namespaces',
      namespace: 'shop',
    });
    expect(await visibleNamespaces(access('nobody'), NAMESPACES)).toEqual(new Set());
  });
});

describe('visibleKinds', () => {
  it('is every kind for open access, a copy, asking nothing', async () => {
    const all = await visibleKinds(OPEN_ACCESS, KINDS, []);
    expect(all).toEqual(KINDS);
    expect(all).not.toBe(KINDS);
    expect(sim.accessReviews.count).toBe(0);
  });

  it('is every kind for the admin', async () => {
    expect(await visibleKinds(access('admin'), KINDS, NAMESPACES)).toEqual(KINDS);
  });

  it("is alice's namespaced kinds, listable in shop, and none cluster-scoped", async () => {
    expect((await visibleKinds(access('alice'), KINDS, ['shop'])).map((k) => k.name)).toEqual([
      'pod',
      'deployment',
    ]);
    // Each cluster-scoped kind asked at the cluster scope, each namespaced one there and in shop.
    expect(sim.accessReviews.count).toBe(2 + 2 * 2);
  });

  it('hides a namespaced kind listable only in namespaces the caller does not see', async () => {
    expect(await visibleKinds(access('alice'), KINDS, ['default', 'web'])).toEqual([]);
    expect(await visibleKinds(access('alice'), [], ['shop'])).toEqual([]);
  });

  it('checks many kinds, eight at a time, keeping their order', async () => {
    const many = Array.from({ length: 20 }, (_, i) => ({
      group: '',
      plural: i % 2 ? `things${i}` : 'nodes',
      namespaced: i % 2 === 1,
      name: String(i),
    }));
    const seen = await visibleKinds(access('alice'), many, ['shop']);
    expect(seen.map((k) => k.name)).toEqual(many.filter((k) => k.namespaced).map((k) => k.name));
  });
});
