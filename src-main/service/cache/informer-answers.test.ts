/**
 * Watch answers the simulator never gives (an HTTP 410 to the watch request itself, an ERROR event
 * other than 410, lines that are not watch events), from a minimal stand-in apiserver in front of
 * the real KubeClient, Informer and ResourceCache.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProblemError } from '../errors';
import type { KubeClient } from '../kube/kube-client';
import { localApiserver } from '../test-support/local-apiserver.test-support';
import { keysOf, podCache, SLOW_BACKOFF, sleep, until } from './cache.test-support';
import type { ResourceCache } from './resource-cache';

type Answer = (res: ServerResponse) => void;

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const statusOf = (code: number | undefined, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  message,
  ...(code === undefined ? {} : { code }),
});
/** A watch that stays open and quiet, as a healthy one between changes. */
const quiet: Answer = (res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.flushHeaders();
};
const lines =
  (...events: string[]): Answer =>
  (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    for (const line of events) res.write(`${line}\n`);
  };
const pod = (name: string, rv: string) => ({ metadata: { name, namespace: 'ns', resourceVersion: rv } });

interface Fake {
  client: KubeClient;
  lists: () => number;
  watches: () => number;
  close(): Promise<void>;
}

let fake: Fake | undefined;
let cache: ResourceCache<import('./entries').ResourceEntry> | undefined;
afterEach(async () => {
  await cache?.stop();
  await fake?.close();
  cache = undefined;
  fake = undefined;
});

/** Each list answers one pod named for the list's number; watch requests get `watches` in turn. */
async function fakeCluster(...watches: Answer[]): Promise<Fake> {
  let lists = 0;
  let watched = 0;
  const local = await localApiserver((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.searchParams.get('watch') === '1') {
      watches[Math.min(watched++, watches.length - 1)]!(res);
      return;
    }
    lists++;
    json(res, 200, {
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: `${10 * lists}` },
      items: [pod(`p${lists}`, '1')],
    });
  });
  return {
    client: local.client,
    lists: () => lists,
    watches: () => watched,
    close: () => local.close(),
  };
}

function start(f: Fake) {
  fake = f;
  cache = podCache(f.client, 'ns', { backoff: SLOW_BACKOFF });
  return cache;
}

describe('watch answers', () => {
  it('a watch request answered 410 Gone relists at once, and nothing turns stale', async () => {
    const c = start(
      await fakeCluster((res) => json(res, 410, statusOf(410, 'too old resource version')), quiet),
    );
    await c.acquire();
    await until(() => fake!.lists() === 2, 'the cache relisted');
    await until(() => keysOf(c).join() === 'ns/p2', 'the relist replaced the data');
    expect(c.staleSince).toBeUndefined();
    expect(c.neverSyncedCause).toBeUndefined();
  });

  it.each([
    ['with its code', 503, 503],
    ['without a code', undefined, 500],
  ])(
    'an ERROR event other than 410 (%s) is a failure: the data turns stale with the cluster status',
    async (_, code, expected) => {
      const c = start(
        await fakeCluster(lines(JSON.stringify({ type: 'ERROR', object: statusOf(code, 'etcd is down') }))),
      );
      await c.acquire();
      await until(() => c.staleSince !== undefined, 'the cache is stale');
      const cause = c.staleCause as ProblemError;
      expect(cause.code).toBe('cluster_error');
      expect(cause.extensions.clusterStatus).toBe(expected);
      expect(cause.message).toContain('etcd is down');
      expect(keysOf(c)).toEqual(['ns/p1']);
    },
  );

  it("a watch refused with another status is a failure naming the cluster's message", async () => {
    const c = start(await fakeCluster((res) => json(res, 503, statusOf(503, 'apiserver is shutting down'))));
    await c.acquire();
    await until(() => c.staleSince !== undefined, 'the cache is stale');
    expect(c.staleCause?.extensions.clusterStatus).toBe(503);
    expect(c.staleCause?.message).toContain('apiserver is shutting down');
  });

  it.each([
    ['a line that is not JSON', 'this is not json'],
    ['an event without an object', '{"type":"ADDED"}'],
    ['an event without a type', '{"object":{"metadata":{}}}'],
  ])('a watch that sends %s is broken: the data turns stale as unreachable', async (_, line) => {
    const c = start(await fakeCluster(lines(line)));
    await c.acquire();
    await until(() => c.staleSince !== undefined, 'the cache is stale');
    expect(c.staleCause?.code).toBe('cluster_unreachable');
  });

  it('stopping a cache whose watch opened a moment ago ends at once, not after a backoff', async () => {
    const c = start(await fakeCluster(quiet));
    await c.acquire();
    await until(() => fake!.watches() === 1, 'the watch is open');
    await sleep(100);
    const stopped = c.stop().then(() => 'stopped');
    const late = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5_000).unref());
    expect(await Promise.race([stopped, late])).toBe('stopped');
  });

  it('an event of a type it does not know is skipped, and the watch goes on', async () => {
    const c = start(
      await fakeCluster(
        lines(
          JSON.stringify({ type: 'SOMETHING_NEW', object: pod('odd', '11') }),
          JSON.stringify({ type: 'ADDED', object: pod('late', '12') }),
        ),
      ),
    );
    await c.acquire();
    await until(() => c.liveEntry('ns/late') !== undefined, 'late arrives');
    expect(keysOf(c)).toEqual(['ns/late', 'ns/p1']);
    expect(c.staleSince).toBeUndefined();
    expect(fake!.lists()).toBe(1);
  });
});
