import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProblemError } from '../errors';
import { bodyBuffers } from './body-buffers';
import { type SerialisedJson, sendJson, sendProblem } from './respond';

let server: Server | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Starts a server with this handler on a free loopback port; returns its base URL. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}/`;
}

/** Serves one serialised body over real HTTP and reads it back as bytes. */
async function roundTrip(body: SerialisedJson): Promise<{ text: string; length: string | null }> {
  const url = await serve((_req, res) => sendJson(res, 200, undefined, {}, undefined, body));
  const res = await fetch(url);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { text: bytes.toString('utf8'), length: res.headers.get('content-length') };
}

/** What one conditional GET answers: the handler sends whatever `answer` holds at that moment. */
interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  serialised?: SerialisedJson;
}
async function conditionalServer() {
  let answer: Answer = {};
  const url = await serve((req, res) =>
    sendJson(
      res,
      answer.status ?? 200,
      answer.body,
      answer.headers ?? {},
      { ifNoneMatch: req.headers['if-none-match'] },
      answer.serialised,
    ),
  );
  return {
    get: async (next: Answer, ifNoneMatch?: string) => {
      answer = next;
      const res = await fetch(url, {
        headers: ifNoneMatch === undefined ? {} : { 'If-None-Match': ifNoneMatch },
      });
      return { res, text: await res.text() };
    },
  };
}

describe('sendJson', () => {
  it('sends a value as JSON with the common headers and an exact Content-Length', async () => {
    const url = await serve((_req, res) => sendJson(res, 201, { name: 'café €' }, { 'X-Extra': 'yes' }));
    const res = await fetch(url);
    const text = await res.text();
    expect(res.status).toBe(201);
    expect(JSON.parse(text)).toEqual({ name: 'café €' });
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-extra')).toBe('yes');
    expect(res.headers.get('etag')).toBeNull();
  });

  it('gives the buffer of a finished answer back to the pool', async () => {
    const take = vi.spyOn(bodyBuffers, 'take');
    const give = vi.spyOn(bodyBuffers, 'give');
    let finished!: Promise<void>;
    const url = await serve((_req, res) => {
      finished = new Promise((resolve) => res.once('finish', () => resolve()));
      sendJson(res, 200, { items: 'x'.repeat(30_000) });
    });
    await (await fetch(url)).text();
    await finished;
    expect(take).toHaveBeenCalledTimes(1);
    expect(give).toHaveBeenCalledWith(take.mock.results[0]!.value);
  });
});

describe('sendJson with serialised elements', () => {
  it('writes each element between the wrap, as one JSON array, with an exact Content-Length', async () => {
    const { text, length } = await roundTrip({
      json: ['{"a":1}', '{"b":2}'],
      jsonWrap: { prefix: '{"w":', suffix: '}' },
    });
    expect(JSON.parse(text)).toEqual([{ w: { a: 1 } }, { w: { b: 2 } }]);
    expect(Number(length)).toBe(Buffer.byteLength(text));
  });

  it('writes elements as they are when there is no wrap', async () => {
    const { text, length } = await roundTrip({ json: ['1', '{"a":2}', '"x"'] });
    expect(text).toBe('[1,{"a":2},"x"]');
    expect(Number(length)).toBe(text.length);
  });

  it('sends a single serialised text as it is', async () => {
    const { text, length } = await roundTrip({ json: '{"whole":"é"}' });
    expect(text).toBe('{"whole":"é"}');
    expect(Number(length)).toBe(Buffer.byteLength(text));
  });

  it('keeps every byte of texts far from ASCII, however many elements run past the first buffer', async () => {
    // Each element is all two-, three- and four-byte characters: several times its length in bytes.
    const elements = Array.from({ length: 200 }, (_, i) => JSON.stringify(`é€😀${'ü'.repeat(i % 37)}`));
    const { text, length } = await roundTrip({ json: elements, jsonWrap: { prefix: '{"x":', suffix: '}' } });
    expect(JSON.parse(text)).toEqual(elements.map((e) => ({ x: JSON.parse(e) })));
    expect(Number(length)).toBe(Buffer.byteLength(text));
  });

  it('moves a page of three-byte characters to bigger buffers, handing each outgrown one back', async () => {
    const take = vi.spyOn(bodyBuffers, 'take');
    const give = vi.spyOn(bodyBuffers, 'give');
    const elements = Array.from({ length: 100 }, (_, i) => JSON.stringify(`${i}${'€'.repeat(1_000)}`));
    const { text, length } = await roundTrip({ json: elements });
    expect(JSON.parse(text)).toEqual(elements.map((e) => JSON.parse(e)));
    expect(Number(length)).toBe(Buffer.byteLength(text));
    const taken = take.mock.results.map((r) => r.value as Buffer);
    expect(taken.length).toBeGreaterThan(1);
    // Every buffer but the last was outgrown while writing and is back in the pool already.
    for (const outgrown of taken.slice(0, -1)) expect(give).toHaveBeenCalledWith(outgrown);
  });

  // The first buffer is sized from the texts' lengths: commas, brackets and every element's wrap,
  // plus room for the longest text to be all three-byte characters. A page that is ASCII, as
  // nearly all cluster JSON is, therefore never needs a second one.
  it.each([
    {
      page: 'many short wrapped elements',
      json: Array.from({ length: 1_500 }, (_, i) => JSON.stringify(`e-${String(i).padStart(6, '0')}`)),
      jsonWrap: { prefix: '{"object":', suffix: '}' },
    },
    {
      page: 'a long element last',
      json: [...Array.from({ length: 1_000 }, () => '"abcdefgh"'), JSON.stringify('a'.repeat(19_998))],
    },
    {
      page: 'a long element between short ones',
      json: [
        ...Array.from({ length: 1_000 }, () => '"abcdefgh"'),
        JSON.stringify('a'.repeat(19_998)),
        ...Array.from({ length: 1_000 }, () => '"abcdefgh"'),
      ],
    },
  ])('writes an ASCII page ($page) into the first buffer it takes', async ({ json, jsonWrap }) => {
    const take = vi.spyOn(bodyBuffers, 'take');
    const { text, length } = await roundTrip(jsonWrap ? { json, jsonWrap } : { json });
    expect(JSON.parse(text)).toHaveLength(json.length);
    expect(Number(length)).toBe(text.length);
    expect(take).toHaveBeenCalledTimes(1);
  });

  it('answers an empty array for no elements', async () => {
    const { text, length } = await roundTrip({ json: [] });
    expect(text).toBe('[]');
    expect(length).toBe('2');
  });
});

describe('sendJson for a conditional GET', () => {
  it('tags a 200 answer with a strong ETag, and answers 304 with no body to a client that holds it', async () => {
    const s = await conditionalServer();
    const answer = { body: { a: 1 }, headers: { 'X-Total': '1' } };
    const first = await s.get(answer);
    expect(first.res.status).toBe(200);
    const etag = first.res.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const again = await s.get(answer, etag);
    expect(again.res.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.res.headers.get('etag')).toBe(etag);
    expect(again.res.headers.get('cache-control')).toBe('no-store');
    expect(again.res.headers.get('x-total')).toBe('1');
  });

  it('answers 304 to a weak form of the tag, to a list that holds it, and to *', async () => {
    const s = await conditionalServer();
    const answer = { body: { a: 1 } };
    const etag = (await s.get(answer)).res.headers.get('etag')!;
    expect((await s.get(answer, `W/${etag}`)).res.status).toBe(304);
    expect((await s.get(answer, `"other", ${etag}`)).res.status).toBe(304);
    expect((await s.get(answer, '*')).res.status).toBe(304);
    const stale = await s.get(answer, '"other"');
    expect(stale.res.status).toBe(200);
    expect(JSON.parse(stale.text)).toEqual({ a: 1 });
    expect(stale.res.headers.get('etag')).toBe(etag);
  });

  it('gives the buffer of a 304 back to the pool', async () => {
    const s = await conditionalServer();
    const answer = { body: { a: 1 } };
    const etag = (await s.get(answer)).res.headers.get('etag')!;
    const take = vi.spyOn(bodyBuffers, 'take');
    const give = vi.spyOn(bodyBuffers, 'give');
    expect((await s.get(answer, etag)).res.status).toBe(304);
    expect(take).toHaveBeenCalledTimes(1);
    expect(give).toHaveBeenCalledWith(take.mock.results[0]!.value);
  });

  it('changes the ETag with the body and the headers, but not with the snapshot token of a Link', async () => {
    const s = await conditionalServer();
    const etag = async (answer: Answer) => (await s.get(answer)).res.headers.get('etag');
    const link = (query: string) => ({ Link: `</v1/pods?${query}>; rel="next"` });
    const base = await etag({ body: { a: 1 }, headers: link('limit=2&snapshot=s1.a-b') });
    expect(await etag({ body: { a: 2 }, headers: link('limit=2&snapshot=s1.a-b') })).not.toBe(base);
    expect(await etag({ body: { a: 1 }, headers: link('limit=3&snapshot=s1.a-b') })).not.toBe(base);
    // The token last in the query, and in its middle.
    expect(await etag({ body: { a: 1 }, headers: link('limit=2&snapshot=s2.c-d') })).toBe(base);
    const middle = await etag({ body: { a: 1 }, headers: link('snapshot=s1.a-b&limit=2') });
    expect(await etag({ body: { a: 1 }, headers: link('snapshot=t9-x.y&limit=2') })).toBe(middle);
  });

  it('tags a serialised body by its etagSeed when it has one, not by its bytes', async () => {
    const s = await conditionalServer();
    const etag = async (serialised: SerialisedJson) => (await s.get({ serialised })).res.headers.get('etag');
    const seeded = await etag({ json: ['1'], etagSeed: 'v1' });
    expect(await etag({ json: ['2'], etagSeed: 'v1' })).toBe(seeded);
    expect(await etag({ json: ['1'], etagSeed: 'v2' })).not.toBe(seeded);
    expect(await etag({ json: ['1'] })).not.toBe(await etag({ json: ['2'] }));
  });

  it('leaves an answer other than 200 untagged and unconditional', async () => {
    const s = await conditionalServer();
    const created = await s.get({ status: 201, body: { made: true } }, '*');
    expect(created.res.status).toBe(201);
    expect(JSON.parse(created.text)).toEqual({ made: true });
    expect(created.res.headers.get('etag')).toBeNull();
  });
});

describe('sendProblem', () => {
  it('sends the problem as problem+json with its status, its own headers and the extra ones', async () => {
    const error = new ProblemError(
      'rate_limited',
      'Trop de requêtes',
      { retryAfterSeconds: 3 },
      { 'Retry-After': '3' },
    );
    const url = await serve((_req, res) => sendProblem(res, error, { 'X-Request-Id': 'r-1' }));
    const res = await fetch(url);
    const text = await res.text();
    expect(res.status).toBe(429);
    expect(JSON.parse(text)).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 3 });
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('x-request-id')).toBe('r-1');
  });

  it('cuts a stream whose headers already went out, so the client sees it incomplete', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      res.write('{"line":1}\n', () => sendProblem(res, new ProblemError('cluster_unreachable', 'gone')));
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });
});
