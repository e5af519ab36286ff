/**
 * A cache's first list while it is still arriving: a request waits for a list that keeps making
 * progress (past the request timeout), answers 503 cluster_syncing with the progress once it has
 * waited fillWaitMs, and answers the cluster's own problem (504, 502) only when the cluster stops
 * answering. The apiserver is a test's own handler on loopback, so each page comes exactly when
 * the test lets it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { localApiserver } from '../test-support/local-apiserver.test-support';
import { failureOf, problemOf } from '../test-support/rejections.test-support';
import { podCache, SLOW_BACKOFF, sleep, until } from './cache.test-support';
import { SYNCING_RETRY_AFTER_S } from './first-list';

const CHUNK = 2;

/** What a page request meets: answered at once, after a gate opens, never, or a cut connection. */
type PagePlan = 'now' | Promise<unknown> | 'hang' | 'cut';

interface PagedCluster {
  cache: ReturnType<typeof podCache>;
  /** Page requests seen so far (0-based index of the next page asked). */
  asked(): number;
  close(): Promise<void>;
}

const open: PagedCluster[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

/**
 * A cluster of `total` pods served CHUNK per page; `plan(i)` says how page i is answered. Watches
 * stay open and silent. `remaining: false` leaves out remainingItemCount, as a filtered list does.
 */
async function pagedCluster(
  total: number,
  plan: (page: number) => PagePlan,
  cacheOptions: { timeoutMs: number; fillWaitMs: number },
  remaining = true,
): Promise<PagedCluster> {
  let asked = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.searchParams.get('watch') === '1') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return;
    }
    asked++;
    const start = Number(url.searchParams.get('continue') ?? '0');
    const how = plan(start / CHUNK);
    if (how === 'hang') return;
    if (how === 'cut') {
      req.socket.destroy();
      return;
    }
    if (how !== 'now') await how;
    const end = Math.min(total, start + CHUNK);
    const items = Array.from({ length: end - start }, (_, k) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: 'big', name: `p${start + k}`, resourceVersion: String(start + k + 1) },
    }));
    const more = end < total;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        kind: 'PodList',
        apiVersion: 'v1',
        metadata: {
          resourceVersion: String(total),
          ...(more ? { continue: String(end) } : {}),
          ...(more && remaining ? { remainingItemCount: total - end } : {}),
        },
        items,
      }),
    );
  };
  const server = await localApiserver((req, res) => {
    void handle(req, res);
  });
  const cache = podCache(server.client, 'big', { backoff: SLOW_BACKOFF, listChunk: CHUNK, ...cacheOptions });
  const cluster = {
    cache,
    asked: () => asked,
    async close() {
      await cache.stop();
      await server.close();
    },
  };
  open.push(cluster);
  return cluster;
}

/** A gate a page waits behind until the test opens it. */
function gate(): { promise: Promise<void>; open(): void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('a first list that is still arriving', () => {
  it('is waited for past the request timeout while its pages keep coming, and then answers', async () => {
    // Eight pages, each a fifth of the timeout: the whole list takes well past it.
    const { cache } = await pagedCluster(16, () => sleep(300), { timeoutMs: 1_500, fillWaitMs: 60_000 });
    await cache.acquire();
    expect(cache.read().view.all).toHaveLength(16);
    expect(cache.listProgress).toBeUndefined();
  });

  it('answers 503 cluster_syncing past fillWaitMs, with the objects so far, the estimate of the rest and Retry-After', async () => {
    const held = gate();
    // One page, then the rest held: the list is caught at the same point however loaded the machine.
    const { cache } = await pagedCluster(10, (page) => (page < 1 ? 'now' : held.promise), {
      timeoutMs: 10_000,
      fillWaitMs: 200,
    });
    const problem = await problemOf(cache.acquire());
    expect(problem.code).toBe('cluster_syncing');
    expect(problem.status).toBe(503);
    expect(problem.extensions).toEqual({
      retryAfterSeconds: SYNCING_RETRY_AFTER_S,
      progress: { items: 2, remaining: 8 },
    });
    expect(problem.headers).toEqual({ 'Retry-After': String(SYNCING_RETRY_AFTER_S) });
    expect(problem.message).toContain('(2 objects so far, about 8 to come)');
    expect(problem.toProblem()).toMatchObject({ status: 503, title: 'Service Unavailable' });
    expect(cache.listProgress).toEqual({ items: 2, remaining: 8 });

    held.open();
    await cache.acquire();
    expect(cache.read().view.all).toHaveLength(10);
    expect(cache.listProgress).toBeUndefined();
  });

  it('reports the objects so far alone when the cluster gives no estimate of the rest', async () => {
    const held = gate();
    const { cache } = await pagedCluster(
      10,
      (page) => (page < 1 ? 'now' : held.promise),
      { timeoutMs: 10_000, fillWaitMs: 150 },
      false,
    );
    const problem = await problemOf(cache.acquire());
    expect(problem.extensions.progress).toEqual({ items: 2 });
    expect(problem.message).toContain('(2 objects so far)');
    held.open();
  });

  it('past fillWaitMs with no page since the request came, waits for one (then 503) rather than answer on old progress', async () => {
    const gates = [gate(), gate()];
    const { cache, asked } = await pagedCluster(
      10,
      (page) => (page < 2 ? 'now' : (gates[page - 2]?.promise ?? 'now')),
      { timeoutMs: 10_000, fillWaitMs: 150 },
    );
    expect((await problemOf(cache.acquire())).code).toBe('cluster_syncing');
    await until(() => cache.listProgress?.items === 4, 'two pages arrived; the third is held');
    // The second request sees no page during its fillWaitMs: the list is quiet, not progressing.
    let settled = false;
    const second = problemOf(cache.acquire()).finally(() => {
      settled = true;
    });
    await sleep(400);
    expect(settled).toBe(false);
    gates[0]!.open();
    const problem = await second;
    expect(problem.code).toBe('cluster_syncing');
    expect(problem.extensions.progress).toEqual({ items: 6, remaining: 4 });
    await until(() => asked() === 4, 'the fourth page is asked for');
    gates[1]!.open();
    await cache.acquire();
  });

  it('a last page that comes past fillWaitMs completes the wait: the list is done, nothing to retry', async () => {
    const { cache } = await pagedCluster(CHUNK, () => sleep(400), { timeoutMs: 10_000, fillWaitMs: 100 });
    await cache.acquire();
    expect(cache.read().view.all).toHaveLength(CHUNK);
  });

  it('a cluster that stops answering half-way is a 504, however long the fill wait', async () => {
    const { cache } = await pagedCluster(10, (page) => (page < 2 ? 'now' : 'hang'), {
      timeoutMs: 500,
      fillWaitMs: 60_000,
    });
    const problem = await problemOf(cache.acquire());
    expect(problem.code).toBe('cluster_timeout');
    expect(problem.status).toBe(504);
    // The attempt fails too (its page timed out; the wait may have seen the silence a moment
    // sooner), and leaves no progress behind: the next list starts from nothing.
    await until(() => cache.listProgress === undefined, 'the failed attempt cleared its progress');
  });

  it('a cluster that cuts the connection half-way is a 502, not a 503', async () => {
    const { cache } = await pagedCluster(10, (page) => (page < 2 ? 'now' : 'cut'), {
      timeoutMs: 10_000,
      fillWaitMs: 60_000,
    });
    const problem = await problemOf(cache.acquire());
    expect(problem.code).toBe('cluster_unreachable');
    expect(problem.status).toBe(502);
  });

  it('a request that gives up while the list arrives stops waiting with its own reason', async () => {
    const held = gate();
    const { cache } = await pagedCluster(10, (page) => (page < 1 ? 'now' : held.promise), {
      timeoutMs: 10_000,
      fillWaitMs: 60_000,
    });
    const caller = new AbortController();
    const reason = new Error('the caller went away');
    const waiting = failureOf(cache.acquire(caller.signal));
    await until(() => cache.listProgress !== undefined, 'the first page arrived');
    caller.abort(reason);
    expect(await waiting).toBe(reason);
    held.open();
  });
});
