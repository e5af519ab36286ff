/**
 * The HTTP edge (request-handler.ts): routing and refusals before any work, what an operation is handed,
 * and how its reply becomes an answer. The operations are scripted: the edge is what is tested.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Reply, StreamBody } from '../../../src-shared/contract/define';
import { ProblemError } from '../errors';
import { type Edge, type EdgeOptions, problemOf, rawRequest, startEdge } from './edge.test-support';
import { LEVEL } from './recording-logger.test-support';

let edge: Edge | undefined;
afterEach(async () => {
  await edge?.close();
  edge = undefined;
});
async function start(opts: EdgeOptions = {}): Promise<Edge> {
  edge = await startEdge(opts);
  return edge;
}

const LOGS = '/v1/workspaces/w/observability/c/kubernetes-proxy/namespaces/ns/pod/p/logs';
const EVENTS = '/v1/workspaces/w/observability/c/kubernetes-events';

/** A streaming reply of these text chunks. */
const chunks = (parts: string[], extra: Partial<StreamBody> = {}): StreamBody => ({
  contentType: 'text/plain; charset=utf-8',
  chunks: (async function* () {
    yield* parts;
  })(),
  ...extra,
});

describe('refusals before any work', () => {
  it('answers an unknown API route with 404 and a known path with another method with 405 and Allow', async () => {
    const { url, calls } = await start();
    expect(await problemOf(await fetch(`${url}/v1/nothing-here`))).toMatchObject({
      status: 404,
      code: 'route_not_found',
    });
    const wrong = await fetch(`${url}/v1/workspaces/w`, { method: 'PUT' });
    expect(wrong.headers.get('allow')).toBe('PATCH, DELETE');
    const problem = await problemOf(wrong);
    expect(problem).toMatchObject({ status: 405, code: 'method_not_allowed' });
    expect(problem.body.detail).toContain('PATCH, DELETE');
    expect(calls).toEqual([]);
  });

  it('runs the request guard before routing, for every path', async () => {
    const { url, calls } = await start({
      guard: (req) => {
        if (req.headers['x-refuse'] === 'yes') throw new ProblemError('origin_not_allowed', 'not from here');
      },
    });
    for (const path of ['/v1/health', '/v1/nothing-here', '/index.html']) {
      const res = await fetch(url + path, { headers: { 'x-refuse': 'yes' } });
      expect(await problemOf(res), path).toMatchObject({ status: 403, code: 'origin_not_allowed' });
    }
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);
    expect(calls.map((c) => c.name)).toEqual(['health']);
  });

  it('serves the API documents before routing, and routes what they do not serve', async () => {
    const { url } = await start({
      apiDocs: async (_req, res, path) => {
        if (path !== '/v1/docs') return false;
        res.writeHead(200, { 'content-type': 'text/html' }).end('the docs');
        return true;
      },
    });
    expect(await (await fetch(`${url}/v1/docs`)).text()).toBe('the docs');
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);
  });

  it("asks the authenticator with the operation's requirement and answers its refusal", async () => {
    const { url, asked, calls } = await start({
      authenticate: async (req) => {
        if (!req.headers.authorization) throw new ProblemError('unauthorized', 'log in first');
        return { accountId: 'a', workspaces: ['w'] };
      },
    });
    expect(await problemOf(await fetch(`${url}/v1/auth/sessions`))).toMatchObject({ status: 401 });
    expect((await fetch(`${url}/v1/workspaces`, { headers: { authorization: 'Bearer t' } })).status).toBe(
      200,
    );
    expect(asked).toEqual(['session', 'credential']);
    expect(calls.map((c) => [c.name, c.ctx.principal.accountId])).toEqual([['listWorkspaces', 'a']]);
  });

  it('refuses a query parameter given twice with 400 invalid_query', async () => {
    const { url, calls } = await start();
    const res = await fetch(`${url}/v1/workspaces?limit=1&limit=2`);
    expect(await problemOf(res)).toMatchObject({ status: 400, code: 'invalid_query' });
    expect(calls).toEqual([]);
  });

  it('refuses a stream whose Accept it cannot answer with 406, before the operation runs', async () => {
    const { url, calls } = await start();
    const res = await fetch(url + LOGS, { headers: { accept: 'application/json' } });
    const problem = await problemOf(res);
    expect(problem).toMatchObject({ status: 406, code: 'not_acceptable' });
    expect(problem.body.accepted).toEqual(['text/plain', 'application/x-ndjson']);
    expect(calls).toEqual([]);
  });
});

describe('what an operation is handed', () => {
  it('gives the path parameters, the query, the client and the principal', async () => {
    const { url, calls } = await start({ clientAddress: () => '203.0.113.9' });
    await fetch(`${url}/v1/workspaces/team-a/clusters?limit=5&offset=10`, {
      headers: { 'user-agent': 'skiff-test/1' },
    });
    const [call] = calls;
    expect(call!.name).toBe('listClusters');
    expect(call!.raw).toEqual({ params: { workspaceId: 'team-a' }, query: { limit: '5', offset: '10' } });
    expect(call!.ctx.client).toEqual({ via: 'http', address: '203.0.113.9', userAgent: 'skiff-test/1' });
    expect(call!.ctx.principal.accountId).toBe('acc-admin');
    expect(call!.ctx.upload).toBeUndefined();
    expect(call!.ctx.recheck).toBeUndefined();
    expect(call!.ctx.mediaType).toBeUndefined();
  });

  it("takes the client's address from the connection when no resolver is given", async () => {
    const { url, calls } = await start();
    await fetch(`${url}/v1/health`);
    expect(calls[0]!.ctx.client.address).toMatch(/127\.0\.0\.1$/);
  });

  it('reads Last-Event-ID into the query, over the query parameter, unless it is empty', async () => {
    const { url, calls } = await start({ answer: async () => ({ data: chunks([]) }) });
    const watch = `${url}${EVENTS}?watch=true&lastEventId=5`;
    await (await fetch(watch, { headers: { 'last-event-id': '42' } })).text();
    await (await fetch(watch, { headers: { 'last-event-id': '' } })).text();
    expect(calls.map((c) => [c.name, c.raw.query.lastEventId])).toEqual([
      ['watchEvents', '42'],
      ['watchEvents', '5'],
    ]);
  });

  it('gives a stream its negotiated media type and a recheck of the same credential', async () => {
    const { url, calls, asked } = await start({ answer: async () => ({ data: chunks(['x']) }) });
    await (await fetch(url + LOGS, { headers: { accept: 'text/plain;q=0.2, application/x-ndjson' } })).text();
    const ctx = calls[0]!.ctx;
    expect(ctx.mediaType).toBe('application/x-ndjson');
    expect(await ctx.recheck!()).toMatchObject({ accountId: 'acc-admin' });
    expect(asked).toEqual(['credential', 'credential']);
  });
});

describe('answers', () => {
  const answering = (reply: Partial<Reply<unknown>>) =>
    start({ answer: async () => ({ data: null, ...reply }) });

  it("answers with the reply's status, else the operation's success status, else 200", async () => {
    const { url } = await answering({ data: { ok: 1 } });
    expect((await fetch(`${url}/v1/workspaces`, { method: 'POST' })).status).toBe(201);
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);
    await edge!.close();
    const accepted = await answering({ data: { ok: 1 }, status: 202 });
    expect((await fetch(`${accepted.url}/v1/workspaces`, { method: 'POST' })).status).toBe(202);
  });

  it("adds a page's paging headers, the reply's own headers and x-Stale-Since", async () => {
    const { url } = await answering({
      data: [1, 2],
      page: { total: 7, limit: 2, offset: 2 },
      headers: { Location: '/v1/elsewhere' },
      staleSince: '2026-01-02T03:04:05Z',
    });
    const res = await fetch(`${url}/v1/workspaces?limit=2&offset=2`);
    expect(await res.json()).toEqual([1, 2]);
    expect(res.headers.get('x-total')).toBe('7');
    expect(res.headers.get('x-offset')).toBe('2');
    expect(res.headers.get('link')).toContain('rel="next"');
    expect(res.headers.get('location')).toBe('/v1/elsewhere');
    expect(res.headers.get('x-stale-since')).toBe('2026-01-02T03:04:05Z');
    await edge!.close();
    const plain = await answering({ data: [] });
    const fresh = await fetch(`${plain.url}/v1/health`);
    expect(fresh.headers.get('x-stale-since')).toBeNull();
    expect(fresh.headers.get('x-total')).toBeNull();
  });

  it('makes GETs conditional: an ETag, and 304 for a client that holds it; other methods neither', async () => {
    const { url } = await answering({ data: { same: true } });
    const first = await fetch(`${url}/v1/health`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"/);
    expect((await fetch(`${url}/v1/health`, { headers: { 'if-none-match': etag! } })).status).toBe(304);
    const patch = await fetch(`${url}/v1/workspaces/w`, {
      method: 'PATCH',
      headers: { 'if-none-match': '*' },
    });
    expect(patch.status).toBe(200);
    expect(patch.headers.get('etag')).toBeNull();
  });

  it('sends a reply given as JSON text as that text', async () => {
    const { url } = await answering({
      data: undefined,
      json: ['{"a":1}', '{"b":2}'],
      jsonWrap: { prefix: '', suffix: '' },
    });
    expect(await (await fetch(`${url}/v1/workspaces`)).text()).toBe('[{"a":1},{"b":2}]');
  });

  it('streams a streaming reply with the common headers and its own', async () => {
    const { url } = await answering({
      data: chunks(['one ', 'two'], { length: 7 }),
      headers: { 'X-Tail': 'yes' },
    });
    const res = await fetch(url + LOGS);
    expect(await res.text()).toBe('one two');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-tail')).toBe('yes');
    expect(res.headers.get('content-length')).toBe('7');
  });

  it('answers HEAD of a stream with its headers, pulling nothing from the producer', async () => {
    let pulled = 0;
    const { url } = await start({
      answer: async () => ({
        data: {
          contentType: 'text/plain',
          length: 3,
          chunks: (async function* () {
            pulled++;
            yield 'abc';
          })(),
        },
      }),
    });
    const head = await rawRequest(url, `HEAD ${LOGS} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect([head.status, head.headers['content-length']]).toEqual([200, '3']);
    await head.closed;
    expect(head.after()).toBe('');
    expect(pulled).toBe(0);
    expect(await (await fetch(url + LOGS)).text()).toBe('abc');
    expect(pulled).toBe(1);
  });

  it('answers an unexpected failure with 500 internal_error and logs it; a refusal is not logged as an error', async () => {
    const { url, entries } = await start({
      answer: async ({ name }) => {
        if (name === 'health') throw new TypeError('a bug');
        throw new ProblemError('conflict', 'taken');
      },
    });
    const failed = await problemOf(await fetch(`${url}/v1/health`));
    expect(failed).toMatchObject({ status: 500, code: 'internal_error' });
    expect(JSON.stringify(failed.body)).not.toContain('a bug');
    expect(entries.filter((e) => e.level >= LEVEL.error)).toMatchObject([
      { msg: 'unhandled error', method: 'GET', url: '/v1/health', err: { message: 'a bug' } },
    ]);
    expect(await problemOf(await fetch(`${url}/v1/workspaces`))).toMatchObject({ status: 409 });
    expect(entries.filter((e) => e.level >= LEVEL.error)).toHaveLength(1);
  });

  it('logs each request at debug with its method, path, status and time, without the query', async () => {
    const { url, entries } = await start();
    await fetch(`${url}/v1/workspaces?limit=3`);
    const line = entries.find((e) => e.msg === 'request');
    expect(line).toMatchObject({ level: LEVEL.debug, method: 'GET', path: '/v1/workspaces', status: 200 });
    expect(typeof line!.ms).toBe('number');
    expect(line).not.toHaveProperty('clientGone');
  });
});
