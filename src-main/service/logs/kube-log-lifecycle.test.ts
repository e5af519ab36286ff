import { getEventListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import type { KubeClient } from '../kube/kube-client';
import { localApiserver } from '../test-support/local-apiserver.test-support';
import { type KubeLogConnection, type KubeLogRequest, openKubeLog } from './kube-log';

/**
 * One log connection's life, against a small apiserver of the test's own that answers each log
 * request as the test says and shows what the client asked and when it hung up: what a follow
 * asks first, how close() and the caller's signal end it, and how a broken or refused request
 * ends it as dropped rather than hanging.
 */

/** How the fake apiserver answers the nth log request (0-based). */
type Answer = (res: ServerResponse, n: number) => void;

interface Asked {
  query: URLSearchParams;
  /** True once the client's connection for this request is gone. */
  closed: boolean;
}

interface FakeApi {
  client: KubeClient;
  asked: Asked[];
  close(): Promise<void>;
}

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function fakeApi(answer: Answer): Promise<FakeApi> {
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const entry: Asked = { query: new URL(req.url ?? '/', 'http://x').searchParams, closed: false };
    fake.asked.push(entry);
    res.on('close', () => {
      entry.closed = true;
    });
    answer(res, fake.asked.length - 1);
  };
  const local = await localApiserver(handle);
  const fake: FakeApi = { client: local.client, asked: [], close: () => local.close() };
  api = fake;
  return fake;
}

const line = (i: number) => `2026-03-01T10:00:0${i}.000000001Z line ${i}`;
const lines = (...ns: number[]) => ns.map((i) => `${line(i)}\n`).join('');

/** A 200 with `body`, left open for more unless `end`. */
const ok = (res: ServerResponse, body: string, end = false) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  if (end) res.end(body);
  else res.write(body);
};

const refuse = (res: ServerResponse, code: number, message: string) => {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ kind: 'Status', status: 'Failure', message, reason: 'BadRequest', code }));
};

function request(ns: string, follow: boolean, extra: Partial<KubeLogRequest> = {}): KubeLogRequest {
  return { namespace: ns, pod: 'web-1', container: 'app', follow, previous: false, ...extra };
}

/** Everything the connection gives until its end. */
async function drain(conn: KubeLogConnection): Promise<string[]> {
  const got: string[] = [];
  for (let batch = await conn.next(); batch !== null; batch = await conn.next()) got.push(...batch);
  return got;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('a follow is checked before it is opened', () => {
  it('a follow first asks one byte of the same log without follow, then follows it with timestamps', async () => {
    const fake = await fakeApi((res, n) => (n === 0 ? ok(res, 'x', true) : ok(res, lines(1))));
    const caller = new AbortController();
    const conn = await openKubeLog(
      { client: fake.client, timeoutMs: 5_000 },
      request('probe-ns', true, { sinceTime: '2026-03-01T10:00:00Z', tailLines: 7 }),
      caller.signal,
    );
    expect(await conn.next()).toEqual([line(1)]);
    conn.close();
    const [probe, follow] = fake.asked.map((a) => Object.fromEntries(a.query));
    expect(fake.asked).toHaveLength(2);
    expect(probe).toMatchObject({ container: 'app', limitBytes: '1', sinceTime: '2026-03-01T10:00:00Z' });
    expect(probe?.follow).not.toBe('true');
    expect(follow).toMatchObject({
      container: 'app',
      follow: 'true',
      timestamps: 'true',
      sinceTime: '2026-03-01T10:00:00Z',
      tailLines: '7',
    });
  });

  it('a request without follow is asked once, and reads the log to its end as not dropped', async () => {
    const fake = await fakeApi((res) => ok(res, lines(2, 1, 3), true));
    const caller = new AbortController();
    const conn = await openKubeLog(
      { client: fake.client, timeoutMs: 5_000 },
      request('once-ns', false),
      caller.signal,
    );
    expect(await drain(conn)).toEqual([line(2), line(1), line(3)]);
    expect(conn.dropped).toBe(false);
    expect(fake.asked).toHaveLength(1);
    // Once the log ended, the connection no longer holds on to the caller's signal.
    expect(listeners(caller.signal)).toBe(0);
  });

  it('accepted by the check but refused when opened, a follow ends as dropped without lines', async () => {
    const fake = await fakeApi((res, n) => {
      if (n === 0) return ok(res, 'x', true);
      refuse(res, 400, 'container "app" is terminated');
    });
    const conn = await openKubeLog(
      { client: fake.client, timeoutMs: 5_000 },
      request('refused-ns', true),
      new AbortController().signal,
    );
    expect(await drain(conn)).toEqual([]);
    expect(conn.dropped).toBe(true);
  });

  it('a follow whose request fails before any answer ends as dropped', async () => {
    const fake = await fakeApi((res, n) => {
      if (n === 0) return ok(res, 'x', true);
      res.socket?.destroy();
    });
    const conn = await openKubeLog(
      { client: fake.client, timeoutMs: 5_000 },
      request('nohead-ns', true),
      new AbortController().signal,
    );
    expect(await drain(conn)).toEqual([]);
    expect(conn.dropped).toBe(true);
  });
});

describe('ending a log connection', () => {
  it('close() ends the stream, hangs up on the cluster and lets go of the caller signal', async () => {
    const fake = await fakeApi((res, n) => (n === 0 ? ok(res, 'x', true) : ok(res, lines(4))));
    const caller = new AbortController();
    const conn = await openKubeLog(
      { client: fake.client, timeoutMs: 5_000 },
      request('close-ns', true),
      caller.signal,
    );
    expect(await conn.next()).toEqual([line(4)]);
    expect(listeners(caller.signal)).toBe(1);
    conn.close();
    expect(listeners(caller.signal)).toBe(0);
    expect(await conn.next()).toBeNull();
    expect(conn.dropped).toBe(false);
    await until(() => fake.asked[1]?.closed === true, 'the follow request to be hung up');
  });

  it("aborting the caller's signal after lines arrived ends the connection and hangs up", async () => {
    const fake = await fakeApi((res, n) => (n === 0 ? ok(res, 'x', true) : ok(res, lines(5, 6))));
    const caller = new AbortController();
    const conn = await openKubeLog(
      { client: fake.client, timeoutMs: 5_000 },
      request('abort-ns', true),
      caller.signal,
    );
    expect(await conn.next()).toEqual([line(5), line(6)]);
    caller.abort();
    expect(await conn.next()).toBeNull();
    expect(conn.dropped).toBe(false);
    await until(() => fake.asked[1]?.closed === true, 'the follow request to be hung up');
  });

  it("aborting the caller's signal while a quiet follow waits for headers ends it as closed, not dropped", async () => {
    // The kubelet sends no headers before the container's next line: the follow is left waiting.
    const fake = await fakeApi((res, n) => (n === 0 ? ok(res, 'x', true) : undefined));
    const caller = new AbortController();
    const conn = await openKubeLog(
      { client: fake.client, timeoutMs: 5_000 },
      request('quiet-ns', true),
      caller.signal,
    );
    await until(() => fake.asked.length === 2, 'the follow request');
    caller.abort();
    expect(await conn.next()).toBeNull();
    expect(conn.dropped).toBe(false);
    await until(() => fake.asked[1]?.closed === true, 'the follow request to be hung up');
  });

  it('a connection that breaks in the middle of the log ends as dropped, after the lines it gave', async () => {
    const fake = await fakeApi((res) => {
      ok(res, `${lines(8)}2026-03-01T10:00:09.0Z half a li`);
      setTimeout(() => res.destroy(), 20);
    });
    const conn = await openKubeLog(
      { client: fake.client, timeoutMs: 5_000 },
      request('broken-ns', false),
      new AbortController().signal,
    );
    expect((await drain(conn))[0]).toBe(line(8));
    expect(conn.dropped).toBe(true);
  });

  it('a long log sent slowly is not cut by the cluster timeout once its answer began', async () => {
    const fake = await fakeApi((res) => {
      ok(res, lines(1));
      setTimeout(() => res.end(lines(2)), 1_500);
    });
    const conn = await openKubeLog(
      { client: fake.client, timeoutMs: 700 },
      request('slow-ns', false),
      new AbortController().signal,
    );
    expect(await drain(conn)).toEqual([line(1), line(2)]);
    expect(conn.dropped).toBe(false);
  });

  it('an answer without a body is an empty log, not a hang', async () => {
    const fake = await fakeApi((res) => res.writeHead(204).end());
    const conn = await openKubeLog(
      { client: fake.client, timeoutMs: 5_000 },
      request('empty-ns', false),
      new AbortController().signal,
    );
    expect(await drain(conn)).toEqual([]);
    expect(conn.dropped).toBe(false);
  });
});

describe('a log request that cannot start', () => {
  it('a request without follow that gets no answer fails with the problem of an unreachable cluster', async () => {
    const fake = await fakeApi((res) => res.socket?.destroy());
    const err = await openKubeLog(
      { client: fake.client, timeoutMs: 5_000 },
      request('gone-ns', false),
      new AbortController().signal,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProblemError);
    expect((err as ProblemError).toProblem().code).toBe('cluster_unreachable');
  });

  it('an already aborted signal fails with its reason and asks the cluster nothing', async () => {
    const fake = await fakeApi((res) => ok(res, lines(1), true));
    const caller = new AbortController();
    const reason = new Error('the client went away');
    caller.abort(reason);
    for (const follow of [true, false]) {
      await expect(
        openKubeLog({ client: fake.client, timeoutMs: 5_000 }, request('aborted-ns', follow), caller.signal),
      ).rejects.toBe(reason);
    }
    expect(fake.asked).toHaveLength(0);
  });
});
