/**
 * A cache's staleness against the embedded simulator: before and after the first list, and what a
 * read then answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ProblemError } from '../errors';
import { problemOf } from '../test-support/rejections.test-support';
import {
  addPod,
  freshNamespace,
  keysOf,
  podCache,
  SLOW_BACKOFF,
  simPerFile,
  sleep,
  until,
} from './cache.test-support';

const env = simPerFile();
afterEach(() => {
  env.sim.faults.unauthorized = false;
  env.sim.faults.hang = false;
});

describe('before the first list succeeds', () => {
  it("a refused first list fails acquire with the cluster's problem: a never-synced cause, not staleness", async () => {
    const ns = freshNamespace(env.sim, 'refused');
    addPod(env.sim, ns, 'a');
    env.sim.faults.unauthorized = true;
    const cache = podCache(env.client, ns, { backoff: SLOW_BACKOFF });
    try {
      expect(cache.neverSyncedCause).toBeUndefined();
      expect((await problemOf(cache.acquire())).code).toBe('cluster_unauthorized');
      expect((cache.neverSyncedCause as ProblemError).code).toBe('cluster_unauthorized');
      expect(cache.staleSince).toBeUndefined();
      expect(cache.staleCause).toBeUndefined();
      expect(cache.read().staleSince).toBeUndefined();
      expect(cache.liveEntry(`${ns}/a`)).toBeUndefined();
      // A stopped cache no longer speaks for the cluster.
      await cache.stop();
      expect(cache.neverSyncedCause).toBeUndefined();
    } finally {
      await cache.stop();
    }
  });

  it('a caller waiting after a failed attempt makes the cache try again at once, past its backoff', async () => {
    const ns = freshNamespace(env.sim, 'retry');
    addPod(env.sim, ns, 'a');
    env.sim.faults.unauthorized = true;
    const cache = podCache(env.client, ns, { backoff: SLOW_BACKOFF });
    try {
      await problemOf(cache.acquire());
      env.sim.faults.unauthorized = false;
      // An attempt is cut short at most once a second.
      await sleep(1_100);
      await cache.acquire();
      expect(cache.neverSyncedCause).toBeUndefined();
      expect(cache.liveEntry(`${ns}/a`)?.name).toBe('a');
    } finally {
      await cache.stop();
    }
  });

  it('within a second of a failed attempt a caller waits for the next one, bounded by the request timeout', async () => {
    const ns = freshNamespace(env.sim, 'bounded');
    env.sim.faults.unauthorized = true;
    const cache = podCache(env.client, ns, { backoff: SLOW_BACKOFF, timeoutMs: 400 });
    try {
      expect((await problemOf(cache.acquire())).code).toBe('cluster_unauthorized');
      const asked = env.client.asked.length;
      expect((await problemOf(cache.acquire())).code).toBe('cluster_timeout');
      expect(env.client.asked.length).toBe(asked);
    } finally {
      await cache.stop();
    }
  });

  it('a caller that gives up stops waiting with its own reason', async () => {
    const ns = freshNamespace(env.sim, 'abort');
    env.sim.faults.hang = true;
    const cache = podCache(env.client, ns, { timeoutMs: 10_000 });
    try {
      const caller = new AbortController();
      const reason = new Error('the caller went away');
      const waiting = cache.acquire(caller.signal).then(
        () => 'resolved',
        (e: unknown) => e,
      );
      await sleep(50);
      caller.abort(reason);
      expect(await waiting).toBe(reason);
    } finally {
      await cache.stop();
    }
  });
});

describe('after the first list', () => {
  it('a failed watch marks the data stale from that moment until a relist succeeds, and it keeps serving', async () => {
    let clock = Date.UTC(2026, 0, 1, 8, 0, 0);
    const ns = freshNamespace(env.sim, 'stale');
    addPod(env.sim, ns, 'b');
    addPod(env.sim, ns, 'a');
    const cache = podCache(env.client, ns, { now: () => clock });
    try {
      await cache.acquire();
      expect(cache.staleSince).toBeUndefined();
      const brokeAt = Date.UTC(2026, 0, 1, 9, 0, 0);
      clock = brokeAt;
      // Refused from now on: an open watch is ended and cannot come back, or never opens.
      env.sim.faults.unauthorized = true;
      env.sim.store.endWatches();
      await until(() => cache.staleSince !== undefined, 'the cache is stale');

      expect(cache.staleSince).toBe(new Date(brokeAt).toISOString());
      expect(cache.staleCause?.code).toBe('cluster_unauthorized');
      expect(cache.neverSyncedCause).toBeUndefined();
      const read = cache.read();
      expect(read.staleSince).toBe(new Date(brokeAt).toISOString());
      expect(read.view.all.map((e) => e.name)).toEqual(['a', 'b']);
      expect(cache.liveEntry(`${ns}/a`)).toBeUndefined();
      await cache.acquire();

      // Further failed attempts keep the time the data was last known good.
      clock = Date.UTC(2026, 0, 1, 10, 0, 0);
      const asked = env.client.asked.length;
      await until(() => env.client.asked.length >= asked + 2, 'two more attempts');
      expect(cache.staleSince).toBe(new Date(brokeAt).toISOString());

      addPod(env.sim, ns, 'c');
      env.sim.faults.unauthorized = false;
      await until(() => cache.staleSince === undefined, 'the cache recovered');
      expect(cache.staleCause).toBeUndefined();
      expect('staleSince' in cache.read()).toBe(false);
      expect(keysOf(cache)).toEqual([`${ns}/a`, `${ns}/b`, `${ns}/c`]);
      expect(cache.liveEntry(`${ns}/c`)?.name).toBe('c');
    } finally {
      await cache.stop();
    }
  });
});

describe('reads', () => {
  it('a read with a token answers the view it pinned, dated when it was first read, while the cache moves on', async () => {
    let clock = Date.UTC(2026, 0, 2, 8, 0, 0);
    const ns = freshNamespace(env.sim, 'pinned');
    addPod(env.sim, ns, 'a');
    const cache = podCache(env.client, ns, { now: () => clock });
    try {
      await cache.acquire();
      const first = cache.read();
      expect(first.asOf).toBe(clock);
      const firstAt = clock;
      addPod(env.sim, ns, 'b');
      await until(() => cache.liveEntry(`${ns}/b`) !== undefined, 'b arrives');
      clock += 60_000;
      const page2 = cache.read(first.token);
      expect(page2.view).toBe(first.view);
      expect(page2.asOf).toBe(firstAt);
      expect(page2.token).toBe(first.token);
      expect(page2.view.all.map((e) => e.name)).toEqual(['a']);
      const fresh = cache.read();
      expect(fresh.asOf).toBe(clock);
      expect(fresh.token).not.toBe(first.token);
      expect(fresh.view.all.map((e) => e.name)).toEqual(['a', 'b']);
      expect(() => cache.read('not-a-token')).toThrowError(
        expect.objectContaining({ code: 'snapshot_expired' }),
      );
    } finally {
      await cache.stop();
    }
  });
});
