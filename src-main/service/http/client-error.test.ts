/**
 * What the service's HTTP server tells a request it cannot take whole (client-error.ts), on a
 * real server and raw sockets: problem+json for a URL or head too large, a malformed request and
 * a timeout, each closed without a reset; and nothing written into an answer already under way.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { eventually } from '../test-support/eventually.test-support';
import { LINGER_MS, MAX_HEAD_BYTES, MAX_URL_BYTES, problemFor, rawProblemResponse } from './client-error';
import { createHttpServer, type HttpServerOptions } from './listener';
import { serverPerTest } from './raw-clients.test-support';
import { recordingLogger } from './recording-logger.test-support';

const servers = serverPerTest();

interface Exchange {
  /** Everything the server sent. */
  received: () => string;
  /** The socket error the client saw (ECONNRESET when the server reset it), if any. */
  error: () => string | undefined;
  closed: Promise<void>;
  write(text: string): void;
  end(): void;
}

/** Starts the service's HTTP server with a listener that records what reached it. */
async function serve(
  options: HttpServerOptions = {},
  handler?: (req: IncomingMessage, res: ServerResponse) => void,
) {
  const seen: string[] = [];
  const server = createHttpServer(
    (req, res) => {
      seen.push(`${req.method} ${req.url!.slice(0, 40)}`);
      if (handler) handler(req, res);
      else req.resume().once('end', () => res.end('ok'));
    },
    options,
    recordingLogger().logger,
  );
  await servers.listen(server);
  const port = (server.address() as AddressInfo).port;
  /** Connections the server holds right now, as it counts them. */
  const connections = () =>
    new Promise<number>((resolve, reject) =>
      server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
    );
  /** A raw connection that sends `text` at once (in as many writes as the kernel takes). */
  const open = async (text = '', { halfOpen = false } = {}): Promise<Exchange> => {
    // halfOpen: the client's side stays open after the server's FIN, so it can still send.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: halfOpen });
    let received = '';
    let error: string | undefined;
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      received += d;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code;
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    if (text) socket.write(text);
    return {
      received: () => received,
      error: () => error,
      closed,
      write: (t) => socket.write(t),
      end: () => socket.end(),
    };
  };
  return { seen, open, connections };
}

/** The status and problem body of a raw answer (the last one, when a connection had several). */
function answerOf(raw: string): { status: number; headers: string; problem: Record<string, unknown> } {
  const last = raw.slice(raw.lastIndexOf('HTTP/1.1 '));
  const [head, body] = last.split('\r\n\r\n') as [string, string];
  return {
    status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]),
    headers: head.toLowerCase(),
    problem: JSON.parse(body) as Record<string, unknown>,
  };
}

const get = (target: string, headers = '') => `GET ${target} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;

describe('a URL too long', () => {
  it(`past ${MAX_URL_BYTES} bytes is 414 in problem+json, and never reaches the listener`, async () => {
    const { seen, open } = await serve();
    const c = await open(get(`/${'a'.repeat(MAX_URL_BYTES)}`));
    await c.closed;
    const answer = answerOf(c.received());
    expect(answer.status).toBe(414);
    expect(answer.headers).toContain('content-type: application/problem+json');
    expect(answer.headers).toContain('connection: close');
    expect(answer.problem).toMatchObject({
      code: 'uri_too_long',
      status: 414,
      title: 'URI Too Long',
      maxBytes: MAX_URL_BYTES,
      detail: `the URL must be at most ${MAX_URL_BYTES} bytes`,
    });
    expect(seen).toEqual([]);
  });

  it(`of exactly ${MAX_URL_BYTES} bytes is served`, async () => {
    const { seen, open } = await serve();
    const c = await open(get(`/${'a'.repeat(MAX_URL_BYTES - 1)}`, 'Connection: close\r\n'));
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(seen).toHaveLength(1);
  });

  it('past the head bound is 414 too, with no reset however much more is sent', async () => {
    const { open } = await serve();
    for (const length of [MAX_HEAD_BYTES + 10, 200_000]) {
      const c = await open(get(`/${'a'.repeat(length)}`));
      await c.closed;
      expect(answerOf(c.received()).problem, `${length}`).toMatchObject({
        code: 'uri_too_long',
        status: 414,
      });
      expect(c.error()).toBeUndefined();
    }
  });
});

describe('headers too large', () => {
  it(`past ${MAX_HEAD_BYTES} bytes with the URL are 431 in problem+json, with no reset`, async () => {
    const { seen, open } = await serve();
    for (const length of [MAX_HEAD_BYTES, 300_000]) {
      const c = await open(get('/', `X-Big: ${'b'.repeat(length)}\r\n`));
      await c.closed;
      const answer = answerOf(c.received());
      expect(answer.status, `${length}`).toBe(431);
      expect(answer.problem).toMatchObject({
        code: 'headers_too_large',
        title: 'Request Header Fields Too Large',
        maxBytes: MAX_HEAD_BYTES,
        detail: `the request line and headers must be at most ${MAX_HEAD_BYTES} bytes together`,
      });
      expect(c.error()).toBeUndefined();
    }
    expect(seen).toEqual([]);
  });

  it('a URL within its bound whose headers overflow is 431, and so is a head sent a little at a time', async () => {
    const { open } = await serve();
    const whole = await open(
      get(`/${'a'.repeat(MAX_URL_BYTES - 100)}`, `X-Big: ${'b'.repeat(MAX_HEAD_BYTES)}\r\n`),
    );
    await whole.closed;
    expect(answerOf(whole.received()).status).toBe(431);
    const dribbled = await open('GET / HTTP/1.1\r\nHost: x\r\nX-Big: ');
    const chunk = 'b'.repeat(4_096);
    for (let i = 0; i < 5 && dribbled.error() === undefined; i++) {
      dribbled.write(chunk);
      await new Promise((r) => setTimeout(r, 20));
    }
    await dribbled.closed;
    expect(answerOf(dribbled.received()).status).toBe(431);
  });
});

describe('a malformed request', () => {
  it('is 400 malformed_request in problem+json, naming what the parser found', async () => {
    const { seen, open } = await serve();
    const c = await open('GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n');
    await c.closed;
    const answer = answerOf(c.received());
    expect(answer.status).toBe(400);
    expect(answer.problem).toMatchObject({ code: 'malformed_request', title: 'Bad Request' });
    expect(answer.problem.detail).toMatch(/^the request is not valid HTTP\/1\.1: \S/);
    expect(seen).toEqual([]);
  });
});

describe('a refused connection is closed gracefully', () => {
  it('what the client still sends is read and dropped, and its close ends the connection', async () => {
    const { open } = await serve();
    const c = await open(get(`/${'a'.repeat(MAX_HEAD_BYTES + 10)}`));
    await eventually(async () => expect(c.received()).toMatch(/^HTTP\/1\.1 414 /));
    // Still sending after the answer: no reset, the bytes are read.
    for (let i = 0; i < 20; i++) c.write('a'.repeat(10_000));
    c.end();
    await c.closed;
    expect(c.error()).toBeUndefined();
  });

  it(`a client that keeps its side open is let go ${LINGER_MS} ms after the answer`, async () => {
    // Timeouts far longer than the wait below: only the linger can close this connection.
    const { open, connections } = await serve({ headersTimeoutMs: 120_000, requestTimeoutMs: 120_000 });
    // The client never ends its side: only the server's own timer can close the connection.
    const c = await open('GET /x HTTP/1.1\r\nBad Header: y\r\n\r\n', { halfOpen: true });
    await eventually(async () => expect(c.received()).toMatch(/^HTTP\/1\.1 400 /));
    expect(await connections()).toBe(1);
    await eventually(async () => expect(await connections()).toBe(0), LINGER_MS * 5);
    c.end();
  });

  it('a request that completes after its connection was refused never reaches the listener', async () => {
    const { seen, open } = await serve({ headersTimeoutMs: 300, checkIntervalMs: 50 });
    // A first request answered, so the connection is no longer a fresh one the connection guard closes.
    const c = await open(get('/first'), { halfOpen: true });
    await eventually(async () => expect(c.received()).toMatch(/^HTTP\/1\.1 200 /));
    c.write('GET /late HTTP/1.1\r\nHost: x\r\n');
    await eventually(async () => expect(c.received()).toContain('HTTP/1.1 408 '));
    c.write('\r\n');
    c.end();
    await c.closed;
    expect(seen).toEqual(['GET /first']);
  });
});

describe('a timeout', () => {
  it('of the headers is 408 request_timeout in problem+json', async () => {
    const { open } = await serve({ headersTimeoutMs: 300, checkIntervalMs: 50 });
    const c = await open(get('/first'));
    await eventually(async () => expect(c.received()).toMatch(/^HTTP\/1\.1 200 /));
    c.write('GET / HTTP/1.1\r\nHost: x\r\n');
    await c.closed;
    const answer = answerOf(c.received());
    expect(answer.status).toBe(408);
    expect(answer.problem).toMatchObject({
      code: 'request_timeout',
      title: 'Request Timeout',
      detail: "the request's headers did not arrive within 0.3 s (the headers timeout)",
    });
  });

  it('of a body cuts the request off: the rest of its body, sent after the answer, never reaches it', async () => {
    let ended = false;
    const { open } = await serve(
      { headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 50 },
      (req) => {
        req.on('end', () => {
          ended = true;
        });
        req.resume();
      },
    );
    const c = await open('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 8\r\n\r\nhalf', {
      halfOpen: true,
    });
    await eventually(async () => expect(c.received()).toMatch(/^HTTP\/1\.1 408 /));
    c.write('done');
    c.end();
    await c.closed;
    expect(ended).toBe(false);
  });

  it('of a body is 408 request_timeout in problem+json, and the request is cut off', async () => {
    let aborted = false;
    const { seen, open } = await serve(
      { headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 50 },
      (req) => {
        req.on('aborted', () => {
          aborted = true;
        });
        req.resume();
      },
    );
    const c = await open('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nhalf');
    await c.closed;
    expect(seen).toEqual(['POST /upload']);
    const answer = answerOf(c.received());
    expect(answer.status).toBe(408);
    expect(answer.problem).toMatchObject({
      code: 'request_timeout',
      detail: 'the request did not arrive whole within 0.6 s (the request timeout)',
    });
    await eventually(async () => expect(aborted).toBe(true));
  });
});

describe('an answer under way', () => {
  it('that has begun is cut, never followed by a refusal of a bad request after it', async () => {
    const { open } = await serve({}, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial ');
    });
    const c = await open(get('/stream'));
    await eventually(async () => expect(c.received()).toContain('partial '));
    c.write('BAD REQUEST LINE\r\n\r\n');
    await c.closed;
    expect(c.received()).not.toContain('HTTP/1.1 400');
  });

  it('of a later request is not answered by a refusal once an earlier answer has gone', async () => {
    const { open } = await serve({}, (req, res) => {
      if (req.url === '/first') res.end('first');
    });
    // Two requests at once: the first answered at once, the second held.
    const c = await open(`${get('/first')}${get('/second')}`);
    await eventually(async () => expect(c.received()).toMatch(/first$/));
    const before = c.received();
    c.write('BAD REQUEST LINE\r\n\r\n');
    await c.closed;
    expect(c.received()).toBe(before);
  });

  it('to a request that arrived whole is not answered by the next one’s refusal', async () => {
    const held: ServerResponse[] = [];
    const { open } = await serve({}, (_req, res) => {
      held.push(res);
    });
    const c = await open(`${get('/first')}BAD REQUEST LINE\r\n\r\n`);
    await c.closed;
    expect(held).toHaveLength(1);
    expect(c.received()).toBe('');
  });
});

describe('problemFor and rawProblemResponse', () => {
  const timeouts = { headersMs: 10_000, requestMs: 30_000 };

  it('name each client error', () => {
    expect(problemFor({ code: 'HPE_CHUNK_EXTENSIONS_OVERFLOW' }, true, timeouts)).toMatchObject({
      code: 'payload_too_large',
      message: 'the chunk extensions of the body are too large',
    });
    expect(
      problemFor({ code: 'HPE_INVALID_METHOD', reason: 'Invalid method encountered' }, false, timeouts)
        .message,
    ).toBe('the request is not valid HTTP/1.1: Invalid method encountered');
    expect(problemFor({ code: 'HPE_INVALID_METHOD' }, false, timeouts).message).toBe(
      'the request is not valid HTTP/1.1: HPE_INVALID_METHOD',
    );
    expect(problemFor({}, false, timeouts).message).toBe('the request is not valid HTTP/1.1: unreadable');
    expect(problemFor({ code: 'HPE_HEADER_OVERFLOW' }, false, timeouts).code).toBe('headers_too_large');
    expect(problemFor({ code: 'ERR_HTTP_REQUEST_TIMEOUT' }, true, timeouts).message).toBe(
      'the request did not arrive whole within 30 s (the request timeout)',
    );
  });

  it('tell an overflowing request line from overflowing headers by the bytes the parser choked on', () => {
    const of = (text: string) =>
      problemFor({ code: 'HPE_HEADER_OVERFLOW', rawPacket: Buffer.from(text, 'latin1') }, false, timeouts)
        .code;
    const url = (n: number) => `/${'a'.repeat(n - 1)}`;
    // The request line still arriving, or whole; its target past the URL bound, or just within it.
    expect(of(`GET ${url(MAX_URL_BYTES + 1)}`)).toBe('uri_too_long');
    expect(of(`DELETE ${url(MAX_URL_BYTES + 1)} HTTP/1.1\r\nX: b`)).toBe('uri_too_long');
    expect(of(`GET ${url(MAX_URL_BYTES + 1)} HTTP/1.1\nX: b`)).toBe('uri_too_long');
    expect(of(`GET ${url(MAX_URL_BYTES)}`)).toBe('headers_too_large');
    expect(of(`GET ${url(MAX_URL_BYTES)} HTTP/1.1\r\nX: ${'b'.repeat(MAX_HEAD_BYTES)}`)).toBe(
      'headers_too_large',
    );
    expect(of(`GET /a HTTP/1.1\r\nX: ${'b'.repeat(MAX_HEAD_BYTES)}`)).toBe('headers_too_large');
    // A long header line after a short request line is no URL, even without the line's end in sight.
    expect(of(`GET /a HTTP/1.1\nX-${'b'.repeat(MAX_HEAD_BYTES)}`)).toBe('headers_too_large');
    // A request line without a space after its target ends at its line end, not at a header's space.
    expect(of(`GET /a\r\nX-${'b'.repeat(MAX_URL_BYTES + 10)} c`)).toBe('headers_too_large');
    // Bytes that do not begin with a request line tell nothing.
    expect(of('b'.repeat(MAX_HEAD_BYTES))).toBe('headers_too_large');
    expect(of(`get ${url(MAX_URL_BYTES + 1)}`)).toBe('headers_too_large');
    expect(of(`GET  ${'a'.repeat(MAX_URL_BYTES + 1)}`)).toBe('headers_too_large');
    expect(of(`${'b'.repeat(40)}GET ${url(MAX_URL_BYTES + 1)}`)).toBe('headers_too_large');
    expect(of(`xGET ${url(MAX_URL_BYTES + 1)}`)).toBe('headers_too_large');
  });

  it('write a whole HTTP/1.1 answer with the problem as its body', () => {
    const raw = rawProblemResponse(new ProblemError('request_timeout', 'too slow')).toString('utf8');
    const body = JSON.stringify({
      type: 'https://skiff.dev/problems/request-timeout',
      title: 'Request Timeout',
      status: 408,
      detail: 'too slow',
      code: 'request_timeout',
    });
    expect(raw).toBe(
      'HTTP/1.1 408 Request Timeout\r\n' +
        'Cache-Control: no-store\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        'Content-Type: application/problem+json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n' +
        `\r\n${body}`,
    );
    const accented = rawProblemResponse(new ProblemError('malformed_request', 'café'));
    expect(accented.toString('utf8')).toContain(
      `Content-Length: ${Buffer.byteLength(JSON.stringify(new ProblemError('malformed_request', 'café').toProblem()))}\r\n`,
    );
  });
});
