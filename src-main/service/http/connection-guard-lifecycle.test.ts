/**
 * The connection guard (connection-guard.ts) around its edges: a guard nobody listens to, a
 * server it was attached to late, its sweep timer, and closes it must not report.
 */
import { createServer, type Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../test-support/eventually.test-support';
import { ConnectionGuard, type ConnectionGuardOptions } from './connection-guard';
import { serverPerTest } from './raw-clients.test-support';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const servers = serverPerTest();
/** Errors thrown out of event listeners while a test ran. */
let uncaught: unknown[] = [];
const record = (err: unknown) => uncaught.push(err);
afterEach(async () => {
  process.off('uncaughtException', record);
});

const listen = (s: Server) => servers.listen(s, 10);

/** A server answering every request with "ok" once its body is in. */
function okServer(options: Parameters<typeof createServer>[0] = {}): Server {
  return servers.track(
    createServer({ keepAliveTimeout: 60_000, ...options }, (req, res) => {
      req.resume();
      req.once('end', () => res.end('ok'));
    }),
  );
}

describe('the connection guard', () => {
  it('works without anyone told of its closes: past the bound, timed out, and closed by Node', async () => {
    uncaught = [];
    process.on('uncaughtException', record);
    const clock = { now: 0 };
    const s = okServer({ headersTimeout: 300, connectionsCheckingInterval: 20 });
    const opts: ConnectionGuardOptions = {
      maxWaiting: 2,
      firstRequestTimeoutMs: 60_000,
      checkIntervalMs: 10,
    };
    new ConnectionGuard(s, opts, () => clock.now);
    const clients = await listen(s);
    // Past the bound: the first of three goes.
    const first = await clients.open();
    await clients.open();
    await clients.open();
    await first.closed;
    // Timed out by the guard's sweep.
    clock.now = 60_000;
    await eventually(async () => expect(clients.openCount).toBe(0));
    // Timed out by Node's own headers timeout, the guard's clock standing still.
    clock.now = 0;
    const late = await clients.open();
    await late.closed;
    await sleep(50);
    expect(late.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(uncaught).toEqual([]);
  });

  it('leaves alone connections that were open before it was attached', async () => {
    uncaught = [];
    process.on('uncaughtException', record);
    const s = okServer();
    const clients = await listen(s);
    const before = await clients.open();
    await sleep(20);
    const closes: string[] = [];
    new ConnectionGuard(s, {
      maxWaiting: 1,
      firstRequestTimeoutMs: 60_000,
      checkIntervalMs: 10,
      onClose: (r) => closes.push(r),
    });
    before.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await eventually(async () => expect(before.received).toMatch(/^HTTP\/1\.1 200 /));
    await sleep(20);
    expect(uncaught).toEqual([]);
    expect(closes).toEqual([]);
    expect(before.closedAt).toBeNull();
  });

  it('does not report a kept-alive connection its client closes', async () => {
    const closes: string[] = [];
    const s = okServer();
    new ConnectionGuard(s, {
      maxWaiting: 10,
      firstRequestTimeoutMs: 60_000,
      checkIntervalMs: 10,
      onClose: (r) => closes.push(r),
    });
    const clients = await listen(s);
    const kept = await clients.open('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await eventually(async () => expect(kept.received).toMatch(/^HTTP\/1\.1 200 /));
    kept.socket.end();
    await kept.closed;
    await sleep(50);
    expect(closes).toEqual([]);
  });

  it('keeps no process alive with its sweep, and stops sweeping once the server closes', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    let reads = 0;
    const s = createServer();
    const before = timers();
    new ConnectionGuard(s, { maxWaiting: 10, firstRequestTimeoutMs: 60_000, checkIntervalMs: 5 }, () => {
      reads++;
      return 0;
    });
    expect(timers()).toBe(before);
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    // The sweep reads the clock each time it runs.
    await eventually(async () => expect(reads).toBeGreaterThan(0));
    await new Promise<void>((resolve) => s.close(() => resolve()));
    const atClose = reads;
    await sleep(100);
    expect(reads).toBe(atClose);
  });

  it('holds on to no connection once it has closed', async () => {
    const s = okServer();
    new ConnectionGuard(s, { maxWaiting: 10, firstRequestTimeoutMs: 60_000, checkIntervalMs: 10 });
    const refs: Array<WeakRef<object>> = [];
    s.on('connection', (socket) => refs.push(new WeakRef(socket)));
    const clients = await listen(s);
    const gone = [await clients.open(), await clients.open('GET / HTTP/1.1\r\nHost: x\r\n\r\n')];
    await eventually(async () => expect(gone[1]!.received).toMatch(/^HTTP\/1\.1 200 /));
    expect(refs).toHaveLength(2);
    for (const c of gone) c.socket.destroy();
    await Promise.all(gone.map((c) => c.closed));
    await eventually(async () => {
      await sleep(20);
      collectGarbage();
      expect(refs.map((r) => r.deref() === undefined)).toEqual([true, true]);
    });
  });
});

/** Runs a full garbage collection, exposing gc for this process if need be. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
