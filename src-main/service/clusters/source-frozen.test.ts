/**
 * A frozen collection (source-frozen.ts) over rows held in memory: its pages, tokens and progress,
 * its quiet watch, and a watch cache filled from it that stays synced and never goes stale.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { SLOW_BACKOFF, until } from '../cache/cache.test-support';
import { Collection } from '../cache/collection';
import { compareResources, labelKeys, type ResourceEntry, resourceEntry } from '../cache/entries';
import { ResourceCache } from '../cache/resource-cache';
import { KubeRequestError } from '../kube/kube-client';
import { silentLogger } from '../logger';
import { FROZEN_RESOURCE_VERSION, type FrozenRows, frozenCollection } from './source-frozen';

const pod = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'ns', name },
});

/** Rows by name; names in `broken` are read but cannot be decoded (left out of the page). */
function rowsOf(names: string[], broken: string[] = []) {
  const seen: Array<{ after: string | undefined; limit: number }> = [];
  let counted = 0;
  const rows: FrozenRows = {
    count: () => {
      counted++;
      return names.length;
    },
    page(after, limit) {
      seen.push({ after, limit });
      const start = after === undefined ? 0 : names.indexOf(after) + 1;
      const read = names.slice(start, start + limit);
      return {
        objects: read.filter((n) => !broken.includes(n)).map(pod),
        read: read.length,
        ...(read.length > 0 ? { last: read[read.length - 1] } : {}),
      };
    },
  };
  return { rows, seen, counted: () => counted };
}

const signal = () => new AbortController().signal;
const list = (c: ReturnType<typeof frozenCollection>, limit: number, token?: string) =>
  c.list({ limit, ...(token !== undefined ? { continue: token } : {}), timeoutMs: 1_000, signal: signal() });

describe('a frozen collection', () => {
  it('pages in the rows’ order, says how many remain, and reads the count once', async () => {
    const { rows, seen, counted } = rowsOf(['a', 'b', 'c', 'd', 'e']);
    const c = frozenCollection('/api/v1/pods', rows);
    expect(c.path).toBe('/api/v1/pods');
    const first = await list(c, 2);
    expect(first.items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(first).toMatchObject({ resourceVersion: FROZEN_RESOURCE_VERSION, remainingItemCount: 3 });
    const second = await list(c, 2, first.continue);
    expect(second.items.map((o) => o.metadata.name)).toEqual(['c', 'd']);
    expect(second.remainingItemCount).toBe(1);
    const last = await list(c, 2, second.continue);
    expect(last.items.map((o) => o.metadata.name)).toEqual(['e']);
    expect(last).toEqual({ items: [pod('e')], resourceVersion: '1' });
    expect(seen).toEqual([
      { after: undefined, limit: 2 },
      { after: 'b', limit: 2 },
      { after: 'd', limit: 2 },
    ]);
    await list(c, 10);
    expect(counted()).toBe(1);
  });

  it('a page that ends exactly at the last row is the last page', async () => {
    const c = frozenCollection('/p', rowsOf(['a', 'b']).rows);
    const page = await list(c, 2);
    expect(page.continue).toBeUndefined();
    expect(page.remainingItemCount).toBeUndefined();
  });

  it('counts rows it could not decode as read, and stops when the rows run out before the count', async () => {
    const c = frozenCollection('/p', rowsOf(['a', 'b', 'c'], ['b']).rows);
    const first = await list(c, 2);
    expect(first.items.map((o) => o.metadata.name)).toEqual(['a']);
    expect(first.remainingItemCount).toBe(1);
    expect((await list(c, 2, first.continue)).items.map((o) => o.metadata.name)).toEqual(['c']);

    // A count larger than the rows there are (a file changed under it) ends at an empty page.
    const short: FrozenRows = { count: () => 5, page: () => ({ objects: [], read: 0 }) };
    expect(await list(frozenCollection('/p', short), 2)).toEqual({ items: [], resourceVersion: '1' });
  });

  it('answers a token it did not make with a 410', async () => {
    const c = frozenCollection('/p', rowsOf(['a', 'b']).rows);
    const made = (await list(c, 1)).continue;
    expect(made).toBe('1:a');
    for (const token of [
      'not a token',
      ':a',
      '0:a',
      '01:a',
      '-1:a',
      '1.5:a',
      'a:1',
      '1a',
      '1234567890123456:a',
      '',
    ]) {
      const err = await list(c, 1, token).catch((e: unknown) => e);
      expect(err, token).toBeInstanceOf(KubeRequestError);
      expect(err).toMatchObject({
        statusCode: 410,
        status: { code: 410, reason: 'Expired' },
        message: 'the continue token is not one of this source',
      });
    }
    // The position after the colon is the reader's, whatever it holds (a colon, a line break too).
    expect((await list(c, 1, '1:a')).items.map((o) => o.metadata.name)).toEqual(['b']);
    const odd = frozenCollection('/p', rowsOf(['a', 'x:\ny', 'z']).rows);
    expect((await list(odd, 1, '123456789012345:x:\ny')).items.map((o) => o.metadata.name)).toEqual(['z']);
  });

  it('refuses an aborted list or watch', async () => {
    const c = frozenCollection('/p', rowsOf(['a']).rows);
    const aborted = AbortSignal.abort();
    await expect(c.list({ limit: 1, timeoutMs: 1, signal: aborted })).rejects.toThrow();
    await expect(
      c.watch({
        resourceVersion: '1',
        timeoutSeconds: 1,
        timeoutMs: 1,
        signal: aborted,
        onActivity: () => {},
      }),
    ).rejects.toThrow();
  });

  it('watches quietly: nothing arrives, and the watch ends at its timeout, not before', async () => {
    vi.useFakeTimers();
    try {
      const c = frozenCollection('/p', rowsOf(['a']).rows);
      let heard = 0;
      const stop = new AbortController();
      const watch = await c.watch({
        resourceVersion: '1',
        timeoutSeconds: 2,
        timeoutMs: 1,
        signal: stop.signal,
        onActivity: () => heard++,
      });
      let ended: IteratorResult<unknown> | undefined;
      void watch[Symbol.asyncIterator]()
        .next()
        .then((r) => {
          ended = r;
        });
      await vi.advanceTimersByTimeAsync(1_999);
      expect(ended).toBeUndefined();
      expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(ended).toEqual({ done: true, value: undefined });
      expect(heard).toBe(0);
      // Nothing is left behind: no listener on the signal.
      expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends a watch at once when stopped, before or while it waits, leaving no timer', async () => {
    vi.useFakeTimers();
    try {
      const c = frozenCollection('/p', rowsOf(['a']).rows);
      const watchOf = async (signal: AbortSignal) =>
        (
          await c.watch({
            resourceVersion: '1',
            timeoutSeconds: 3_600,
            timeoutMs: 1,
            signal,
            onActivity: () => {},
          })
        )[Symbol.asyncIterator]();

      const during = new AbortController();
      const waiting = (await watchOf(during.signal)).next();
      expect(vi.getTimerCount()).toBe(1);
      during.abort();
      expect(await waiting).toEqual({ done: true, value: undefined });
      expect(vi.getTimerCount()).toBe(0);
      expect(getEventListeners(during.signal, 'abort')).toHaveLength(0);

      // Stopped between opening the watch and reading it: the read ends at once too.
      const before = new AbortController();
      const it = await watchOf(before.signal);
      before.abort();
      expect(await it.next()).toEqual({ done: true, value: undefined });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a watch cache filled from a frozen collection', () => {
  let cache: ResourceCache<ResourceEntry> | undefined;
  afterEach(async () => {
    await cache?.stop();
  });

  it('lists once, stays synced and never stale while its watches come and go', async () => {
    const { rows, seen } = rowsOf(['a', 'b', 'c']);
    let progress = 0;
    const c = frozenCollection('/api/v1/pods', rows);
    const counting = {
      path: c.path,
      list: c.list,
      watches: 0,
      async watch(req: Parameters<typeof c.watch>[0]) {
        counting.watches++;
        // Every watch is asked to last a short time here, so the test sees several of them.
        return c.watch({ ...req, timeoutSeconds: 0.01 });
      },
    };
    cache = new ResourceCache<ResourceEntry>({
      source: counting,
      toEntry: (obj) => resourceEntry(obj, 'v1', 'Pod'),
      fingerprint: (e) => e.json,
      collection: new Collection(compareResources, { label: labelKeys }),
      timeoutMs: 5_000,
      logger: silentLogger(),
      // A watch that ends within a second waits out a backoff before the next: short here.
      backoff: { ...SLOW_BACKOFF, baseMs: 10, capMs: 10 },
      pins: { idleMs: 60_000, max: 8 },
      listChunk: 2,
    });
    await cache.acquire();
    progress = seen.length;
    expect(progress).toBe(2);
    expect(cache.read().view.all.map((e) => e.key)).toEqual(['ns/a', 'ns/b', 'ns/c']);
    await until(() => counting.watches >= 3, 'the cache watched three times');
    expect(seen).toHaveLength(2);
    expect(cache.staleSince).toBeUndefined();
    expect(cache.liveEntry('ns/b')?.name).toBe('b');
  });
});
