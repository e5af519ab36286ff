/**
 * The informer's own loop, driven directly (no cache in front) against a stand-in apiserver on
 * loopback: when it lists again, when it waits, when it gives a watch up for dead, and what it
 * reports. The answers here are ones the simulator never gives: a watch that ends at once, a
 * connection that goes silent or breaks, a list without metadata.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { liveCollection } from '../clusters/source-live';
import type { ProblemError } from '../errors';
import type { BackoffOptions } from '../kube/backoff';
import type { KubeRequestError } from '../kube/kube-client';
import { silentLogger } from '../logger';
import { localApiserver } from '../test-support/local-apiserver.test-support';
import { FAST_BACKOFF, SLOW_BACKOFF, sleep, until } from './cache.test-support';
import { Informer, type InformerSink, type WatchTimeout } from './informer';

const PATH = '/api/v1/pods';

type Handler = (res: ServerResponse, req: IncomingMessage) => void;

interface Seen {
  at: number;
  query: URLSearchParams;
  /** Set when the server saw the connection close. */
  closedAt?: number;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const listOf = (rv: string, ...names: string[]) => ({
  kind: 'PodList',
  apiVersion: 'v1',
  metadata: { resourceVersion: rv },
  items: names.map((name) => ({ metadata: { name, namespace: 'ns', resourceVersion: rv } })),
});
const open = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.flushHeaders();
};
const event = (res: ServerResponse, type: string, object: unknown) =>
  res.write(`${JSON.stringify({ type, object })}\n`);
const bookmark = (rv: string) => ({ kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: rv } });

/** Watch requests get `watches` in turn, the last one again for every later request. */
async function apiserver(list: Handler, ...watches: Handler[]) {
  const lists: Seen[] = [];
  const watched: Seen[] = [];
  const local = await localApiserver((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const seen: Seen = { at: Date.now(), query: url.searchParams };
    res.on('close', () => {
      seen.closedAt = Date.now();
    });
    if (url.searchParams.get('watch') === '1') {
      const answer = watches[Math.min(watched.length, watches.length - 1)]!;
      watched.push(seen);
      answer(res, req);
      return;
    }
    lists.push(seen);
    list(res, req);
  });
  return { ...local, lists, watched };
}

type Fake = Awaited<ReturnType<typeof apiserver>>;

interface Recorded {
  calls: string[];
  listed: KubeObject[];
  failures: Array<{ at: number; err: ProblemError & KubeRequestError }>;
  synced: number;
}

let running: { informer: Informer; fake: Fake; intervals: NodeJS.Timeout[] } | undefined;
afterEach(async () => {
  if (!running) return;
  for (const timer of running.intervals) clearInterval(timer);
  await running.informer.stop();
  await running.fake.close();
  running = undefined;
});

function startInformer(
  fake: Fake,
  opts: { backoff?: BackoffOptions; timeoutMs?: number; watchTimeout?: WatchTimeout } = {},
) {
  const rec: Recorded = { calls: [], listed: [], failures: [], synced: 0 };
  const sink: InformerSink = {
    beginList: () => rec.calls.push('beginList'),
    listed: (obj) => {
      rec.listed.push(obj);
    },
    endList: () => rec.calls.push('endList'),
    abortList: () => rec.calls.push('abortList'),
    upsert: (obj) => rec.calls.push(`upsert ${obj.metadata?.name}`),
    remove: (obj) => rec.calls.push(`remove ${obj.metadata?.name}`),
  };
  const informer = new Informer({
    source: liveCollection(fake.client, PATH),
    listChunk: 100,
    timeoutMs: opts.timeoutMs ?? 5_000,
    backoff: opts.backoff ?? SLOW_BACKOFF,
    logger: silentLogger(),
    sink,
    watchTimeout: opts.watchTimeout,
    onSynced: () => {
      rec.synced++;
    },
    onFailure: (err) => {
      rec.failures.push({ at: Date.now(), err: err as ProblemError & KubeRequestError });
    },
  });
  running = { informer, fake, intervals: [] };
  informer.start();
  return { informer, rec };
}

const answersList = (res: ServerResponse) => json(res, 200, listOf('10', 'a'));
const statusBody = (code: number, message: string) => ({ kind: 'Status', status: 'Failure', code, message });

describe('lists', () => {
  it('a list answer without items or metadata is an empty collection, watched from no resourceVersion', async () => {
    const fake = await apiserver((res) => json(res, 200, { kind: 'PodList', apiVersion: 'v1' }), open);
    const { rec } = startInformer(fake);
    await until(() => fake.watched.length === 1, 'the watch opens');
    expect(rec.calls).toEqual(['beginList', 'endList']);
    expect(rec.listed).toEqual([]);
    expect(rec.synced).toBe(1);
    expect(fake.watched[0]!.query.get('resourceVersion')).toBe('');
    expect(rec.failures).toEqual([]);
  });

  it('a list refused with a status other than 410 is one request, reported, then a backoff', async () => {
    const fake = await apiserver((res) => json(res, 500, statusBody(500, 'etcd timed out')), open);
    const { rec } = startInformer(fake);
    await until(() => rec.failures.length === 1, 'the failure is reported');
    await sleep(300);
    expect(fake.lists).toHaveLength(1);
    expect(rec.failures).toHaveLength(1);
    expect(rec.failures[0]!.err.statusCode).toBe(500);
    expect(rec.calls).toEqual(['beginList', 'abortList']);
    expect(rec.synced).toBe(0);
  });

  it('stopping while a list is still unanswered ends the informer without reporting a failure', async () => {
    const fake = await apiserver(() => {}, open);
    const { informer, rec } = startInformer(fake);
    await until(() => fake.lists.length === 1, 'the list is asked');
    await informer.stop();
    expect(rec.failures).toEqual([]);
    expect(rec.calls).toEqual(['beginList', 'abortList']);
  });
});

describe('when a watch is asked for again', () => {
  it('a watch that ends at once is not asked for again in a tight loop: a backoff comes first', async () => {
    const fake = await apiserver(answersList, (res) => {
      open(res);
      res.end();
    });
    const { rec } = startInformer(fake);
    await until(() => fake.watched.length === 1, 'the watch opens');
    await sleep(400);
    expect(fake.watched).toHaveLength(1);
    expect(fake.lists).toHaveLength(1);
    expect(rec.failures).toEqual([]);
  });

  it('a watch that lasted over a second is resumed at once, from where it got to, without a relist', async () => {
    const fake = await apiserver(
      answersList,
      (res) => {
        open(res);
        event(res, 'MODIFIED', { metadata: { name: 'a', namespace: 'ns', resourceVersion: '12' } });
        setTimeout(() => res.end(), 1_100);
      },
      open,
    );
    // Its backoff is a minute (SLOW_BACKOFF), past this test's own timeout: a resume seen at all
    // came at once.
    const { rec } = startInformer(fake);
    await until(() => fake.watched.length === 2, 'the watch is resumed', 15_000);
    expect(fake.watched[1]!.query.get('resourceVersion')).toBe('12');
    expect(fake.lists).toHaveLength(1);
    expect(rec.calls).toEqual(['beginList', 'endList', 'upsert a']);
  });

  it('an event whose object has no metadata leaves the resume point where it was', async () => {
    const fake = await apiserver(
      answersList,
      (res) => {
        open(res);
        event(res, 'MODIFIED', { metadata: { name: 'a', namespace: 'ns', resourceVersion: '15' } });
        event(res, 'BOOKMARK', {});
        res.end();
      },
      open,
    );
    const { rec } = startInformer(fake, { backoff: FAST_BACKOFF });
    await until(() => fake.watched.length === 2, 'the watch is resumed');
    expect(fake.watched[1]!.query.get('resourceVersion')).toBe('15');
    expect(fake.lists).toHaveLength(1);
    expect(rec.failures).toEqual([]);
  });

  it('two expiries in a row relist at once; the third waits for a backoff', async () => {
    const fake = await apiserver(answersList, (res) => json(res, 410, statusBody(410, 'too old')));
    const { rec } = startInformer(fake);
    await until(() => fake.watched.length === 3, 'three watches expire');
    await sleep(400);
    expect(fake.lists).toHaveLength(3);
    expect(fake.watched).toHaveLength(3);
    expect(rec.failures).toEqual([]);
  });

  it('a watch that stays connected resets the backoff: a cluster whose watches keep ending is retried at the first delay', async () => {
    // Every watch ends at once (a backoff each time), but it did connect: with stableAfterMs 0 that
    // proves the cluster healthy, so no delay grows past the first one's 50–100 ms: nine delays
    // take at most 0.9 s. Without the reset they would double each time, 25.5 s at the least, past
    // this wait and this test's own timeout: that the tenth watch comes at all is the check.
    const fake = await apiserver(answersList, (res) => {
      open(res);
      res.end();
    });
    startInformer(fake, { backoff: { baseMs: 100, capMs: 600_000, stableAfterMs: 0 } });
    await until(() => fake.watched.length === 10, 'ten watches', 15_000);
  });

  it('asked to retry within a second of its last attempt, it keeps waiting; later, it retries at once', async () => {
    const fake = await apiserver((res) => json(res, 500, statusBody(500, 'etcd timed out')), open);
    const { informer, rec } = startInformer(fake);
    await until(() => rec.failures.length === 1, 'the first list fails');
    informer.retryNow();
    await sleep(200);
    expect(fake.lists).toHaveLength(1);
    await sleep(Math.max(0, fake.lists[0]!.at + 1_050 - Date.now()));
    informer.retryNow();
    await until(() => fake.lists.length === 2, 'the retry');
  });

  it('asked to retry while its watch is live, it does nothing', async () => {
    const fake = await apiserver(answersList, open);
    const { informer, rec } = startInformer(fake);
    await until(() => fake.watched.length === 1, 'the watch opens');
    await sleep(Math.max(0, fake.lists[0]!.at + 1_050 - Date.now()));
    expect(() => informer.retryNow()).not.toThrow();
    await sleep(200);
    expect(fake.lists).toHaveLength(1);
    expect(fake.watched).toHaveLength(1);
    expect(rec.failures).toEqual([]);
  });
});

describe('a watch request', () => {
  it('asks for a timeout drawn from five to ten minutes', async () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    try {
      const fake = await apiserver(answersList, open);
      startInformer(fake);
      await until(() => fake.watched.length === 1, 'the watch opens');
      expect(fake.watched[0]!.query.get('timeoutSeconds')).toBe('450');
    } finally {
      random.mockRestore();
    }
  });

  it('outlives the request timeout, which bounds only the wait for its headers', async () => {
    const fake = await apiserver(answersList, open);
    const { rec } = startInformer(fake, { timeoutMs: 200 });
    await until(() => fake.watched.length === 1, 'the watch opens');
    await sleep(700);
    expect(rec.failures).toEqual([]);
    expect(fake.watched).toHaveLength(1);
    expect(fake.watched[0]!.closedAt).toBeUndefined();
  });

  it('refused with a body that is not a Status, reports the HTTP status', async () => {
    const fake = await apiserver(answersList, (res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad Gateway</html>');
    });
    const { rec } = startInformer(fake);
    await until(() => rec.failures.length === 1, 'the failure is reported');
    expect(rec.failures[0]!.err.statusCode).toBe(502);
    expect(rec.failures[0]!.err.message).toBe('HTTP 502');
  });

  it('left on an ERROR event closes its connection', async () => {
    const fake = await apiserver(
      answersList,
      (res) => {
        open(res);
        event(res, 'ERROR', statusBody(410, 'too old resource version'));
      },
      open,
    );
    startInformer(fake);
    await until(() => fake.watched.length === 2, 'the relist watches again');
    await until(() => fake.watched[0]!.closedAt !== undefined, 'the first watch is closed');
    expect(fake.lists).toHaveLength(2);
  });
});

describe('a dead watch', () => {
  const watchTimeout: WatchTimeout = { minSeconds: 1, spreadSeconds: 0, silenceGraceMs: 500 };

  it('a watch silent for its timeout and a grace is given up as unreachable', async () => {
    const fake = await apiserver(answersList, open);
    const { rec } = startInformer(fake, { watchTimeout });
    await until(() => rec.failures.length === 1, 'the silent watch is given up', 5_000);
    expect(fake.watched[0]!.query.get('timeoutSeconds')).toBe('1');
    // 1 s asked of the server, then 0.5 s of grace, from when the headers came.
    expect(rec.failures[0]!.at - fake.watched[0]!.at).toBeGreaterThanOrEqual(1_400);
    const { err } = rec.failures[0]!;
    expect(err.code).toBe('cluster_unreachable');
    expect(err.message).toBe(`the watch of ${PATH} broke: it stayed silent past its timeout`);
    await until(() => fake.watched[0]!.closedAt !== undefined, 'its connection is closed');
  });

  it('every chunk the watch sends starts the silence over', async () => {
    let lastSent = 0;
    const fake = await apiserver(answersList, (res) => {
      open(res);
      let rv = 10;
      const timer = setInterval(() => {
        event(res, 'BOOKMARK', bookmark(String(++rv)));
        lastSent = Date.now();
        if (rv === 20) clearInterval(timer);
      }, 250);
      running?.intervals.push(timer);
    });
    // 2 s of silence allowed; ten bookmarks over 2.5 s: longer than that, but never silent that long.
    const { rec } = startInformer(fake, { watchTimeout: { ...watchTimeout, silenceGraceMs: 1_000 } });
    await until(() => rec.failures.length === 1, 'the watch is given up once the bookmarks stop', 8_000);
    expect(rec.failures[0]!.at - lastSent).toBeGreaterThanOrEqual(1_900);
    expect(rec.failures[0]!.at - fake.watched[0]!.at).toBeGreaterThanOrEqual(4_400);
  });

  it("a connection broken mid-watch is a failure that names the socket's error, not fetch's generic one", async () => {
    const fake = await apiserver(answersList, (res) => {
      open(res);
      event(res, 'BOOKMARK', bookmark('11'));
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const { rec } = startInformer(fake);
    await until(() => rec.failures.length === 1, 'the failure is reported');
    const { err } = rec.failures[0]!;
    expect(err.code).toBe('cluster_unreachable');
    // fetch rejects with TypeError('terminated'); what happened is in its cause (undici's SocketError).
    expect(err.message).toBe(`the watch of ${PATH} broke: SocketError: other side closed`);
  });
});
