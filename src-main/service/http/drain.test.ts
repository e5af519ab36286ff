/**
 * The drain on shutdown (drain.ts), over a real HTTP server on loopback: requests in flight are
 * counted and waited for, answers ending during the drain close their connection, new connections
 * are refused, event streams are closed at once, and what outlives the grace period is cut.
 */
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Drain } from './drain';

interface Held {
  res: ServerResponse;
  path: string;
}

let servers: Server[] = [];
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(() => r(undefined)));
  }
  servers = [];
});

/** A server whose requests wait in `held` until the test answers them. */
async function start(
  drain: Drain,
): Promise<{ server: Server; port: number; held: Held[]; arrived: () => Promise<void> }> {
  const held: Held[] = [];
  let wake: () => void = () => {};
  const server = createServer(
    drain.wrap((req, res) => {
      if (req.url === '/events') res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
      if (req.url === '/plain-started') res.writeHead(200, { 'content-type': 'text/plain' }).flushHeaders();
      held.push({ res, path: req.url ?? '' });
      wake();
    }),
  );
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const arrived = async () => {
    const before = held.length;
    while (held.length === before) await new Promise<void>((r) => (wake = r));
  };
  return { server, port: (server.address() as AddressInfo).port, held, arrived };
}

interface Outcome {
  status?: number;
  connection?: string;
  body?: string;
  error?: string;
}

function get(port: number, path: string, accept = '*/*'): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { accept } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection, body }));
      res.on('error', (err) => resolve({ error: err.message }));
      res.on('aborted', () => resolve({ error: 'aborted' }));
    });
    req.on('error', (err) => resolve({ error: err.message }));
    req.end();
  });
}

describe('Drain', () => {
  it('with nothing in flight finishes at once and refuses new connections', async () => {
    const drain = new Drain();
    const { server, port } = await start(drain);
    expect(drain.pending).toBe(0);
    expect(await drain.drain([server], 60_000)).toBe('finished');
    expect((await get(port, '/')).error).toMatch(/ECONNREFUSED/);
  });

  it('waits for a request in flight, whose answer closes its connection, then finishes', async () => {
    const drain = new Drain();
    const { server, port, held, arrived } = await start(drain);
    const answer = get(port, '/slow');
    await arrived();
    expect(drain.pending).toBe(1);
    let settled = false;
    const drained = drain.drain([server], 60_000).then((o) => {
      settled = true;
      return o;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    held[0]!.res.end('done');
    expect(await answer).toEqual({ status: 200, connection: 'close', body: 'done' });
    expect(await drained).toBe('finished');
    expect(drain.pending).toBe(0);
  });

  it('closes an event stream at once and gives other answers in flight the grace period', async () => {
    const drain = new Drain();
    const { server, port, held, arrived } = await start(drain);
    const events = get(port, '/events', 'text/event-stream');
    await arrived();
    // A streamed answer to another Accept (a log follow) gets the grace period.
    const plain = get(port, '/plain-started');
    await arrived();
    const drained = drain.drain([server], 60_000);
    expect(await events).toMatchObject({ error: expect.any(String) });
    expect(drain.pending).toBe(1);
    held[1]!.res.end('rest');
    expect(await plain).toMatchObject({ status: 200, body: 'rest' });
    expect(await drained).toBe('finished');
  });

  it('cuts what is still in flight at the end of the grace period', async () => {
    const drain = new Drain();
    const { server, port, arrived } = await start(drain);
    const stuck = get(port, '/never');
    await arrived();
    expect(await drain.drain([server], 100)).toBe('cut');
    expect((await stuck).error).toBeDefined();
  });

  it('a request arriving while draining on a connection already open is told to close it', async () => {
    const drain = new Drain();
    const { server, port, held, arrived } = await start(drain);
    const first = get(port, '/first');
    await arrived();
    const drained = drain.drain([server], 60_000);
    // The server no longer accepts; the one in flight is answered with Connection: close.
    held[0]!.res.end('x');
    expect((await first).connection).toBe('close');
    expect(await drained).toBe('finished');
  });

  it('keeps connections alive until draining; then closes each as its answer ends, idle ones at once', async () => {
    const drain = new Drain();
    const { server, port, held, arrived } = await start(drain);
    const idle = await raw(port);
    idle.send('/idle');
    await arrived();
    held[0]!.res.end('i');
    expect(await idle.response(1)).toMatch(/\r\nConnection: keep-alive\r\n/i);
    const started = await raw(port);
    started.send('/plain-started');
    await arrived();
    const waiting = await raw(port);
    waiting.send('/waiting');
    await arrived();
    const drained = drain.drain([server], 60_000);
    await idle.closed;
    // Headers went out before the drain with keep-alive; the connection closes once it ends.
    held[1]!.res.end('s');
    await started.closed;
    expect(waiting.isClosed()).toBe(false);
    held[2]!.res.end('w');
    expect(await waiting.response(1)).toMatch(/\r\nConnection: close\r\n/i);
    expect(await drained).toBe('finished');
  });

  it('drains an answer already streaming to a request that sent no Accept', async () => {
    const drain = new Drain();
    const { server, port, held, arrived } = await start(drain);
    const client = await raw(port, false);
    client.send('/plain-started');
    await arrived();
    const drained = drain.drain([server], 60_000);
    held[0]!.res.end('x');
    expect(await drained).toBe('finished');
  });
});

interface Raw {
  send(...paths: string[]): void;
  /** The bytes received once `count` answers have ended (chunked, each ending with 0\r\n\r\n or a body). */
  response(count: number): Promise<string>;
  closed: Promise<void>;
  isClosed(): boolean;
}

/** A keep-alive HTTP/1.1 connection written by hand, so requests can be pipelined and Accept left out. */
async function raw(port: number, accept = true): Promise<Raw> {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((r) => socket.once('connect', () => r()));
  let text = '';
  let wake: () => void = () => {};
  let closed = false;
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    text += d;
    wake();
  });
  const closedPromise = new Promise<void>((r) =>
    socket.once('close', () => {
      closed = true;
      wake();
      r();
    }),
  );
  socket.on('error', () => {});
  const ends = () => (text.match(/\r\n0\r\n\r\n|Content-Length: 1\r\n(?:[^\r]*\r\n)*\r\n./gi) ?? []).length;
  return {
    send: (...paths) =>
      socket.write(
        paths
          .map((p) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\n${accept ? 'Accept: */*\r\n' : ''}\r\n`)
          .join(''),
      ),
    async response(count) {
      while (ends() < count && !closed) await new Promise<void>((r) => (wake = r));
      return text;
    },
    closed: closedPromise,
    isClosed: () => closed,
  };
}
