/**
 * ResourceCache over the embedded simulator: the first list, changes through the watch, and a
 * relist after 410 Gone.
 */
import { objectKey } from '@skiff/kube-simulator';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { parseSelector } from '../../../src-shared/kube/selector';
import { liveCollection } from '../clusters/source-live';
import { type EventEntry, eventCacheParts } from '../events/entries';
import { silentLogger } from '../logger';
import {
  addPod,
  endWatches,
  FAST_BACKOFF,
  freshNamespace,
  keysOf,
  podCache,
  recorder,
  SLOW_BACKOFF,
  simPerFile,
  sleep,
  until,
} from './cache.test-support';
import { type ResourceEntry, resourceEntry } from './entries';
import { resourceRows } from './list-queries';
import { ResourceCache } from './resource-cache';

const env = simPerFile();

/** Names of the pods a label selector picks from the cache's current view. */
const picked = (cache: ResourceCache<ResourceEntry>, selector: string) => {
  const parsed = parseSelector(selector);
  if (!parsed.ok) throw new Error(parsed.message);
  return resourceRows(cache.read().view, undefined, parsed.selector).map((e) => e.name);
};

describe('the first list', () => {
  it('holds every object of the collection once, in namespace/name order, whatever order the cluster lists them in', async () => {
    const ns = freshNamespace(env.sim, 'first');
    for (const name of ['p-d', 'p-a', 'p-g', 'p-c', 'p-f', 'p-b', 'p-e']) addPod(env.sim, ns, name);
    const observer = recorder<ResourceEntry>();
    const cache = podCache(env.client, ns, { observer });
    try {
      await cache.acquire();
      const expected = ['p-a', 'p-b', 'p-c', 'p-d', 'p-e', 'p-f', 'p-g'].map((n) => `${ns}/${n}`);
      expect(keysOf(cache)).toEqual(expected);
      expect(observer.told.filter((t) => t[0] === 'listed')).toEqual([['listed', expected]]);
      expect(cache.liveEntry(`${ns}/p-e`)?.name).toBe('p-e');
    } finally {
      await cache.stop();
    }
  });

  it('skips an object it cannot read and keeps the others, listed or watched', async () => {
    const ns = freshNamespace(env.sim, 'unreadable');
    for (const name of ['ok-1', 'bad-1', 'ok-2']) addPod(env.sim, ns, name);
    const cache = podCache(env.client, ns, {
      toEntry: (obj: KubeObject) => {
        if (obj.metadata.name.startsWith('bad')) throw new Error('unreadable');
        return resourceEntry(obj, 'v1', 'Pod');
      },
    });
    try {
      await cache.acquire();
      expect(keysOf(cache)).toEqual([`${ns}/ok-1`, `${ns}/ok-2`]);
      addPod(env.sim, ns, 'bad-2');
      addPod(env.sim, ns, 'ok-3');
      await until(() => cache.liveEntry(`${ns}/ok-3`) !== undefined, 'ok-3 arrives');
      expect(keysOf(cache)).toEqual([`${ns}/ok-1`, `${ns}/ok-2`, `${ns}/ok-3`]);
    } finally {
      await cache.stop();
    }
  });

  it('vouches for no single entry until the list is complete', async () => {
    const ns = freshNamespace(env.sim, 'partial');
    for (const name of ['a', 'b', 'c', 'd', 'e']) addPod(env.sim, ns, name);
    const seenDuringList: Array<string | undefined> = [];
    let cache: ResourceCache<ResourceEntry> | undefined;
    cache = podCache(env.client, ns, {
      toEntry: (obj: KubeObject) => {
        // The first entries of the list are already in the collection, but not yet vouched for.
        seenDuringList.push(cache?.liveEntry(`${ns}/a`)?.key);
        return resourceEntry(obj, 'v1', 'Pod');
      },
    });
    try {
      await cache.acquire();
      expect(seenDuringList).toHaveLength(5);
      expect(seenDuringList.every((k) => k === undefined)).toBe(true);
      expect(cache.liveEntry(`${ns}/a`)?.key).toBe(`${ns}/a`);
    } finally {
      await cache.stop();
    }
  });
});

describe('changes through the watch', () => {
  it('adds, modifies and deletes entries, moving them between label index lists, and tells the observer with the entry before', async () => {
    const ns = freshNamespace(env.sim, 'watched');
    addPod(env.sim, ns, 'web-2', { app: 'web' });
    addPod(env.sim, ns, 'web-1', { app: 'web' });
    const observer = recorder<ResourceEntry>();
    const cache = podCache(env.client, ns, { observer });
    try {
      await cache.acquire();
      observer.told.length = 0;

      addPod(env.sim, ns, 'api-1', { app: 'api' });
      await until(() => cache.liveEntry(`${ns}/api-1`) !== undefined, 'api-1 arrives');
      expect(picked(cache, 'app=api')).toEqual(['api-1']);

      addPod(env.sim, ns, 'web-1', { app: 'api' });
      await until(() => cache.liveEntry(`${ns}/web-1`)?.labels?.app === 'api', 'web-1 is relabelled');
      expect(picked(cache, 'app=web')).toEqual(['web-2']);
      expect(picked(cache, 'app=api')).toEqual(['api-1', 'web-1']);

      env.sim.store.remove('pods', ns, 'api-1');
      await until(() => cache.liveEntry(`${ns}/api-1`) === undefined, 'api-1 is gone');
      expect(picked(cache, 'app=api')).toEqual(['web-1']);
      expect(keysOf(cache)).toEqual([`${ns}/web-1`, `${ns}/web-2`]);

      expect(observer.told).toEqual([
        ['upserted', `${ns}/api-1`, undefined],
        ['upserted', `${ns}/web-1`, `${ns}/web-1`],
        ['removed', `${ns}/api-1`, `${ns}/api-1`],
      ]);
    } finally {
      await cache.stop();
    }
  });

  it('removes a deleted object under the key the cache keys it by (events: their uid)', async () => {
    const ns = freshNamespace(env.sim, 'events');
    const involved = (name: string) => ({ kind: 'Pod', name, namespace: ns, uid: `u-${name}` });
    const first = env.sim.store.addEvent({ involvedObject: involved('a'), reason: 'Pulled', message: 'one' });
    env.sim.store.addEvent({ involvedObject: involved('b'), reason: 'Pulled', message: 'two' });
    const cache = new ResourceCache<EventEntry>({
      source: liveCollection(env.client, `/api/v1/namespaces/${ns}/events`),
      ...eventCacheParts('c1'),
      timeoutMs: 5_000,
      logger: silentLogger(),
      backoff: FAST_BACKOFF,
      pins: { idleMs: 60_000, max: 8 },
    });
    try {
      await cache.acquire();
      expect(cache.liveEntry(first.metadata.uid)?.message).toBe('one');
      env.sim.store.remove('events', ns, first.metadata.name);
      await until(() => cache.read().view.all.length === 1, 'the event is gone');
      expect(cache.liveEntry(first.metadata.uid)).toBeUndefined();
      expect(cache.read().view.all.map((e) => e.message)).toEqual(['two']);
    } finally {
      await cache.stop();
    }
  });
});

describe('a relist after the watch expired (410 Gone)', () => {
  it('drops objects deleted meanwhile, replaces those changed and keeps the unchanged ones as they were', async () => {
    const ns = freshNamespace(env.sim, 'relist');
    for (const name of ['keep', 'gone', 'change']) addPod(env.sim, ns, name, { app: 'old' });
    const observer = recorder<ResourceEntry>();
    // An expiry is no failure: the relist comes at once, not after a backoff.
    const cache = podCache(env.client, ns, { observer, backoff: SLOW_BACKOFF });
    try {
      await cache.acquire();
      const kept = cache.liveEntry(`${ns}/keep`);
      observer.told.length = 0;
      // Changes the watch never delivers, as to a watcher that fell behind the cluster's history.
      const table = env.sim.store.table('pods');
      table.delete(objectKey(ns, 'gone'));
      const changed = structuredClone(table.get(objectKey(ns, 'change'))!);
      changed.metadata.labels = { app: 'new' };
      table.set(objectKey(ns, 'change'), changed);
      await endWatches(env.sim, { expired: true });

      await until(() => observer.lists() === 1, 'the cache relisted');
      expect(keysOf(cache)).toEqual([`${ns}/change`, `${ns}/keep`]);
      expect(cache.liveEntry(`${ns}/gone`)).toBeUndefined();
      expect(picked(cache, 'app=old')).toEqual(['keep']);
      expect(picked(cache, 'app=new')).toEqual(['change']);
      expect(cache.liveEntry(`${ns}/keep`)).toBe(kept);
      expect(observer.told).toEqual([
        ['removed', `${ns}/gone`, `${ns}/gone`],
        ['upserted', `${ns}/change`, `${ns}/change`],
        ['listed', [`${ns}/change`, `${ns}/keep`]],
      ]);
      expect(cache.staleSince).toBeUndefined();
    } finally {
      await cache.stop();
    }
  });
});

describe('stopping a cache', () => {
  it('stops its watch, vouches for no entry any more, and tells the observer once', async () => {
    const ns = freshNamespace(env.sim, 'stop');
    addPod(env.sim, ns, 'a');
    const observer = recorder<ResourceEntry>();
    const cache = podCache(env.client, ns, { observer });
    await cache.acquire();
    expect(cache.liveEntry(`${ns}/a`)).toBeDefined();
    await cache.stop();
    await cache.stop();
    expect(cache.liveEntry(`${ns}/a`)).toBeUndefined();
    expect(observer.told.filter((t) => t[0] === 'stopped')).toHaveLength(1);
    const asked = env.client.asked.length;
    addPod(env.sim, ns, 'b');
    await sleep(300);
    expect(keysOf(cache)).toEqual([`${ns}/a`]);
    expect(env.client.asked.length).toBe(asked);
  });

  it('a cache never started has nothing to stop and tells the observer nothing', async () => {
    const observer = recorder<ResourceEntry>();
    const cache = podCache(env.client, 'never', { observer });
    await cache.stop();
    expect(observer.told).toEqual([]);
    expect(cache.neverSyncedCause).toBeUndefined();
  });
});

describe('use', () => {
  it('acquiring, reading and a live single lookup each mark the cache used', async () => {
    const ns = freshNamespace(env.sim, 'used');
    addPod(env.sim, ns, 'a');
    const cache = podCache(env.client, ns);
    try {
      cache.lastUsed = 0;
      await cache.acquire();
      expect(cache.lastUsed).toBeGreaterThan(0);
      cache.lastUsed = 0;
      cache.read();
      expect(cache.lastUsed).toBeGreaterThan(0);
      cache.lastUsed = 0;
      cache.liveEntry(`${ns}/a`);
      expect(cache.lastUsed).toBeGreaterThan(0);
      cache.lastUsed = 0;
      await cache.acquire();
      expect(cache.lastUsed).toBeGreaterThan(0);
    } finally {
      await cache.stop();
    }
  });
});
