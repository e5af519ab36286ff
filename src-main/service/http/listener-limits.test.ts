/**
 * The service's HTTP listener (listener.ts): how often it checks its clients, and what it tells
 * the log about connections refused at the connection cap.
 */
import type { Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '../test-support/eventually.test-support';
import { createHttpServer, HTTP_DEFAULTS, type HttpServerOptions } from './listener';
import { serverPerTest } from './raw-clients.test-support';
import { LEVEL, recordingLogger } from './recording-logger.test-support';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const servers = serverPerTest();
afterEach(() => {
  vi.useRealTimers();
});

function make(options: HttpServerOptions) {
  const { logger, entries } = recordingLogger();
  const server = servers.track(createHttpServer((_req, res) => res.end('ok'), options, logger));
  return { server, entries };
}

const listening = (s: Server) => servers.listen(s);

/** Options under which no timeout closes a connection while a test runs. */
const patient = { headersTimeoutMs: 600_000, requestTimeoutMs: 600_000 } as const;

describe('createHttpServer', () => {
  it("checks Node's timeouts as often as asked, every second by default", () => {
    // Node keeps the option on the server, though its types do not say so.
    const interval = (s: Server) =>
      (s as Server & { connectionsCheckingInterval?: number }).connectionsCheckingInterval;
    expect(interval(make({ checkIntervalMs: 70 }).server)).toBe(70);
    expect(interval(make({}).server)).toBe(HTTP_DEFAULTS.checkIntervalMs);
  });

  it('closes a silent connection at the first check after the headers timeout, checking as often as asked', async () => {
    // Only the guard's clock and timer are the test's; Node's own check runs on real time and
    // never reaches a headers timeout this long.
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { server: s } = make({ headersTimeoutMs: 60_100, requestTimeoutMs: 600_000, checkIntervalMs: 50 });
    const clients = await listening(s);
    const silent = await clients.open();
    await sleep(20);
    vi.advanceTimersByTime(60_150);
    // Nothing else closes it within this test (Node's own check waits a real minute): its close
    // is the guard's, and this test's own timeout guards a guard that never closes it.
    await silent.closed;
    expect(silent.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('warns of refused connections at once, then at most every 10 s with how many were refused since', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const { server: s, entries } = make({ ...patient, maxConnections: 1 });
    let drops = 0;
    s.on('drop', () => drops++);
    const clients = await listening(s);
    await clients.open();
    const refuse = async (at: number) => {
      vi.setSystemTime(start + at);
      const before = drops;
      await clients.open();
      await eventually(async () => expect(drops).toBe(before + 1));
    };
    const warnings = () => entries.filter((e) => e.level >= LEVEL.warn);
    await refuse(0);
    expect(warnings()).toMatchObject([{ level: LEVEL.warn, maxConnections: 1, count: 1 }]);
    expect(warnings()[0]!.msg).toMatch(/connection limit/);
    await refuse(5_000);
    await refuse(9_999);
    expect(warnings()).toHaveLength(1);
    await refuse(10_000);
    expect(warnings()).toMatchObject([{ count: 1 }, { maxConnections: 1, count: 3 }]);
  });
});
