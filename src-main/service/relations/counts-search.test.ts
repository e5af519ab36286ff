/**
 * Counts: from a running cache, else one `limit=1` list read by its remainingItemCount, kept for
 * a while (failures for less), at most LIST_CONCURRENCY lists at once, the kept ones pruned. And
 * search: name prefixes across caches, namespaces, the order of the hits, and hits built on demand.
 */
import { describe, expect, it } from 'vitest';
import { Collection } from '../cache/collection';
import { compareResources, labelKeys, type ResourceEntry, resourceEntry } from '../cache/entries';
import {
  COUNT_TTL_MS,
  CountKeeper,
  type CountSource,
  countOfPage,
  FAILED_TTL_MS,
  KEPT_MAX,
  LIST_CONCURRENCY,
  type OnePage,
} from './counts';
import { FixtureSource, forbidden, KINDS, obj } from './fixtures.test-support';
import { searchCaches, searchHit } from './search';

const kind = (t: string) => KINDS.find((k) => k.resourceType === t)!;

describe('countOfPage', () => {
  it('is the items alone on a last page, plus remainingItemCount, else a lower bound', () => {
    expect(countOfPage({ items: [] })).toEqual({ count: 0, exact: true });
    expect(countOfPage({ items: [1], continue: '' })).toEqual({ count: 1, exact: true });
    expect(countOfPage({ items: [1], continue: 't', remainingItemCount: 41 })).toEqual({
      count: 42,
      exact: true,
    });
    expect(countOfPage({ items: [1], continue: 't', remainingItemCount: 0 })).toEqual({
      count: 1,
      exact: true,
    });
    expect(countOfPage({ items: [1], continue: 't' })).toEqual({ count: 1, exact: false });
  });
});

class Lists implements CountSource {
  readonly listSource: 'list' | 'snapshot';
  clock = 0;
  readonly now = () => this.clock;
  readonly calls: string[] = [];
  readonly pending: { resolve: (p: OnePage) => void; reject: (e: unknown) => void }[] = [];
  readonly caches = new Map<string, Collection<ResourceEntry>>();
  manual = false;
  answer: (type: string) => OnePage = () => ({ items: [{}], continue: 't', remainingItemCount: 9 });

  constructor(listSource: 'list' | 'snapshot' = 'list') {
    this.listSource = listSource;
  }

  /** Kinds whose running cache cannot list yet. */
  readonly unlisted = new Set<string>();

  async running(k: { resourceType: string }) {
    if (this.unlisted.has(k.resourceType)) throw new Error('first list failing');
    return this.caches.get(k.resourceType)?.view();
  }

  listOne(k: { resourceType: string }, namespace: string | undefined): Promise<OnePage> {
    this.calls.push(`${k.resourceType}@${namespace ?? '*'}`);
    if (this.manual) return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
    try {
      return Promise.resolve(this.answer(k.resourceType));
    } catch (err) {
      return Promise.reject(err);
    }
  }
}

describe('CountKeeper', () => {
  it('counts a running cache, all or in a namespace, and lists nothing for it', async () => {
    const lists = new Lists();
    const pods = new Collection<ResourceEntry>(compareResources, { label: labelKeys });
    for (const [ns, name] of [
      ['b', 'p1'],
      ['a', 'p2'],
      ['b', 'p3'],
    ] as const)
      pods.upsert(resourceEntry(obj('v1', 'Pod', name, ns), 'v1', 'Pod'));
    lists.caches.set('pod', pods);
    const keeper = new CountKeeper(lists);
    expect(await keeper.count(kind('pod'), undefined)).toEqual({
      resourceType: 'pod',
      count: 3,
      exact: true,
      source: 'cache',
    });
    expect(await keeper.count(kind('pod'), 'b')).toMatchObject({ count: 2, source: 'cache' });
    expect(await keeper.count(kind('pod'), 'none')).toMatchObject({ count: 0 });
    expect(lists.calls).toEqual([]);
    const frozen = new Lists('snapshot');
    frozen.caches.set('pod', pods);
    expect(await new CountKeeper(frozen).count(kind('pod'), undefined)).toMatchObject({
      count: 3,
      source: 'snapshot',
    });
  });

  it('counts in some namespaces only (countIn): the sum of theirs, 0 for none', async () => {
    const lists = new Lists();
    const pods = new Collection<ResourceEntry>(compareResources, { label: labelKeys });
    for (const [ns, name] of [
      ['b', 'p1'],
      ['a', 'p2'],
      ['b', 'p3'],
      ['c', 'p4'],
    ] as const)
      pods.upsert(resourceEntry(obj('v1', 'Pod', name, ns), 'v1', 'Pod'));
    lists.caches.set('pod', pods);
    const keeper = new CountKeeper(lists);
    expect(await keeper.countIn(kind('pod'), new Set(['a', 'b']))).toEqual({
      resourceType: 'pod',
      count: 3,
      exact: true,
      source: 'cache',
    });
    expect(await keeper.countIn(kind('pod'), new Set())).toEqual({
      resourceType: 'pod',
      count: 0,
      exact: true,
      source: 'cache',
    });
    expect(lists.calls).toEqual([]);
    expect(await new CountKeeper(new Lists('snapshot')).countIn(kind('pod'), new Set())).toMatchObject({
      count: 0,
      source: 'snapshot',
    });
    // No cache: one list per namespace, summed; a lower bound in one makes the sum one too.
    const listed = new Lists();
    expect(await new CountKeeper(listed).countIn(kind('pod'), new Set(['a', 'b']))).toEqual({
      resourceType: 'pod',
      count: 20,
      exact: true,
      source: 'list',
    });
    expect(listed.calls.sort()).toEqual(['pod@a', 'pod@b']);
    const bounded = new Lists();
    bounded.answer = () => ({ items: [{}], continue: 't' });
    expect(await new CountKeeper(bounded).countIn(kind('pod'), new Set(['a', 'b']))).toMatchObject({
      count: 2,
      exact: false,
    });
    // One namespace that cannot be counted: no sum, and why.
    const failing = new Lists();
    failing.answer = () => {
      throw new Error('the list failed');
    };
    const failed = await new CountKeeper(failing).countIn(kind('pod'), new Set(['a']));
    expect(failed.count).toBeUndefined();
    expect(failed.error).toContain('the list failed');
  });

  it('counts a kind whose running cache cannot list yet by a list', async () => {
    const lists = new Lists();
    lists.unlisted.add('pod');
    expect(await new CountKeeper(lists).count(kind('pod'), undefined)).toMatchObject({
      count: 10,
      source: 'list',
    });
    expect(lists.calls).toEqual(['pod@*']);
  });

  it('lists once per kind and namespace, and keeps the count COUNT_TTL_MS', async () => {
    const lists = new Lists();
    const keeper = new CountKeeper(lists);
    expect(await keeper.count(kind('configmap'), undefined)).toEqual({
      resourceType: 'configmap',
      count: 10,
      exact: true,
      source: 'list',
    });
    await keeper.count(kind('configmap'), undefined);
    await keeper.count(kind('configmap'), 'shop');
    lists.clock = COUNT_TTL_MS - 1;
    await keeper.count(kind('configmap'), undefined);
    expect(lists.calls).toEqual(['configmap@*', 'configmap@shop']);
    lists.clock = COUNT_TTL_MS;
    lists.answer = () => ({ items: [] });
    expect(await keeper.count(kind('configmap'), undefined)).toMatchObject({ count: 0, exact: true });
    expect(lists.calls).toEqual(['configmap@*', 'configmap@shop', 'configmap@*']);
    const snap = new Lists('snapshot');
    expect(await new CountKeeper(snap).count(kind('secret'), undefined)).toMatchObject({
      source: 'snapshot',
      count: 10,
    });
  });

  it('answers a failure as the kind’s error, and asks again after FAILED_TTL_MS', async () => {
    const lists = new Lists();
    lists.answer = () => {
      throw forbidden('secrets');
    };
    const keeper = new CountKeeper(lists);
    expect(await keeper.count(kind('secret'), undefined)).toEqual({
      resourceType: 'secret',
      exact: false,
      source: 'list',
      error: 'cluster_unauthorized: the cluster refused to list secrets (403)',
    });
    lists.clock = FAILED_TTL_MS - 1;
    await keeper.count(kind('secret'), undefined);
    expect(lists.calls).toHaveLength(1);
    lists.clock = FAILED_TTL_MS;
    lists.answer = () => ({ items: [{}] });
    expect(await keeper.count(kind('secret'), undefined)).toMatchObject({ count: 1 });
    expect(lists.calls).toHaveLength(2);
  });

  it(`runs at most ${LIST_CONCURRENCY} lists at once; the others wait their turn`, async () => {
    const lists = new Lists();
    lists.manual = true;
    const keeper = new CountKeeper(lists);
    const types = ['configmap', 'secret', 'service', 'node', 'job', 'cronjob'];
    const counts = types.map((t) => keeper.count(kind(t), undefined));
    await new Promise((r) => setImmediate(r));
    expect(lists.calls).toHaveLength(LIST_CONCURRENCY);
    lists.pending.shift()!.resolve({ items: [] });
    await new Promise((r) => setImmediate(r));
    expect(lists.calls).toHaveLength(LIST_CONCURRENCY + 1);
    lists.pending.shift()!.reject(new Error('down'));
    await new Promise((r) => setImmediate(r));
    expect(lists.calls).toHaveLength(LIST_CONCURRENCY + 2);
    for (const p of lists.pending.splice(0)) p.resolve({ items: [{}] });
    const done = await Promise.all(counts);
    expect(done.map((c) => c.count ?? c.error)).toEqual([0, 'down', 1, 1, 1, 1]);
    // Every slot came back: a full round runs at once again.
    lists.clock = COUNT_TTL_MS;
    const again = types.map((t) => keeper.count(kind(t), undefined));
    await new Promise((r) => setImmediate(r));
    expect(lists.calls).toHaveLength(types.length + LIST_CONCURRENCY);
    for (const p of lists.pending.splice(0)) p.resolve({ items: [] });
    await new Promise((r) => setImmediate(r));
    for (const p of lists.pending.splice(0)) p.resolve({ items: [] });
    await Promise.all(again);
  });

  it(`drops the expired counts once it keeps ${KEPT_MAX}, and only then`, async () => {
    const lists = new Lists();
    const keeper = new CountKeeper(lists);
    for (let i = 0; i < KEPT_MAX - 1; i++) await keeper.count(kind('configmap'), `ns-${i}`);
    lists.clock = 1;
    await keeper.count(kind('configmap'), 'fresh');
    expect(keeper.keptCount).toBe(KEPT_MAX);
    // Not expired yet: still kept, no list.
    await keeper.count(kind('configmap'), 'ns-0');
    expect(lists.calls).toHaveLength(KEPT_MAX);
    // At the bound, a new count drops what expired (all but 'fresh', which expires 1 ms later).
    lists.clock = COUNT_TTL_MS;
    await keeper.count(kind('configmap'), 'newer');
    expect(keeper.keptCount).toBe(2);
    // Below the bound nothing is dropped, expired or not.
    lists.clock = COUNT_TTL_MS * 3;
    await keeper.count(kind('configmap'), 'newest');
    expect(keeper.keptCount).toBe(3);
  });
});

describe('search', () => {
  function caches() {
    const src = new FixtureSource([
      obj('v1', 'Pod', 'checkout-7f9-b', 'shop'),
      obj('v1', 'Pod', 'checkout', 'other'),
      obj('v1', 'Pod', 'Checkout-Upper', 'shop'),
      obj('v1', 'Service', 'checkout', 'shop'),
      obj('v1', 'Pod', 'checkout-7f9-a', 'shop', { status: { phase: 'Running' } }),
      obj('apps/v1', 'Deployment', 'checkout', 'shop'),
      obj('v1', 'Node', 'checkout-node', undefined),
      obj('v1', 'Pod', 'frontend', 'shop'),
    ]);
    return ['pod', 'service', 'deployment', 'node'].map((t) => ({
      kind: kind(t),
      view: src.collections.get(kind(t))!.view(),
    }));
  }
  const line = (m: ReturnType<typeof searchCaches>[number]) =>
    `${m.kind.resourceType} ${m.entry.namespace}/${m.entry.name}`;

  it('finds names starting with the query in any case, exact names first, then name, kind, namespace', () => {
    expect(searchCaches(caches(), 'CHECKOUT', undefined).map(line)).toEqual([
      'deployment shop/checkout',
      'pod other/checkout',
      'service shop/checkout',
      'pod shop/checkout-7f9-a',
      'pod shop/checkout-7f9-b',
      'node /checkout-node',
      'pod shop/Checkout-Upper',
    ]);
    expect(searchCaches(caches(), 'nothing', undefined)).toEqual([]);
    expect(searchCaches(caches(), 'fr', undefined).map(line)).toEqual(['pod shop/frontend']);
  });

  it('in a namespace, reads only that namespace and leaves cluster-scoped kinds out', () => {
    expect(searchCaches(caches(), 'checkout', 'shop').map(line)).toEqual([
      'deployment shop/checkout',
      'service shop/checkout',
      'pod shop/checkout-7f9-a',
      'pod shop/checkout-7f9-b',
      'pod shop/Checkout-Upper',
    ]);
  });

  it('builds a hit with its namespace only for a namespaced kind, its uid and status', () => {
    const [a] = searchCaches(caches(), 'checkout-7f9-a', undefined);
    expect(searchHit(a!)).toEqual({
      resourceType: 'pod',
      namespace: 'shop',
      name: 'checkout-7f9-a',
      uid: expect.stringMatching(/^uid-pod-/),
      status: 'Running',
    });
    const [node] = searchCaches(caches(), 'checkout-node', undefined);
    expect(searchHit(node!)).toEqual({
      resourceType: 'node',
      name: 'checkout-node',
      uid: expect.any(String),
      status: 'Unknown',
    });
    const [svc] = searchCaches(caches(), 'checkout', 'shop').filter((m) => m.kind.resourceType === 'service');
    expect(searchHit(svc!)).not.toHaveProperty('status');
  });
});
