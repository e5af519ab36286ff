/**
 * ChangeReads (reads-api.ts) without a service: a real ClusterConnection to the embedded simulator
 * (its namespaces and kinds), a real SQLite database holding change_history rows, the rule-table
 * ReadAccess of the auth tests for `--authorize rbac`, and a writer that counts its flushes. Fast
 * enough to be the module's own tests under mutation testing; changes-api.it covers the same over
 * HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPEN_ACCESS } from '../../auth/rbac/access';
import { type Rule, ruleAccess } from '../../auth/rule-access.test-support';
import { simPerFile } from '../../cache/cache.test-support';
import { ClusterConnection } from '../../clusters/cluster';
import type { KindInfo } from '../../clusters/kind-info';
import { contextsFromYaml } from '../../kube/kubeconfig';
import { silentLogger } from '../../logger';
import { deployment, type FixtureRow, insertRows, MIN, readsPerTest, T0 } from './reads.test-support';
import { ChangeReads, type ChangeWriter } from './reads-api';

const env = simPerFile();
const rig = readsPerTest('sqlite');
let cluster: ClusterConnection;
let kinds: readonly KindInfo[];
const signal = new AbortController().signal;
const kind = (resourceType: string) => kinds.find((k) => k.resourceType === resourceType)!;

beforeAll(async () => {
  for (const name of ['shop', 'other'])
    env.sim.store.upsert({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const source = contextsFromYaml(env.sim.kubeconfigYaml('c1'))[0]!;
  cluster = new ClusterConnection('c1', source, {
    timeoutMs: 5_000,
    logger: silentLogger(),
    watch: { baseMs: 60_000, capMs: 60_000, stableAfterMs: 60_000 },
  });
  kinds = await cluster.kinds(signal);
});
afterAll(async () => {
  await cluster?.close();
});

/** A recorder that writes the cluster's rows (or not), counting its flushes. */
function writer(records = true): ChangeWriter & { flushes: number; v: number } {
  return {
    flushes: 0,
    v: 1,
    async flush() {
      this.flushes++;
    },
    version() {
      return this.v;
    },
    records: () => records,
  };
}

const NOW = T0 + 60 * MIN;
let w: ReturnType<typeof writer>;
let reads: ChangeReads;
beforeEach(() => {
  w = writer();
  reads = new ChangeReads({ backend: rig.backend, writer: () => w, signals: rig.backend, now: () => NOW });
});

const row = (i: number, over: Partial<FixtureRow> = {}): FixtureRow => ({
  timeMs: T0 + i * MIN,
  change: 'updated',
  resourceVersion: String(i),
  ...over,
});
const created = (i: number, image: string, over: Partial<FixtureRow> = {}): FixtureRow =>
  row(i, { change: 'created', object: deployment(image), ...over });

const deployments = (namespace?: string): Rule => ({
  verbs: ['get', 'list'],
  group: 'apps',
  resources: ['deployments'],
  ...(namespace !== undefined ? { namespace } : {}),
});

const objectQuery = (
  over: { namespace?: string | undefined; name?: string; access?: ReturnType<typeof ruleAccess> } = {},
) => ({
  cluster,
  kind: kind('deployment'),
  access: over.access ?? OPEN_ACCESS,
  namespace: 'namespace' in over ? over.namespace : 'shop',
  name: over.name ?? 'checkout',
});

describe('ChangeReads: an object', () => {
  it('answers its history after writing what is pending, in the named namespace', async () => {
    await insertRows(rig.backend, [row(1), row(2), row(3, { namespace: 'other' }), row(4, { name: 'cart' })]);
    const got = await reads.history(objectQuery(), undefined, undefined, 10, 0);
    expect(got.total).toBe(2);
    expect(got.items.map((c) => c.resourceVersion)).toEqual(['2', '1']);
    expect(w.flushes).toBe(1);
  });

  it('counts a duration back from the clock, and takes an instant as it is', async () => {
    await insertRows(rig.backend, [row(1), row(50), row(58)]);
    const since = await reads.history(objectQuery(), { durationMs: 10 * MIN }, undefined, 10, 0);
    expect(since.items.map((c) => c.resourceVersion)).toEqual(['58', '50']);
    const until = await reads.history(objectQuery(), undefined, { instant: T0 + 10 * MIN }, 10, 0);
    expect(until.items.map((c) => c.resourceVersion)).toEqual(['1']);
    expect(reads.range(cluster, { durationMs: MIN }, { instant: 5 })).toEqual({
      sinceMs: NOW - MIN,
      untilMs: 5,
    });
    expect(reads.range(cluster, undefined, undefined)).toEqual({ sinceMs: undefined, untilMs: undefined });
  });

  it('named without a namespace: found where its rows are, a 409 naming several, empty for none', async () => {
    await insertRows(rig.backend, [
      row(1),
      row(2, { name: 'cart', namespace: 'other' }),
      row(3, { name: 'cart' }),
    ]);
    const one = await reads.history(objectQuery({ namespace: undefined }), undefined, undefined, 10, 0);
    expect(one.items.map((c) => c.resourceVersion)).toEqual(['1']);
    await expect(
      reads.history(objectQuery({ namespace: undefined, name: 'cart' }), undefined, undefined, 10, 0),
    ).rejects.toMatchObject({
      code: 'conflict',
      message:
        'deployment "cart" was recorded in several namespaces (other, shop); name the namespace in the path',
    });
    expect(
      await reads.history(objectQuery({ namespace: undefined, name: 'none' }), undefined, undefined, 10, 0),
    ).toEqual({ items: [], total: 0 });
    // Under rbac too: nothing recorded anywhere is an empty history, not a 403.
    const shopOnly = ruleAccess([deployments('shop')]);
    expect(
      await reads.history(
        objectQuery({ namespace: undefined, name: 'none', access: shopOnly }),
        undefined,
        undefined,
        10,
        0,
      ),
    ).toEqual({ items: [], total: 0 });
    // A cluster-scoped object: its rows have no namespace.
    await insertRows(rig.backend, [
      row(4, { resourceType: 'node', kind: 'Node', namespace: '', name: 'n1' }),
    ]);
    const node = await reads.history(
      { ...objectQuery({ name: 'n1' }), kind: kind('node'), namespace: undefined },
      undefined,
      undefined,
      10,
      0,
    );
    expect(node.items.map((c) => c.resourceVersion)).toEqual(['4']);
  });

  it('under rbac: needs get where it looks, and finds it only where the caller may get it', async () => {
    await insertRows(rig.backend, [
      row(1, { name: 'cart', namespace: 'other' }),
      row(2, { name: 'cart' }),
      row(3, { namespace: 'other' }),
    ]);
    const access = ruleAccess([deployments('shop')]);
    const cart = await reads.history(
      objectQuery({ namespace: undefined, name: 'cart', access }),
      undefined,
      undefined,
      10,
      0,
    );
    expect(cart.items.map((c) => c.resourceVersion)).toEqual(['2']);
    // Held only where it may not be read: the cluster-scope 403.
    await expect(
      reads.history(objectQuery({ namespace: undefined, access }), undefined, undefined, 10, 0),
    ).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('at the cluster scope') });
    await expect(
      reads.history(objectQuery({ namespace: 'other', access }), undefined, undefined, 10, 0),
    ).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('in the namespace "other"'),
    });
    expect(access.asked.at(-1)).toMatchObject({
      verb: 'get',
      group: 'apps',
      resource: 'deployments',
      name: 'checkout',
    });
    // A cluster-scoped kind: get at the cluster scope.
    const nodes = ruleAccess([]);
    await expect(
      reads.history(
        { ...objectQuery({ access: nodes }), kind: kind('node'), namespace: undefined },
        undefined,
        undefined,
        10,
        0,
      ),
    ).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('"nodes"') });
    expect(nodes.asked).toEqual([{ verb: 'get', group: '', resource: 'nodes', name: 'checkout' }]);
  });

  it('answers the object as recorded at an instant, or 404 naming what was asked', async () => {
    await insertRows(rig.backend, [created(1, 'v1'), created(5, 'v2', { change: 'updated' })]);
    const at = await reads.at(objectQuery(), { instant: T0 + 2 * MIN });
    expect(at).toMatchObject({ metadata: { name: 'checkout', resourceVersion: '1' } });
    const later = await reads.at(objectQuery({ namespace: undefined }), { durationMs: 0 });
    expect(later).toMatchObject({ metadata: { resourceVersion: '5' } });
    await expect(reads.at(objectQuery(), { instant: T0 })).rejects.toMatchObject({
      code: 'resource_not_found',
      message: `deployment "checkout" in namespace "shop" was not recorded at ${new Date(T0).toISOString()}: before its first recorded version, deleted, or not recorded at all`,
    });
    await expect(
      reads.at(objectQuery({ namespace: undefined, name: 'none' }), { durationMs: MIN }),
    ).rejects.toMatchObject({
      message: `deployment "none" was not recorded at ${new Date(NOW - MIN).toISOString()}: before its first recorded version, deleted, or not recorded at all`,
    });
  });
});

describe('ChangeReads: the feed', () => {
  const q = (over: { kind?: KindInfo | undefined; namespace?: string } = {}) => ({
    kind: over.kind,
    namespace: over.namespace,
    since: undefined,
    until: undefined,
  });
  const versions = (p: { items: { resourceVersion: string }[] }) => p.items.map((c) => c.resourceVersion);

  it('is everything recorded with open access, narrowed by kind, namespace and time', async () => {
    await insertRows(rig.backend, [
      row(1),
      row(2, { namespace: 'other' }),
      row(3, { resourceType: 'configmap', kind: 'ConfigMap' }),
      row(4, { cluster: 'c2' }),
    ]);
    expect(versions(await reads.changes(cluster, OPEN_ACCESS, q(), 10, 0, signal))).toEqual(['3', '2', '1']);
    expect(
      versions(
        await reads.changes(
          cluster,
          OPEN_ACCESS,
          q({ kind: kind('deployment'), namespace: 'shop' }),
          10,
          0,
          signal,
        ),
      ),
    ).toEqual(['1']);
    expect(
      await reads.feedFilter(
        cluster,
        OPEN_ACCESS,
        { ...q(), since: { durationMs: MIN }, until: { instant: 7 } },
        signal,
      ),
    ).toStrictEqual({ sinceMs: NOW - MIN, untilMs: 7 });
    expect(w.flushes).toBe(2);
  });

  it('under rbac: a kind needs list where it looks, across namespaces only where it is allowed', async () => {
    await insertRows(rig.backend, [row(1), row(2, { namespace: 'other' })]);
    const shopOnly = ruleAccess([deployments('shop')]);
    const feed = await reads.changes(cluster, shopOnly, q({ kind: kind('deployment') }), 10, 0, signal);
    expect(versions(feed)).toEqual(['1']);
    await expect(
      reads.changes(cluster, shopOnly, q({ kind: kind('deployment'), namespace: 'other' }), 10, 0, signal),
    ).rejects.toMatchObject({ code: 'forbidden' });
    expect(shopOnly.asked.at(-1)).toEqual({
      verb: 'list',
      group: 'apps',
      resource: 'deployments',
      namespace: 'other',
    });
    const everywhere = ruleAccess([deployments()]);
    expect(
      await reads.feedFilter(cluster, everywhere, q({ kind: kind('deployment') }), signal),
    ).toStrictEqual({
      resourceType: 'deployment',
    });
    expect(
      await reads.feedFilter(cluster, everywhere, q({ kind: kind('deployment'), namespace: 'shop' }), signal),
    ).toEqual({ namespace: 'shop', resourceType: 'deployment' });
    // A cluster-scoped kind: list at the cluster scope, without a namespace.
    const none = ruleAccess([]);
    await expect(reads.feedFilter(cluster, none, q({ kind: kind('node') }), signal)).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect(none.asked).toEqual([{ verb: 'list', group: '', resource: 'nodes' }]);
  });

  it('under rbac without a kind: every kind served but events, with what the caller may list', async () => {
    await insertRows(rig.backend, [
      row(1),
      row(2, { namespace: 'other' }),
      row(3, { resourceType: 'node', kind: 'Node', namespace: '' }),
    ]);
    const access = ruleAccess([deployments('shop'), { verbs: ['list'], group: '', resources: ['nodes'] }]);
    const filter = await reads.feedFilter(cluster, access, q(), signal);
    const allowed = filter.allowed!;
    expect(allowed.get('deployment')).toEqual(['shop']);
    expect(allowed.get('node')).toBe('all');
    expect(allowed.get('configmap')).toEqual([]);
    expect(allowed.get('namespace')).toEqual([]);
    expect([...allowed.keys()].some((k) => k.includes('event'))).toBe(false);
    expect(versions(await reads.changes(cluster, access, q(), 10, 0, signal))).toEqual(['3', '1']);
    // Looking in one namespace: only it is asked about.
    const inOther = await reads.feedFilter(cluster, access, q({ namespace: 'other' }), signal);
    expect(inOther.allowed?.get('deployment')).toEqual([]);
    expect(inOther.namespace).toBe('other');
    const otherOnly = await reads.feedFilter(
      cluster,
      ruleAccess([deployments('other')]),
      q({ namespace: 'other' }),
      signal,
    );
    expect(otherOnly.allowed?.get('deployment')).toEqual(['other']);
    // A RoleBinding does not grant a cluster-scoped kind.
    const nodesInShop = ruleAccess([{ verbs: ['list'], group: '', resources: ['nodes'], namespace: 'shop' }]);
    expect((await reads.feedFilter(cluster, nodesInShop, q(), signal)).allowed?.get('node')).toEqual([]);
    const everywhere = await reads.feedFilter(cluster, ruleAccess([deployments()]), q(), signal);
    expect(everywhere.allowed?.get('deployment')).toBe('all');
  });

  it('remembers totals per version of the rows: the recorder’s, or what another replica’s writes move', async () => {
    await insertRows(rig.backend, [row(1)]);
    const total = async () => (await reads.changes(cluster, OPEN_ACCESS, q(), 1, 5, signal)).total;
    expect(await total()).toBe(1);
    // Another replica records a cluster with no rows: nothing is its oldest row.
    w = writer(false);
    expect((await reads.changes(cluster, OPEN_ACCESS, q(), 1, 0, signal)).total).toBe(1);
    const empty = await reads.changes(
      { ...cluster, clusterId: 'c9' } as unknown as typeof cluster,
      OPEN_ACCESS,
      { ...q(), kind: undefined },
      1,
      0,
      signal,
    );
    expect(empty).toEqual({ items: [], total: 0 });
    w = writer();
    // This replica records: a row it did not count (its version unchanged) is not in the total.
    await insertRows(rig.backend, [row(2)]);
    expect(await total()).toBe(1);
    w.v++;
    expect(await total()).toBe(2);

    // Another replica records: the newest id moves the total.
    w = writer(false);
    expect(await total()).toBe(2);
    await insertRows(rig.backend, [row(3)]);
    expect(await total()).toBe(3);
    // Retention removes the oldest row: the cluster's oldest row moves it.
    await rig.backend.run("DELETE FROM change_history WHERE resource_version = '1'");
    expect(await total()).toBe(2);
    // A batch another replica announced moves it, though neither id moved.
    const shop = async (r: ChangeReads) =>
      (await r.changes(cluster, OPEN_ACCESS, q({ namespace: 'shop' }), 1, 5, signal)).total;
    expect(await shop(reads)).toBe(2);
    await rig.backend.run("UPDATE change_history SET namespace = 'gone' WHERE resource_version = '2'");
    expect(await shop(reads)).toBe(2);
    await rig.backend.notify('skiff_changes', 'c1');
    await new Promise((r) => setImmediate(r));
    expect(await shop(reads)).toBe(1);
    // And every batch announced after it.
    await rig.backend.run("UPDATE change_history SET namespace = 'shop' WHERE resource_version = '2'");
    expect(await shop(reads)).toBe(1);
    await rig.backend.notify('skiff_changes', 'c1');
    await new Promise((r) => setImmediate(r));
    expect(await shop(reads)).toBe(2);
    await rig.backend.run("UPDATE change_history SET namespace = 'gone' WHERE resource_version = '2'");
    // Without a signal nothing is remembered.
    const unheard = new ChangeReads({ backend: rig.backend, writer: () => undefined, now: () => NOW });
    expect(await shop(unheard)).toBe(1);
    await rig.backend.run("UPDATE change_history SET namespace = 'gone' WHERE resource_version = '3'");
    expect(await shop(unheard)).toBe(0);
  });
});
