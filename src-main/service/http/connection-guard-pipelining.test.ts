/**
 * The connection guard (connection-guard.ts) with requests pipelined on one connection, and with
 * bodies that start on a fresh connection: where in the line of waiting connections each leaves
 * its connection, with a clock the test moves.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { eventually } from '../test-support/eventually.test-support';
import { ConnectionGuard } from './connection-guard';
import { type RawClient, serverPerTest } from './raw-clients.test-support';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const servers = serverPerTest();

interface Guarded {
  closes: string[];
  /** Answers held back by a request with `X-Hold`, released by calling them. */
  held: Array<() => void>;
  /** Requests with `X-Defer` whose body the server has not begun to read; calling one reads it. */
  deferred: Array<() => void>;
  /** Bodies read to their end so far. */
  ended: () => number;
  seen(requests: number): Promise<void>;
  open(initial?: string): Promise<RawClient>;
}

async function guarded(maxWaiting: number): Promise<Guarded> {
  const closes: string[] = [];
  const held: Array<() => void> = [];
  const deferred: Array<() => void> = [];
  let accepted = 0;
  let requests = 0;
  let ended = 0;
  const server = servers.track(createServer({ keepAliveTimeout: 60_000 }));
  new ConnectionGuard(
    server,
    { maxWaiting, firstRequestTimeoutMs: 60_000, checkIntervalMs: 10, onClose: (r) => closes.push(r) },
    () => 0,
  );
  server.on('connection', () => accepted++);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    const read = () => {
      req.once('end', () => {
        ended++;
        const answer = () => res.end('ok');
        if (req.headers['x-hold']) held.push(answer);
        else answer();
      });
      req.resume();
    };
    if (req.headers['x-defer']) deferred.push(read);
    else read();
  });
  const clients = await servers.listen(server, 10);
  return {
    closes,
    held,
    deferred,
    ended: () => ended,
    seen: (n) => eventually(async () => expect(requests).toBe(n)),
    async open(initial = '') {
      const before = accepted;
      const client = await clients.open(initial);
      await eventually(async () => expect(accepted).toBe(before + 1));
      return client;
    },
  };
}

const isOpen = (c: RawClient) => c.closedAt === null;
/** Waits until one of two connections is closed: the one the guard chose. */
const firstClosed = (a: RawClient, b: RawClient) => Promise.race([a.closed, b.closed]);
const get = (extra = '') => `GET / HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;
/** A POST declaring 4 bytes of body, of which `sent` follow. */
const post = (sent: string, extra = '') =>
  `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n${extra}\r\n${sent}`;

describe('the connection guard with pipelined requests', () => {
  it('counts a connection as waiting again when a request pipelined behind one being answered is still sending its body', async () => {
    const g = await guarded(2);
    // The GET is being answered (held); the POST behind it has half its body.
    const piped = await g.open(get('X-Hold: 1\r\n') + post('ab'));
    await g.seen(2);
    await eventually(async () => expect(g.held).toHaveLength(1));
    const other = await g.open();
    await g.open();
    await firstClosed(piped, other);
    expect([isOpen(piped), isOpen(other)]).toEqual([false, true]);
    expect(g.closes).toEqual(['evicted']);
  });

  it('sends a connection to the back of the line when it sends its next request, body still to come', async () => {
    const g = await guarded(2);
    const piped = await g.open();
    const other = await g.open();
    // A whole POST the server has not read yet, then another whose body is half sent.
    piped.socket.write(post('abcd', 'X-Defer: 1\r\n') + post('ab'));
    await g.seen(2);
    await g.open();
    await firstClosed(piped, other);
    expect([isOpen(piped), isOpen(other)]).toEqual([true, false]);
  });

  it('leaves a connection waiting when an earlier request on it ends while the next still sends its body', async () => {
    const g = await guarded(2);
    const piped = await g.open(post('abcd', 'X-Defer: 1\r\nX-Hold: 1\r\n') + post('ab'));
    await g.seen(2);
    // The first body is read to its end only now, after the second request came.
    g.deferred[0]!();
    await eventually(async () => expect(g.ended()).toBe(1));
    const other = await g.open();
    await g.open();
    await firstClosed(piped, other);
    expect([isOpen(piped), isOpen(other)]).toEqual([false, true]);
  });

  it('does not put a connection back in line when an earlier answer on it finishes while the next request is answered', async () => {
    const g = await guarded(2);
    const piped = await g.open(get('X-Hold: 1\r\n') + post('abcd', 'X-Hold: 1\r\n'));
    await eventually(async () => expect(g.held).toHaveLength(2));
    // The first answer goes out; the second request is still being answered.
    g.held[0]!();
    await eventually(async () => expect(piped.received).toMatch(/^HTTP\/1\.1 200 /));
    await sleep(20);
    const others = [await g.open(), await g.open(), await g.open()];
    await firstClosed(piped, others[0]!);
    expect([isOpen(piped), isOpen(others[0]!)]).toEqual([true, false]);
    g.held[1]!();
    await eventually(async () => expect(piped.received.split('HTTP/1.1 200').length).toBe(3));
  });
});

describe('the connection guard with a body on a fresh connection', () => {
  it('keeps the place a connection had from connecting when its first request starts sending a body', async () => {
    const g = await guarded(2);
    const slow = await g.open();
    const other = await g.open();
    slow.socket.write(post('ab'));
    await g.seen(1);
    await g.open();
    await firstClosed(slow, other);
    expect([isOpen(slow), isOpen(other)]).toEqual([false, true]);
  });
});
