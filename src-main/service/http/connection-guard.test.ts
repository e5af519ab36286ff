/**
 * The connection guard (connection-guard.ts) on a real server and real sockets, with a clock the
 * test moves: which connection is closed past the bound, with what, and which never is.
 */
import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { eventually } from '../test-support/eventually.test-support';
import { ConnectionGuard } from './connection-guard';
import { type RawClient, serverPerTest } from './raw-clients.test-support';

/** Node's own answer when its headers timeout fires on a bare server (no client-error.ts). */
const NODE_408 = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/** The problem a 408 the guard wrote carries, with its raw answer's status line checked. */
function guard408(received: string): { code: string; detail: string } {
  expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*Connection: close\r\n\r\n/);
  return JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)) as { code: string; detail: string };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const servers = serverPerTest();

interface Guarded {
  closes: string[];
  /** Moves the guard's clock. */
  clock: { now: number };
  /** Answers held back by a request with `X-Hold`, released by calling them. */
  held: Array<() => void>;
  /** Waits until the server has seen this many requests in all. */
  seen(requests: number): Promise<void>;
  /** Opens a connection and waits until the server (and so the guard) has it. */
  open(initial?: string): Promise<RawClient>;
  /** Sends a GET and waits for its whole answer. */
  ask(client: RawClient, headers?: string): Promise<void>;
}

async function guarded(
  maxWaiting: number,
  firstRequestTimeoutMs = 60_000,
  serverOptions: ServerOptions = {},
): Promise<Guarded> {
  const closes: string[] = [];
  const clock = { now: 0 };
  const held: Array<() => void> = [];
  let accepted = 0;
  let requests = 0;
  const server = servers.track(createServer({ keepAliveTimeout: 60_000, ...serverOptions }));
  new ConnectionGuard(
    server,
    { maxWaiting, firstRequestTimeoutMs, checkIntervalMs: 10, onClose: (reason) => closes.push(reason) },
    () => clock.now,
  );
  server.on('connection', () => accepted++);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    req.resume();
    req.once('end', () => {
      const answer = () => res.end('ok');
      if (req.headers['x-hold']) held.push(answer);
      else answer();
    });
  });
  const clients = await servers.listen(server, 10);
  return {
    closes,
    clock,
    held,
    seen: (n) => eventually(async () => expect(requests).toBe(n)),
    async open(initial = '') {
      const before = accepted;
      const client = await clients.open(initial);
      await eventually(async () => expect(accepted).toBe(before + 1));
      return client;
    },
    async ask(client, headers = '') {
      const answers = client.received.split('HTTP/1.1 200').length;
      client.socket.write(`GET / HTTP/1.1\r\nHost: x\r\n${headers}\r\n`);
      await eventually(async () => expect(client.received.split('HTTP/1.1 200').length).toBe(answers + 1));
      await sleep(20);
    },
  };
}

const isOpen = (c: RawClient) => c.closedAt === null;

describe('the connection guard', () => {
  it('closes the longest waiting connection past the bound, telling a silent one 408', async () => {
    const g = await guarded(2);
    const [a, b, c] = [await g.open(), await g.open(), await g.open()];
    await a!.closed;
    expect(guard408(a!.received)).toMatchObject({
      code: 'request_timeout',
      detail:
        'too many connections are waiting on their clients; this one, with no request yet, waited longest',
    });
    expect([isOpen(b!), isOpen(c!)]).toEqual([true, true]);
    expect(g.closes).toEqual(['evicted']);
  });

  it('closes a kept-alive connection past the bound without a word', async () => {
    const g = await guarded(2);
    const a = await g.open();
    await g.ask(a);
    const after = a.received;
    await g.open();
    await g.open();
    await a.closed;
    expect(a.received).toBe(after);
    expect(after).not.toContain('408');
  });

  it('moves a connection to the back of the line each time it is answered', async () => {
    const g = await guarded(2);
    const a = await g.open();
    const b = await g.open();
    await g.ask(a);
    await g.open();
    await b.closed;
    expect(isOpen(a)).toBe(true);
  });

  it('never closes a connection whose request is being answered', async () => {
    const g = await guarded(1);
    const a = await g.open('GET / HTTP/1.1\r\nHost: x\r\nX-Hold: 1\r\n\r\n');
    await eventually(async () => expect(g.held).toHaveLength(1));
    const others = [await g.open(), await g.open(), await g.open()];
    await Promise.all(others.slice(0, 2).map((o) => o.closed));
    expect(isOpen(a)).toBe(true);
    g.held[0]!();
    await eventually(async () => expect(a.received).toMatch(/^HTTP\/1\.1 200 /));
  });

  it('counts a connection sending its body as waiting, in the place it had, until the body is in', async () => {
    const g = await guarded(2);
    const slow = await g.open('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nX-Hold: 1\r\n\r\nab');
    await g.seen(1);
    await g.open();
    // The oldest waiting is the one still sending: it goes, and is not told 408 (it sent a request).
    await g.open();
    await slow.closed;
    expect(slow.received).toBe('');

    // One whose body has arrived is being answered, and stays.
    const whole = await g.open('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nX-Hold: 1\r\n\r\nab');
    whole.socket.write('cd');
    await eventually(async () => expect(g.held).toHaveLength(1));
    for (let i = 0; i < 3; i++) await g.open();
    await sleep(50);
    expect(isOpen(whole)).toBe(true);
  });

  it('keeps the place a kept-alive connection had when it starts sending a body', async () => {
    const g = await guarded(2);
    const a = await g.open();
    await g.ask(a);
    const b = await g.open();
    a.socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab');
    await g.seen(2);
    await g.open();
    await a.closed;
    expect(isOpen(b)).toBe(true);
  });

  it('closes a connection that sends no request within the first-request time, with 408, and only such', async () => {
    const g = await guarded(10, 1_000);
    const silent = await g.open();
    const kept = await g.open();
    await g.ask(kept);
    g.clock.now = 999;
    await sleep(100);
    expect(isOpen(silent)).toBe(true);
    g.clock.now = 1_000;
    await silent.closed;
    expect(guard408(silent.received)).toMatchObject({
      code: 'request_timeout',
      detail: "the request's headers did not arrive within 1 s (the headers timeout)",
    });
    expect(g.closes).toEqual(['no-request']);
    // The kept-alive one waits on its keep-alive timeout, not on this one.
    g.clock.now = 100_000;
    await sleep(100);
    expect(isOpen(kept)).toBe(true);
  });

  it("reports a silent connection that Node's own headers timeout closed first, once", async () => {
    // The guard's clock never moves, so only Node's check can close it.
    const g = await guarded(10, 1_000, { headersTimeout: 200, connectionsCheckingInterval: 20 });
    const silent = await g.open();
    await silent.closed;
    expect(silent.received).toBe(NODE_408);
    await eventually(async () => expect(g.closes).toEqual(['no-request']));
    g.clock.now = 100_000;
    await sleep(100);
    expect(g.closes).toEqual(['no-request']);
  });

  it('does not report a client that hangs up on its own before sending anything', async () => {
    const g = await guarded(10, 1_000);
    const leaving = await g.open();
    leaving.socket.end();
    await leaving.closed;
    g.clock.now = 100_000;
    await sleep(100);
    expect(g.closes).toEqual([]);
  });
});
