/**
 * The informer over the embedded simulator: list then watch, an expired continue token, bookmarks.
 */
import type { Simulator } from '@skiff/kube-simulator';
import { objectKey } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import {
  addPod,
  clientOf,
  endWatches,
  freshNamespace,
  keysOf,
  podCache,
  type RecordingClient,
  recorder,
  SLOW_BACKOFF,
  simPerFile,
  sleep,
  startSim,
  until,
} from './cache.test-support';
import { type ResourceEntry, resourceEntry } from './entries';

const env = simPerFile();

const pathOf = (ns: string) => `/api/v1/namespaces/${ns}/pods`;
const resourceEntryOf = (obj: KubeObject) => resourceEntry(obj, 'v1', 'Pod');

describe('list, then watch', () => {
  it('lists in chunks of listChunk, then watches from the resourceVersion of the list, with bookmarks and a 5 to 10 minute timeout', async () => {
    const ns = freshNamespace(env.sim, 'chunks');
    for (const name of ['e', 'c', 'a', 'd', 'b']) addPod(env.sim, ns, name);
    const listedAt = String(env.sim.store.rv);
    const cache = podCache(env.client, ns, { listChunk: 2 });
    try {
      await cache.acquire();
      await until(() => env.client.watches.some((w) => w.path === pathOf(ns)), 'the watch opens');
      const lists = env.client.lists.filter((a) => a.path === pathOf(ns));
      expect(lists.map((a) => a.query.limit)).toEqual(['2', '2', '2']);
      expect(lists[0]!.query.continue).toBeUndefined();
      expect(lists.slice(1).every((a) => typeof a.query.continue === 'string')).toBe(true);
      expect(keysOf(cache)).toEqual(['a', 'b', 'c', 'd', 'e'].map((n) => `${ns}/${n}`));
      const watch = env.client.watches.find((w) => w.path === pathOf(ns))!;
      expect(watch.query).toMatchObject({
        watch: '1',
        resourceVersion: listedAt,
        allowWatchBookmarks: 'true',
      });
      const seconds = Number(watch.query.timeoutSeconds);
      expect(seconds).toBeGreaterThanOrEqual(300);
      expect(seconds).toBeLessThan(600);
    } finally {
      await cache.stop();
    }
  });

  it('a watch the server ends is resumed from the last resourceVersion it delivered, without a relist', async () => {
    const ns = freshNamespace(env.sim, 'resume');
    addPod(env.sim, ns, 'a');
    const observer = recorder<ResourceEntry>();
    const cache = podCache(env.client, ns, { observer });
    try {
      await cache.acquire();
      const added = addPod(env.sim, ns, 'b');
      await until(() => cache.liveEntry(`${ns}/b`) !== undefined, 'b arrives');
      // History before b is gone: only a watch from b's resourceVersion on can resume.
      env.sim.store.compact();
      await endWatches(env.sim);
      await until(
        () => env.client.watches.filter((w) => w.path === pathOf(ns)).length === 2,
        'the watch resumes',
      );
      expect(env.client.watches.filter((w) => w.path === pathOf(ns))[1]!.query.resourceVersion).toBe(
        added.metadata.resourceVersion,
      );
      addPod(env.sim, ns, 'c');
      await until(() => cache.liveEntry(`${ns}/c`) !== undefined, 'c arrives');
      expect(observer.lists()).toBe(1);
      expect(env.client.lists.filter((a) => a.path === pathOf(ns))).toHaveLength(1);
    } finally {
      await cache.stop();
    }
  });

  it('a watch resumed at a resourceVersion the cluster compacted meanwhile relists, dropping what it missed', async () => {
    const ns = freshNamespace(env.sim, 'compacted');
    addPod(env.sim, ns, 'a');
    addPod(env.sim, ns, 'b');
    const observer = recorder<ResourceEntry>();
    const cache = podCache(env.client, ns, { observer });
    try {
      await cache.acquire();
      // Writes elsewhere move the cluster on; the history the watch would resume from is then dropped.
      addPod(env.sim, freshNamespace(env.sim, 'elsewhere'), 'x');
      env.sim.store.table('pods').delete(objectKey(ns, 'b'));
      env.sim.store.compact();
      await endWatches(env.sim);
      await until(() => observer.lists() === 2, 'the cache relisted');
      expect(keysOf(cache)).toEqual([`${ns}/a`]);
      expect(cache.staleSince).toBeUndefined();
    } finally {
      await cache.stop();
    }
  });
});

describe('a list whose continue token expires', () => {
  it('starts over from the first chunk and ends with every object once', async () => {
    const ns = freshNamespace(env.sim, 'restart');
    for (const name of ['e', 'c', 'a', 'd', 'b']) addPod(env.sim, ns, name);
    let compactions = 0;
    const cache = podCache(env.client, ns, {
      listChunk: 2,
      toEntry: (obj) => {
        // While the first chunk is read, the cluster moves on and compacts: its continue token expires.
        if (compactions++ === 0) {
          addPod(env.sim, freshNamespace(env.sim, 'mover'), 'x');
          env.sim.store.compact();
        }
        return resourceEntryOf(obj);
      },
    });
    try {
      await cache.acquire();
      expect(keysOf(cache)).toEqual(['a', 'b', 'c', 'd', 'e'].map((n) => `${ns}/${n}`));
      const lists = env.client.lists.filter((a) => a.path === pathOf(ns));
      expect(lists.map((a) => a.query.continue === undefined)).toEqual([true, false, true, false, false]);
    } finally {
      await cache.stop();
    }
  });

  it('gives up after four attempts and reports the expiry', async () => {
    const ns = freshNamespace(env.sim, 'giveup');
    for (const name of ['a', 'b', 'c']) addPod(env.sim, ns, name);
    const cache = podCache(env.client, ns, {
      listChunk: 2,
      backoff: SLOW_BACKOFF,
      toEntry: (obj) => {
        addPod(env.sim, freshNamespace(env.sim, 'mover'), 'x');
        env.sim.store.compact();
        return resourceEntryOf(obj);
      },
    });
    try {
      const failure = await cache.acquire().then(
        () => undefined,
        (e: unknown) => e as { code?: string; extensions?: Record<string, unknown> },
      );
      expect(failure?.code).toBe('cluster_error');
      expect(failure?.extensions?.clusterStatus).toBe(410);
      await sleep(100);
      const lists = env.client.lists.filter((a) => a.path === pathOf(ns));
      expect(lists.filter((a) => a.query.continue === undefined)).toHaveLength(4);
      expect(lists).toHaveLength(8);
    } finally {
      await cache.stop();
    }
  });
});

describe('bookmarks', () => {
  let quick: Simulator;
  let quickClient: RecordingClient;
  beforeAll(async () => {
    quick = await startSim(25);
    quickClient = clientOf(quick);
  });
  afterAll(async () => {
    await quickClient?.close();
    await quick?.close();
  });

  it('a bookmark moves the point a resumed watch starts from, so writes elsewhere cost no relist', async () => {
    const ns = freshNamespace(quick, 'bookmarked');
    addPod(quick, ns, 'a');
    const observer = recorder<ResourceEntry>();
    const cache = podCache(quickClient, ns, { observer });
    const listedAt = quick.store.rv;
    try {
      await cache.acquire();
      addPod(quick, freshNamespace(quick, 'elsewhere'), 'x');
      const movedTo = quick.store.rv;
      // Bookmarks come every 25 ms; a generous wait lets several arrive on a loaded machine.
      await sleep(500);
      quick.store.compact();
      await endWatches(quick);
      await until(
        () => quickClient.watches.filter((w) => w.path === pathOf(ns)).length >= 2,
        'the watch resumes',
      );
      const resumed = Number(
        quickClient.watches.filter((w) => w.path === pathOf(ns))[1]!.query.resourceVersion,
      );
      expect(resumed).toBeGreaterThanOrEqual(movedTo);
      expect(resumed).toBeGreaterThan(listedAt);
      await sleep(100);
      expect(observer.lists()).toBe(1);
    } finally {
      await cache.stop();
    }
  });
});
