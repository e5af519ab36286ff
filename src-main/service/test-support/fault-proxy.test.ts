import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.test-support';
import { type FaultProxy, startFaultProxy } from './fault-proxy.test-support';

/** A loopback HTTP server that names itself in every answer; `/stream` sends one line and stays open. */
async function namedServer(name: string): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(`${name}\n`);
      return;
    }
    res.end(name);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

/** One request on its own connection (no keep-alive), so each call is one connection at the proxy. */
function fetchText(port: number, path = '/'): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve(text));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** Opens /stream and resolves once the first line arrived; `closed` settles when the stream ends. */
function openStream(port: number): Promise<{ closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/stream', agent: false }, (res) => {
      const closed = new Promise<string>((done) => {
        res.on('error', (err) => done(`error ${(err as NodeJS.ErrnoException).code ?? err.message}`));
        res.on('close', () => done('closed'));
      });
      res.once('data', () => resolve({ closed }));
    }).on('error', reject);
  });
}

const errorCode = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (err: NodeJS.ErrnoException) => err.code ?? err.message,
  );

let a: { server: Server; port: number };
let b: { server: Server; port: number };
let proxy: FaultProxy;

beforeAll(async () => {
  a = await namedServer('a');
  b = await namedServer('b');
  proxy = await startFaultProxy(a.port);
});
afterAll(async () => {
  await proxy.close();
  for (const s of [a.server, b.server]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe('fault proxy', () => {
  it('forwards both ways and counts each connection it accepts', async () => {
    const before = proxy.accepted;
    expect(await fetchText(proxy.port)).toBe('a');
    expect(await fetchText(proxy.port)).toBe('a');
    expect(proxy.accepted - before).toBe(2);
    expect(proxy.acceptedAt.length).toBe(proxy.accepted);
  });

  it('tracks open connections and the most ever open at once', async () => {
    const streams = await Promise.all([openStream(proxy.port), openStream(proxy.port)]);
    expect(proxy.open).toBe(2);
    expect(proxy.maxOpen).toBeGreaterThanOrEqual(2);
    await proxy.down();
    await Promise.all(streams.map((s) => s.closed));
    expect(proxy.open).toBe(0);
    await proxy.up();
  });

  it('down() cuts open streams and refuses new connections; up() serves again on the same port', async () => {
    const stream = await openStream(proxy.port);
    const port = proxy.port;
    await proxy.down();
    expect(proxy.state).toBe('refusing');
    expect(await stream.closed).not.toBe('still open');
    expect(await errorCode(fetchText(port))).toBe('ECONNREFUSED');
    await proxy.up();
    expect(proxy.port).toBe(port);
    expect(await fetchText(port)).toBe('a');
  });

  it("down('reset') accepts and counts every attempt but resets it", async () => {
    await proxy.down('reset');
    try {
      const before = proxy.accepted;
      const outcomes = [await errorCode(fetchText(proxy.port)), await errorCode(fetchText(proxy.port))];
      for (const o of outcomes) expect(['ECONNRESET', 'socket hang up']).toContain(o);
      expect(proxy.accepted - before).toBe(2);
    } finally {
      await proxy.up();
    }
    expect(await fetchText(proxy.port)).toBe('a');
  });

  it('slow(ms) holds what the target sends for at least that long', async () => {
    proxy.slow(300);
    try {
      const started = performance.now();
      expect(await fetchText(proxy.port)).toBe('a');
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      proxy.slow(0);
    }
  });

  it('hold() keeps what the target sends from the client until release(), which sends it', async () => {
    let served = 0;
    const count = () => served++;
    a.server.on('request', count);
    proxy.hold();
    try {
      let answer: string | undefined;
      const asked = Promise.all([fetchText(proxy.port), fetchText(proxy.port)]);
      void asked.then(([text, line]) => {
        answer = `${text} ${line}`;
      });
      // The target has answered both, and neither answer has reached its client.
      await eventually(async () => expect(served).toBe(2));
      await eventually(async () => expect(proxy.open).toBe(2));
      expect(answer).toBeUndefined();
      proxy.release();
      await eventually(async () => expect(answer).toBe('a a'));
    } finally {
      proxy.release();
      a.server.off('request', count);
    }
  });

  it('retarget(port) sends new connections to another server while open ones stay', async () => {
    const stream = await openStream(proxy.port);
    proxy.retarget(b.port);
    try {
      expect(await fetchText(proxy.port)).toBe('b');
      // The finished request's connection closes a moment after its answer ended.
      await eventually(async () => expect(proxy.open).toBe(1));
    } finally {
      proxy.retarget(a.port);
    }
    expect(await fetchText(proxy.port)).toBe('a');
    await proxy.down();
    await stream.closed;
    await proxy.up();
  });

  it('a target that is gone is a reset connection, not a hang', async () => {
    const gone = await namedServer('gone');
    await new Promise((r) => gone.server.close(r));
    proxy.retarget(gone.port);
    try {
      expect(['ECONNRESET', 'socket hang up']).toContain(await errorCode(fetchText(proxy.port)));
    } finally {
      proxy.retarget(a.port);
    }
  });
});
