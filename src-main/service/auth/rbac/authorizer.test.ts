/**
 * The RBAC authorizer against the simulator's own RBAC and its demo team (skiff:alice reads only
 * namespace `shop`; skiff:admin reads everything): real SubjectAccessReviews over HTTP, counted at
 * the simulator. Covers the answers, the namespaces question, what is remembered and for whom,
 * snapshots and callers with no identity, and a review the cluster cannot answer.
 */
import { DEMO_TEAM, type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClusterConnection } from '../../clusters/cluster';
import { memoryFrozen, NINE_ROWS } from '../../clusters/frozen.test-support';
import { kindOfDiscovered } from '../../clusters/kind-info';
import type { Principal } from '../../context';
import { ProblemError } from '../../errors';
import { contextsFromYaml } from '../../kube/kubeconfig';
import { type Logger, silentLogger } from '../../logger';
import { OPEN_ACCESS } from './access';
import { createRbacAuthorizer } from './authorizer';

let sim: Simulator;
let cluster: ClusterConnection;
let clock = 0;
const warnings: string[] = [];
const logger = silentLogger();
(logger as unknown as { warn: Logger['warn'] }).warn = ((obj: unknown, msg?: string) => {
  warnings.push(`${msg} ${JSON.stringify((obj as { user?: string }).user)}`);
}) as Logger['warn'];

const local = (username: string): Principal => ({
  accountId: username,
  workspaces: 'all',
  identity: { username, source: 'local', groups: [] },
});
const oidc = (username: string, groups: string[]): Principal => ({
  accountId: username,
  workspaces: 'all',
  identity: { username, source: 'oidc', groups },
});
const PODS = { verb: 'list', group: '', resource: 'pods' } as const;

function authorizer(opts: { concurrency?: number } = {}) {
  return createRbacAuthorizer({
    localPrefix: 'skiff:',
    oidcPrefix: '',
    timeoutMs: 5_000,
    logger,
    now: () => clock,
    ...opts,
  });
}

beforeAll(async () => {
  sim = await startSimulator({ tickMs: false });
  cluster = new ClusterConnection('sim', contextsFromYaml(sim.kubeconfigYaml('sim'))[0]!, {
    timeoutMs: 5_000,
    logger: silentLogger(),
  });
});
afterAll(async () => {
  await cluster.close();
  await sim.close();
});
beforeEach(() => {
  sim.accessReviews.reset();
  sim.faults.accessReviewsDown = false;
  warnings.length = 0;
  clock = 0;
});

describe('the RBAC authorizer', () => {
  it('asks the cluster for the user under its prefix: alice reads shop, and nothing elsewhere', async () => {
    const alice = authorizer()(cluster, local('alice'));
    expect(alice.open).toBe(false);
    expect(await alice.allows({ ...PODS, namespace: DEMO_TEAM.namespace })).toBe(true);
    expect(await alice.allows({ ...PODS, namespace: 'kube-system' })).toBe(false);
    expect(await alice.allows(PODS)).toBe(false);
    expect(sim.accessReviews.recent.map((r) => r.allowed)).toEqual([true, false, false]);
    expect(sim.accessReviews.recent[0]).toMatchObject({
      user: 'skiff:alice',
      groups: ['system:authenticated'],
      attributes: { verb: 'list', group: '', resource: 'pods', namespace: 'shop' },
    });
    expect(sim.accessReviews.recent[2]).toMatchObject({ attributes: { namespace: '' } });
    await alice.require({ ...PODS, namespace: 'shop' });
    const refused = await alice.require({ ...PODS, namespace: 'kube-system' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProblemError);
    expect((refused as ProblemError).toProblem()).toMatchObject({
      status: 403,
      detail:
        'pods is forbidden: User "skiff:alice" cannot list resource "pods" in API group "" in the namespace "kube-system"',
    });
  });

  it('sends the subresource and the name, and the OIDC groups', async () => {
    const a = authorizer()(cluster, oidc('carol@example.com', [DEMO_TEAM.group]));
    expect(
      await a.allows({
        verb: 'get',
        group: '',
        resource: 'pods',
        subresource: 'log',
        namespace: 'shop',
        name: 'x',
      }),
    ).toBe(true);
    expect(sim.accessReviews.recent[0]).toMatchObject({
      user: 'carol@example.com',
      groups: ['shop-devs', 'system:authenticated'],
      attributes: { verb: 'get', resource: 'pods', subresource: 'log', namespace: 'shop', name: 'x' },
    });
  });

  it('answers a namespaces question cluster-wide first: all for the admin, the allowed subset for alice', async () => {
    const auth = authorizer({ concurrency: 2 });
    const candidates = ['default', 'kube-system', 'shop', 'shop', 'web'];
    expect(await auth(cluster, local('admin')).namespaces(PODS, candidates)).toBe('all');
    expect(sim.accessReviews.count).toBe(1);
    const alice = await auth(cluster, local('alice')).namespaces(
      { ...PODS, namespace: 'ignored', name: 'ignored' } as typeof PODS,
      candidates,
    );
    expect(alice).toEqual(new Set(['shop']));
    // One cluster-wide question, then each distinct candidate once.
    expect(sim.accessReviews.count).toBe(1 + 1 + 4);
    const asked = sim.accessReviews.recent
      .slice(1)
      .map((r) => r.attributes as { namespace?: string; name?: string });
    expect(asked.map((a) => a.namespace).sort()).toEqual(['', 'default', 'kube-system', 'shop', 'web']);
    expect(asked.every((a) => !a.name)).toBe(true);
    expect(await auth(cluster, local('alice')).namespaces(PODS, [])).toEqual(new Set());
  });

  it('asks once per question for 30 s, per user and groups and cluster', async () => {
    const auth = authorizer();
    const q = { ...PODS, namespace: 'shop' };
    await Promise.all([auth(cluster, local('alice')).allows(q), auth(cluster, local('alice')).allows(q)]);
    expect(sim.accessReviews.count).toBe(1);
    clock = 29_999;
    await auth(cluster, local('alice')).allows(q);
    expect(sim.accessReviews.count).toBe(1);
    await auth(cluster, local('bob')).allows(q);
    await auth(cluster, oidc('alice', [])).allows(q);
    await auth(cluster, oidc('alice', ['shop-devs'])).allows(q);
    await auth(cluster, local('alice')).allows({ ...q, verb: 'get' });
    await auth(cluster, local('alice')).allows({ ...q, group: 'apps' });
    await auth(cluster, local('alice')).allows({ ...q, resource: 'secrets' });
    await auth(cluster, local('alice')).allows({ ...q, subresource: 'log' });
    await auth(cluster, local('alice')).allows({ ...q, name: 'p' });
    await auth(cluster, local('alice')).allows({ ...q, namespace: 'web' });
    expect(sim.accessReviews.count).toBe(10);
    clock = 30_000;
    await auth(cluster, local('alice')).allows(q);
    expect(sim.accessReviews.count).toBe(11);
  });

  it('keeps clusters apart: the same question of another cluster is asked again', async () => {
    const other = new ClusterConnection('other', contextsFromYaml(sim.kubeconfigYaml('other'))[0]!, {
      timeoutMs: 5_000,
      logger: silentLogger(),
    });
    try {
      const auth = authorizer();
      await auth(cluster, local('alice')).allows(PODS);
      await auth(other, local('alice')).allows(PODS);
      expect(sim.accessReviews.count).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('keeps at most maxEntries decisions', async () => {
    const auth = createRbacAuthorizer({
      localPrefix: 'skiff:',
      oidcPrefix: '',
      timeoutMs: 5_000,
      logger,
      now: () => clock,
      maxEntries: 1,
    });
    const alice = auth(cluster, local('alice'));
    await alice.allows(PODS);
    await alice.allows({ ...PODS, namespace: 'shop' });
    await alice.allows(PODS);
    expect(sim.accessReviews.count).toBe(3);
  });

  it('keeps groups in any order as the same subject', async () => {
    const auth = authorizer();
    await auth(cluster, oidc('dan', ['b', 'a'])).allows(PODS);
    await auth(cluster, oidc('dan', ['a', 'b'])).allows(PODS);
    expect(sim.accessReviews.count).toBe(1);
  });

  it('refuses with 503 authorization_unavailable when the cluster cannot answer, keeps nothing, and logs it', async () => {
    const alice = authorizer()(cluster, local('alice'));
    sim.faults.accessReviewsDown = true;
    const failed = await alice.allows({ ...PODS, namespace: 'shop' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ProblemError);
    expect((failed as ProblemError).code).toBe('authorization_unavailable');
    expect((failed as ProblemError).status).toBe(503);
    expect((failed as ProblemError).message).toMatch(/refused Skiff's SubjectAccessReview \(503/);
    expect(warnings).toEqual(['access review failed "skiff:alice"']);
    sim.faults.accessReviewsDown = false;
    expect(await alice.allows({ ...PODS, namespace: 'shop' })).toBe(true);
  });

  it('refuses with 503 when the cluster cannot be reached', async () => {
    const gone = new ClusterConnection('gone', contextsFromYaml(sim.kubeconfigYaml('gone'))[0]!, {
      timeoutMs: 5_000,
      logger: silentLogger(),
    });
    await gone.close();
    const failed = await authorizer()(gone, local('alice'))
      .allows(PODS)
      .catch((e: unknown) => e);
    expect((failed as ProblemError).code).toBe('authorization_unavailable');
    expect((failed as ProblemError).message).toMatch(/did not answer Skiff's SubjectAccessReview: .*closed/);
  });

  it('leaves a snapshot open: it has no apiserver to ask', async () => {
    const frozen = memoryFrozen(
      { context: 'snap', server: 'https://snap.invalid', takenAt: '2026-01-01T00:00:00Z' },
      {},
      NINE_ROWS,
    );
    const snap = new ClusterConnection('snap', contextsFromYaml(sim.kubeconfigYaml('snap'))[0]!, {
      timeoutMs: 5_000,
      logger: silentLogger(),
      kinds: frozen.kindRows.map((k) => kindOfDiscovered({ ...k, resource: k.plural })),
      frozen,
    });
    try {
      expect(authorizer()(snap, local('alice'))).toBe(OPEN_ACCESS);
    } finally {
      await snap.close();
    }
  });

  it('lets a caller with no identity read nothing, and asks the cluster nothing', async () => {
    const nobody = authorizer()(cluster, { accountId: 'x', workspaces: 'all' });
    expect(nobody.open).toBe(false);
    expect(await nobody.allows(PODS)).toBe(false);
    expect(await nobody.namespaces(PODS, ['shop'])).toEqual(new Set());
    const refused = await nobody.require({ ...PODS, namespace: 'shop' }).catch((e: unknown) => e);
    expect((refused as ProblemError).toProblem()).toMatchObject({
      status: 403,
      code: 'forbidden',
      detail:
        'pods is forbidden: an anonymous caller cannot list resource "pods" in API group "" in the namespace "shop"',
    });
    expect(sim.accessReviews.count).toBe(0);
  });
});
