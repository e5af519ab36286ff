/**
 * A watch cache driven by a test feed (source-feed.ts) instead of a cluster: the same informer and
 * cache as a live cluster's, so what the cache does with pages, watch events, 410s and failures is
 * checked here without any server. The feed's own rules (an apiserver's) are checked first.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { FAST_BACKOFF, recorder, SLOW_BACKOFF, until } from '../cache/cache.test-support';
import { Collection } from '../cache/collection';
import { compareResources, labelKeys, type ResourceEntry, resourceEntry } from '../cache/entries';
import { type CacheOptions, ResourceCache } from '../cache/resource-cache';
import type { WatchEvent } from '../cache/source';
import { ProblemError } from '../errors';
import { KubeRequestError } from '../kube/kube-client';
import { silentLogger } from '../logger';
import { FeedSource } from './source-feed';

const pod = (namespace: string, name: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace, name },
  ...extra,
});

const signal = () => new AbortController().signal;

let caches: ResourceCache<ResourceEntry>[] = [];
afterEach(async () => {
  await Promise.all(caches.map((c) => c.stop()));
  caches = [];
});

function cacheOf(feed: FeedSource, over: Partial<CacheOptions<ResourceEntry>> = {}) {
  const cache = new ResourceCache<ResourceEntry>({
    source: feed,
    toEntry: (obj) => resourceEntry(obj, 'v1', 'Pod'),
    fingerprint: (e) => e.json,
    collection: new Collection(compareResources, { label: labelKeys }),
    timeoutMs: 5_000,
    logger: silentLogger(),
    backoff: FAST_BACKOFF,
    pins: { idleMs: 60_000, max: 8 },
    listChunk: 2,
    ...over,
  });
  caches.push(cache);
  return cache;
}

const keys = (cache: ResourceCache<ResourceEntry>) => cache.read().view.all.map((e) => e.key);

async function drain(events: AsyncIterable<WatchEvent>, n: number): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  for await (const e of events) {
    out.push(e);
    if (out.length === n) break;
  }
  return out;
}

describe('the feed, as an apiserver serves a collection', () => {
  it('stamps each change with the next resourceVersion and pages in namespace/name order with what remains', async () => {
    const feed = new FeedSource('/api/v1/pods');
    expect(feed.path).toBe('/api/v1/pods');
    expect(feed.resourceVersion).toBe('0');
    for (const name of ['c', 'a', 'd', 'b', 'e']) feed.set(pod('ns', name));
    expect(feed.set(pod('ns', 'a', { spec: { x: 1 } })).metadata.resourceVersion).toBe('6');
    expect(feed.resourceVersion).toBe('6');

    const first = await feed.list({ limit: 2, timeoutMs: 1_000, signal: signal() });
    expect(first.items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(first.items[0]!.spec).toEqual({ x: 1 });
    expect(first).toMatchObject({ resourceVersion: '6', remainingItemCount: 3 });
    // A change between pages does not move the list's resourceVersion: it is the first page's.
    feed.set(pod('ns', 'f'));
    const second = await feed.list({
      limit: 2,
      continue: first.continue,
      timeoutMs: 1_000,
      signal: signal(),
    });
    expect(second.items.map((o) => o.metadata.name)).toEqual(['c', 'd']);
    expect(second).toMatchObject({ resourceVersion: '6', remainingItemCount: 2 });
    const last = await feed.list({ limit: 2, continue: second.continue, timeoutMs: 1_000, signal: signal() });
    expect(last.items.map((o) => o.metadata.name)).toEqual(['e', 'f']);
    expect(last.continue).toBeUndefined();
    expect(last.remainingItemCount).toBeUndefined();
    expect(feed.lists).toBe(3);
    const all = await feed.list({ limit: 10, timeoutMs: 1_000, signal: signal() });
    expect(all.items).toHaveLength(6);
    expect(all.continue).toBeUndefined();
  });

  it('goes on after the last key listed even when that object is gone since', async () => {
    const feed = new FeedSource();
    expect(feed.path).toBe('/feed');
    feed.set(pod('ns', 'a'));
    feed.set(pod('ns', 'b'));
    const first = await feed.list({ limit: 1, timeoutMs: 1_000, signal: signal() });
    feed.delete('ns', 'a');
    const next = await feed.list({ limit: 1, continue: first.continue, timeoutMs: 1_000, signal: signal() });
    expect(next.items.map((o) => o.metadata.name)).toEqual(['b']);
  });

  it('a continue token past the last key answers an empty last page', async () => {
    const feed = new FeedSource();
    feed.set(pod('ns', 'a'));
    const page = await feed.list({
      limit: 1,
      continue: JSON.stringify([1, 'ns/z']),
      timeoutMs: 1_000,
      signal: signal(),
    });
    expect(page.items).toEqual([]);
    expect(page.continue).toBeUndefined();
  });

  it('watches from a resourceVersion: the changes after it, then new ones, DELETED with its own version', async () => {
    const feed = new FeedSource();
    feed.set(pod('ns', 'a'));
    feed.set(pod('ns', 'b'));
    const abort = new AbortController();
    let heard = 0;
    const events = await feed.watch({
      resourceVersion: '1',
      timeoutSeconds: 60,
      timeoutMs: 1_000,
      signal: abort.signal,
      onActivity: () => heard++,
    });
    expect(feed.watches).toBe(1);
    const it = events[Symbol.asyncIterator]();
    expect((await it.next()).value).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'b' } } });
    expect(feed.delete('ns', 'a')).toBe(true);
    expect(feed.delete('ns', 'a')).toBe(false);
    expect((await it.next()).value).toMatchObject({
      type: 'DELETED',
      object: { metadata: { name: 'a', resourceVersion: '3' } },
    });
    feed.set(pod('ns', 'b', { spec: { y: 2 } }));
    expect((await it.next()).value).toMatchObject({ type: 'MODIFIED', object: { spec: { y: 2 } } });
    expect(heard).toBe(3);
    expect(feed.watching).toBe(1);
    const ended = it.next();
    abort.abort();
    expect(await ended).toEqual({ done: true, value: undefined });
    expect(feed.watching).toBe(0);
  });

  it('ends a watch at its timeout, or when told to, with an ERROR 410 when expired', async () => {
    const feed = new FeedSource();
    const timed = await feed.watch({
      resourceVersion: '0',
      timeoutSeconds: 0.05,
      timeoutMs: 1_000,
      signal: signal(),
      onActivity: () => {},
    });
    expect(await drain(timed, 1)).toEqual([]);

    const ended = await feed.watch({
      resourceVersion: '0',
      timeoutSeconds: 60,
      timeoutMs: 1_000,
      signal: signal(),
      onActivity: () => {},
    });
    const first = drain(ended, 1);
    await until(() => feed.watching === 1, 'the watch is open');
    expect(feed.endWatches()).toBe(1);
    expect(await first).toEqual([]);

    const expired = await feed.watch({
      resourceVersion: '0',
      timeoutSeconds: 60,
      timeoutMs: 1_000,
      signal: signal(),
      onActivity: () => {},
    });
    const events = drain(expired, 2);
    await until(() => feed.watching === 1, 'the watch is open');
    expect(feed.endWatches({ expired: true })).toBe(1);
    expect(await events).toEqual([
      { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old' } },
    ]);
    expect(feed.endWatches()).toBe(0);
  });

  it('after compact, a watch from before it or an old continue token is a 410', async () => {
    const feed = new FeedSource();
    feed.set(pod('ns', 'a'));
    feed.set(pod('ns', 'b'));
    const page = await feed.list({ limit: 1, timeoutMs: 1_000, signal: signal() });
    feed.set(pod('ns', 'c'));
    feed.compact();
    await expect(
      feed.list({ limit: 1, continue: page.continue, timeoutMs: 1_000, signal: signal() }),
    ).rejects.toMatchObject({
      statusCode: 410,
      status: { code: 410, reason: 'Expired' },
      message: 'the continue token: too old resource version',
    });
    const watch = (rv: string) =>
      feed.watch({
        resourceVersion: rv,
        timeoutSeconds: 0.01,
        timeoutMs: 1_000,
        signal: signal(),
        onActivity: () => {},
      });
    await expect(watch('2')).rejects.toBeInstanceOf(KubeRequestError);
    await expect(watch('2')).rejects.toMatchObject({ message: 'the watch: too old resource version' });
    // From the compaction's own version on there is nothing forgotten: no old changes are sent.
    expect(await drain(await watch('3'), 1)).toEqual([]);
  });

  it('a continue token made at the compaction’s own version is still good', async () => {
    const feed = new FeedSource();
    feed.set(pod('ns', 'a'));
    feed.set(pod('ns', 'b'));
    const page = await feed.list({ limit: 1, timeoutMs: 1_000, signal: signal() });
    feed.compact();
    const next = await feed.list({ limit: 1, continue: page.continue, timeoutMs: 1_000, signal: signal() });
    expect(next.items.map((o) => o.metadata.name)).toEqual(['b']);
  });

  it('ends a watch at its timeout and not before, leaving no timer and no listener', async () => {
    vi.useFakeTimers();
    try {
      const feed = new FeedSource();
      const stop = new AbortController();
      const events = await feed.watch({
        resourceVersion: '0',
        timeoutSeconds: 2,
        timeoutMs: 1_000,
        signal: stop.signal,
        onActivity: () => {},
      });
      let ended: IteratorResult<WatchEvent> | undefined;
      void events[Symbol.asyncIterator]()
        .next()
        .then((r) => {
          ended = r;
        });
      await vi.advanceTimersByTimeAsync(1_999);
      expect(ended).toBeUndefined();
      expect(feed.watching).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(ended).toEqual({ done: true, value: undefined });
      expect(feed.watching).toBe(0);
      expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);

      // Stopped before its timeout: its timer goes with it.
      const early = new AbortController();
      const watch = await feed.watch({
        resourceVersion: '0',
        timeoutSeconds: 60,
        timeoutMs: 1_000,
        signal: early.signal,
        onActivity: () => {},
      });
      const next = watch[Symbol.asyncIterator]().next();
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(1);
      early.abort();
      expect(await next).toEqual({ done: true, value: undefined });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses every request while told to, and an aborted request is not counted', async () => {
    const feed = new FeedSource();
    const err = new Error('down');
    feed.refuse(err);
    await expect(feed.list({ limit: 1, timeoutMs: 1_000, signal: signal() })).rejects.toBe(err);
    await expect(
      feed.watch({
        resourceVersion: '0',
        timeoutSeconds: 1,
        timeoutMs: 1_000,
        signal: signal(),
        onActivity: () => {},
      }),
    ).rejects.toBe(err);
    feed.refuse();
    expect((await feed.list({ limit: 1, timeoutMs: 1_000, signal: signal() })).items).toEqual([]);
    const aborted = AbortSignal.abort();
    await expect(feed.list({ limit: 1, timeoutMs: 1_000, signal: aborted })).rejects.toThrow();
    await expect(
      feed.watch({
        resourceVersion: '0',
        timeoutSeconds: 1,
        timeoutMs: 1_000,
        signal: aborted,
        onActivity: () => {},
      }),
    ).rejects.toThrow();
    expect([feed.lists, feed.watches]).toEqual([2, 1]);
  });
});

describe('a watch cache fed by a test feed', () => {
  it('lists in pages with its progress, then applies watch events as they come', async () => {
    const feed = new FeedSource();
    for (const name of ['a', 'b', 'c', 'd', 'e']) feed.set(pod('ns', name));
    const observer = recorder<ResourceEntry>();
    const cache = cacheOf(feed, { observer });
    await cache.acquire();
    expect(feed.lists).toBe(3);
    expect(keys(cache)).toEqual(['ns/a', 'ns/b', 'ns/c', 'ns/d', 'ns/e']);
    expect(observer.lists()).toBe(1);
    await until(() => feed.watching === 1, 'the watch opens');
    feed.set(pod('ns', 'f'));
    feed.delete('ns', 'a');
    await until(() => keys(cache).join() === 'ns/b,ns/c,ns/d,ns/e,ns/f', 'the changes are applied');
    expect(cache.liveEntry('ns/f')?.name).toBe('f');
    expect(cache.staleSince).toBeUndefined();
  });

  it('resumes a watch that ended from where it was, without listing again', async () => {
    const feed = new FeedSource();
    feed.set(pod('ns', 'a'));
    const cache = cacheOf(feed);
    await cache.acquire();
    await until(() => feed.watching === 1, 'the watch opens');
    feed.set(pod('ns', 'b'));
    await until(() => keys(cache).length === 2, 'b arrives');
    feed.endWatches();
    // The change made while no watch is open is sent by the next one, from its resourceVersion.
    feed.set(pod('ns', 'c'));
    await until(() => keys(cache).length === 3, 'c arrives through the next watch');
    expect(feed.lists).toBe(1);
    expect(feed.watches).toBe(2);
  });

  it('lists again at once when its watch expires (410), and swaps in the new state', async () => {
    const feed = new FeedSource();
    feed.set(pod('ns', 'a'));
    feed.set(pod('ns', 'b'));
    const observer = recorder<ResourceEntry>();
    const cache = cacheOf(feed, { observer, backoff: SLOW_BACKOFF });
    await cache.acquire();
    await until(() => feed.watching === 1, 'the watch opens');
    feed.compact();
    feed.endWatches({ expired: true });
    await until(() => feed.lists === 2, 'the cache lists again');
    await until(() => observer.lists() === 2, 'the relist completes');
    expect(keys(cache)).toEqual(['ns/a', 'ns/b']);
    expect(cache.staleSince).toBeUndefined();
  });

  it('marks its data stale when the feed fails, keeps serving it, and recovers', async () => {
    const feed = new FeedSource();
    feed.set(pod('ns', 'a'));
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const cache = cacheOf(feed, { now: () => clock });
    await cache.acquire();
    await until(() => feed.watching === 1, 'the watch opens');
    feed.refuse(new ProblemError('cluster_unreachable', 'the feed is down'));
    feed.endWatches();
    await until(() => cache.staleSince !== undefined, 'the cache is stale');
    expect(cache.staleSince).toBe('2026-01-01T00:00:00.000Z');
    expect(cache.staleCause?.code).toBe('cluster_unreachable');
    expect(keys(cache)).toEqual(['ns/a']);
    clock += 1_000;
    feed.refuse();
    await until(() => cache.staleSince === undefined, 'the cache recovers');
  });

  it('a first list that fails is the waiting request’s problem', async () => {
    const feed = new FeedSource();
    feed.refuse(new ProblemError('cluster_unauthorized', 'no'));
    const cache = cacheOf(feed, { backoff: SLOW_BACKOFF });
    await expect(cache.acquire()).rejects.toMatchObject({ code: 'cluster_unauthorized' });
    expect(cache.neverSyncedCause).toBeInstanceOf(ProblemError);
  });
});
