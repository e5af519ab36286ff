import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotGap } from '../../../src-shared/contract/snapshot-models';
import { type KubeClient, KubeRequestError } from '../kube/kube-client';
import { localApiserver } from '../test-support/local-apiserver.test-support';
import { captureLogs, LOG_CONCURRENCY, reasonOf } from './capture-logs';
import type { LogTarget } from './log-targets';

/**
 * Taking the containers' logs for a capture, against a small apiserver of the test's own that
 * answers each container's log as the test says: some lines (whatever tailLines asked), a
 * refusal, a connection that breaks, or an answer held back to count the requests open at once.
 */

type Answer = { lines: number } | { status: number } | { breakAfter: number } | { hold: true };

interface FakeApi {
  client: KubeClient;
  /** Each log request, as `ns/pod/container[/previous]?tailLines=N`, in the order they came. */
  asked: string[];
  maxOpen: number;
  close(): Promise<void>;
}

const line = (i: number) => `2026-03-01T10:00:${String(i % 60).padStart(2, '0')}.000000001Z line ${i}`;
const keyOf = (t: LogTarget) => `${t.namespace}/${t.pod}/${t.container}${t.previous ? '/previous' : ''}`;

let api: FakeApi | undefined;
beforeEach(() => {
  api = undefined;
});
afterEach(async () => {
  await api?.close();
});

/**
 * Held answers are released shortly after `releaseAt` are open or every container was asked, else
 * after a second without a new request (which only a capture opening fewer at once than expected
 * waits for).
 */
async function fakeApi(
  answers: Record<string, Answer>,
  releaseAt = Number.POSITIVE_INFINITY,
): Promise<FakeApi> {
  let open = 0;
  const held: Array<() => void> = [];
  let idle: NodeJS.Timeout | undefined;
  const release = () => {
    clearTimeout(idle);
    for (const go of held.splice(0)) go();
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/log$/.exec(url.pathname);
    const q = url.searchParams;
    const key = `${m?.[1]}/${m?.[2]}/${q.get('container')}${q.get('previous') === 'true' ? '/previous' : ''}`;
    fake.asked.push(`${key}?tailLines=${q.get('tailLines')}&timestamps=${q.get('timestamps')}`);
    const answer = answers[key] ?? { status: 404 };
    open++;
    fake.maxOpen = Math.max(fake.maxOpen, open);
    res.on('close', () => open--);
    if ('status' in answer) {
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ kind: 'Status', status: 'Failure', message: `refused ${key}`, code: answer.status }),
      );
    } else if ('breakAfter' in answer) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(Array.from({ length: answer.breakAfter }, (_, i) => `${line(i)}\n`).join(''));
      setTimeout(() => res.destroy(), 20);
    } else {
      const send = () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const n = 'lines' in answer ? answer.lines : 1;
        res.end(Array.from({ length: n }, (_, i) => `${line(i)}\n`).join(''));
      };
      if (!('hold' in answer)) return send();
      held.push(send);
      // A moment's grace once the bound is reached, so a request beyond it would be counted too.
      const enough = open >= releaseAt || fake.asked.length === Object.keys(answers).length;
      clearTimeout(idle);
      idle = setTimeout(release, enough ? 50 : 1_000);
    }
  };
  const local = await localApiserver(handle);
  const fake: FakeApi = {
    client: local.client,
    asked: [],
    maxOpen: 0,
    async close() {
      release();
      await local.close();
    },
  };
  api = fake;
  return fake;
}

const target = (pod: string, container: string, previous = false): LogTarget => ({
  namespace: 'shop',
  pod,
  container,
  previous,
});

async function capture(
  fake: FakeApi,
  pods: LogTarget[][],
  opts: { lines?: number; concurrency?: number } = {},
) {
  const written = new Map<string, readonly string[]>();
  const gaps: SnapshotGap[] = [];
  const order: string[] = [];
  await captureLogs(pods, {
    client: fake.client,
    timeoutMs: 5_000,
    lines: opts.lines ?? 100,
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    signal: new AbortController().signal,
    write: (t, lines) => {
      written.set(keyOf(t), lines);
      order.push(keyOf(t));
    },
    podDone: () => order.push('pod done'),
    gap: (g) => gaps.push(g),
  });
  return { written, gaps, order };
}

describe('captureLogs', () => {
  it('asks each container for its last lines with timestamps, and keeps at most that many, the last ones', async () => {
    const fake = await fakeApi({ 'shop/web/app': { lines: 8 }, 'shop/web/app/previous': { lines: 2 } });
    const { written, gaps } = await capture(fake, [[target('web', 'app'), target('web', 'app', true)]], {
      lines: 3,
    });
    expect(fake.asked.sort()).toEqual([
      'shop/web/app/previous?tailLines=3&timestamps=true',
      'shop/web/app?tailLines=3&timestamps=true',
    ]);
    // This apiserver ignores tailLines: the capture cuts what it sent.
    expect(written.get('shop/web/app')).toEqual([line(5), line(6), line(7)]);
    expect(written.get('shop/web/app/previous')).toEqual([line(0), line(1)]);
    expect(gaps).toEqual([]);
  });

  it('a container whose log is refused is a gap naming it (the previous run as such), and the rest are taken', async () => {
    const fake = await fakeApi({
      'shop/web/app': { status: 500 },
      'shop/web/app/previous': { status: 400 },
      'shop/web/sidecar': { lines: 1 },
    });
    const pods = [[target('web', 'app'), target('web', 'app', true), target('web', 'sidecar')]];
    const { written, gaps } = await capture(fake, pods, { concurrency: 1 });
    expect([...written.keys()]).toEqual(['shop/web/sidecar']);
    expect(gaps).toEqual([
      {
        part: 'logs',
        target: 'shop/web/app',
        reason: expect.stringMatching(/^the cluster answered 500: refused/),
      },
      { part: 'logs', target: 'shop/web/app', reason: 'previous run: refused shop/web/app/previous' },
    ]);
  });

  it('once the cluster refuses our credentials, no other log is asked and one gap counts those not taken', async () => {
    const fake = await fakeApi({
      'shop/a/app': { status: 401 },
      'shop/b/app': { lines: 1 },
      'shop/c/app': { lines: 1 },
    });
    const pods = [[target('a', 'app'), target('b', 'app')], [target('c', 'app')]];
    const { written, gaps, order } = await capture(fake, pods, { concurrency: 1 });
    expect(fake.asked).toHaveLength(1);
    expect(written.size).toBe(0);
    expect(gaps).toEqual([
      { part: 'logs', reason: expect.stringMatching(/^3 container logs were not taken: .*refused/) },
    ]);
    // Every pod is still done, so the progress reaches its total.
    expect(order).toEqual(['pod done', 'pod done']);
  });

  it('a pod is done once, when the last of its containers is written or a gap', async () => {
    const fake = await fakeApi({
      'shop/web/app': { lines: 1 },
      'shop/web/app/previous': { status: 500 },
      'shop/api/app': { lines: 2 },
    });
    const pods = [[target('web', 'app'), target('web', 'app', true)], [target('api', 'app')]];
    const { order } = await capture(fake, pods, { concurrency: 1 });
    expect(order).toEqual(['shop/web/app', 'pod done', 'shop/api/app', 'pod done']);
  });

  it('a connection that breaks while a log is read keeps the lines up to there, and a gap says so', async () => {
    const fake = await fakeApi({ 'shop/web/app/previous': { breakAfter: 2 } });
    const { written, gaps } = await capture(fake, [[target('web', 'app', true)]]);
    expect(written.get('shop/web/app/previous')).toEqual([line(0), line(1)]);
    expect(gaps).toEqual([
      {
        part: 'logs',
        target: 'shop/web/app',
        reason: 'previous run: the connection broke while the log was read; the lines up to there are kept',
      },
    ]);
  });

  it(`at most ${LOG_CONCURRENCY} log requests are open at once, or the concurrency asked for`, async () => {
    const pods = Array.from({ length: 12 }, (_, i) => [target(`p${i}`, 'app')]);
    const answers = Object.fromEntries(pods.map(([t]) => [keyOf(t!), { hold: true } as const]));
    const byDefault = await fakeApi(answers, LOG_CONCURRENCY);
    expect((await capture(byDefault, pods)).written.size).toBe(12);
    expect(byDefault.maxOpen).toBe(LOG_CONCURRENCY);
    await byDefault.close();
    api = undefined;
    const three = await fakeApi(answers, 3);
    expect((await capture(three, pods, { concurrency: 3 })).written.size).toBe(12);
    expect(three.maxOpen).toBe(3);
  });

  it('an aborted capture asks for nothing more and ends with the reason', async () => {
    const fake = await fakeApi({ 'shop/web/app': { lines: 1 } });
    const stop = new AbortController();
    stop.abort(new Error('capture cancelled'));
    const done = captureLogs([[target('web', 'app')]], {
      client: fake.client,
      timeoutMs: 5_000,
      lines: 10,
      signal: stop.signal,
      write: () => {},
      podDone: () => {},
      gap: () => {},
    });
    await expect(done).rejects.toThrow('capture cancelled');
    expect(fake.asked).toEqual([]);
  });

  it('a capture aborted while a log is being asked for ends with the reason, not with a gap', async () => {
    // The only log asked for, so no later one stops the capture (the second answer, never asked
    // for, keeps the first held until the abort).
    const fake = await fakeApi({ 'shop/web/app': { hold: true }, 'shop/web/never': { hold: true } });
    const stop = new AbortController();
    const gaps: SnapshotGap[] = [];
    const done = captureLogs([[target('web', 'app')]], {
      client: fake.client,
      timeoutMs: 5_000,
      lines: 10,
      signal: stop.signal,
      write: () => {},
      podDone: () => {},
      gap: (g) => gaps.push(g),
    });
    while (fake.asked.length === 0) await new Promise((r) => setTimeout(r, 5));
    stop.abort(new Error('capture cancelled'));
    await expect(done).rejects.toThrow('capture cancelled');
    expect(fake.asked).toHaveLength(1);
    expect(gaps).toEqual([]);
  });

  it("a part's failure is said in the API's words: a cluster's refusal names its status", () => {
    expect(reasonOf(new KubeRequestError(403, undefined, 'events is forbidden'))).toBe(
      'the cluster answered 403: events is forbidden',
    );
    expect(reasonOf(new Error('socket hang up'))).toBe('socket hang up');
    expect(reasonOf('plain')).toBe('plain');
  });
});
