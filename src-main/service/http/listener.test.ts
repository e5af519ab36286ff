/**
 * The service's HTTP listener (listener.ts): the timeouts and bounds it derives from its options,
 * and what it tells the log about clients it closes.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { eventually } from '../test-support/eventually.test-support';
import { createHttpServer, defaultMaxConnections, HTTP_DEFAULTS, type HttpServerOptions } from './listener';
import { serverPerTest } from './raw-clients.test-support';
import { LEVEL, recordingLogger } from './recording-logger.test-support';

const servers = serverPerTest();

function make(options: HttpServerOptions) {
  const { logger, entries } = recordingLogger();
  const server = servers.track(createHttpServer((_req, res) => res.end('ok'), options, logger));
  return { server, entries };
}

const listening = (s: Server) => servers.listen(s);

describe('defaultMaxConnections', () => {
  it('is half the open-file limit, at least 64 and at most 8,192', () => {
    expect(defaultMaxConnections(1_001)).toBe(500);
    expect(defaultMaxConnections(4_096)).toBe(2_048);
    expect(defaultMaxConnections(100)).toBe(64);
    expect(defaultMaxConnections(1_000_000)).toBe(8_192);
  });

  it("reads the process's own open-file limit on Linux", () => {
    const limits = (() => {
      try {
        return readFileSync('/proc/self/limits', 'utf8');
      } catch {
        return undefined;
      }
    })();
    const soft = limits && /^Max open files\s+(\d+)/m.exec(limits)?.[1];
    expect(defaultMaxConnections()).toBe(defaultMaxConnections(soft ? Number(soft) : 4_096));
  });
});

describe('createHttpServer', () => {
  it("sets Node's timeouts and the connection cap from its options", () => {
    const { server: s } = make({
      headersTimeoutMs: 700,
      requestTimeoutMs: 900,
      keepAliveTimeoutMs: 300,
      maxConnections: 50,
    });
    expect([s.headersTimeout, s.requestTimeout, s.keepAliveTimeout, s.maxConnections]).toEqual([
      700, 900, 300, 50,
    ]);
  });

  it('uses its defaults for what the options leave out', () => {
    const { server: s } = make({});
    expect([s.headersTimeout, s.requestTimeout, s.keepAliveTimeout, s.maxConnections]).toEqual([
      HTTP_DEFAULTS.headersTimeoutMs,
      HTTP_DEFAULTS.requestTimeoutMs,
      HTTP_DEFAULTS.keepAliveTimeoutMs,
      defaultMaxConnections(),
    ]);
  });

  it('never lets the headers timeout run past the request timeout', () => {
    expect(make({ headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 }).server.headersTimeout).toBe(1_000);
  });

  it('lets at most half the connection cap wait on their clients, and warns once about closing more', async () => {
    const { server: s, entries } = make({ maxConnections: 6, maxWaitingConnections: 100 });
    const clients = await listening(s);
    for (let i = 0; i < 6; i++) await clients.open();
    await eventually(async () => expect(clients.openCount).toBe(3));
    for (const c of clients.all.slice(0, 3)) {
      expect(c.received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(c.received).toContain('"code":"request_timeout"');
    }
    const warnings = entries.filter((e) => e.level >= LEVEL.warn);
    expect(warnings).toMatchObject([{ level: LEVEL.warn, maxWaiting: 3, count: 1 }]);
    expect(warnings[0]!.msg).toMatch(/longest waiting/);
  });

  it('takes the waiting bound from its option when that is lower', async () => {
    const { server: s } = make({ maxConnections: 100, maxWaitingConnections: 2 });
    const clients = await listening(s);
    for (let i = 0; i < 4; i++) await clients.open();
    await eventually(async () => expect(clients.openCount).toBe(2));
  });

  it('closes a connection that sends nothing within the headers timeout, and logs it at debug only', async () => {
    const { server: s, entries } = make({ headersTimeoutMs: 300, checkIntervalMs: 50 });
    const clients = await listening(s);
    const silent = await clients.open();
    await silent.closed;
    expect(silent.received).toMatch(/^HTTP\/1\.1 408 /);
    await eventually(async () =>
      expect(entries.filter((e) => /sent no request/.test(e.msg ?? ''))).toMatchObject([
        { level: LEVEL.debug, headersTimeoutMs: 300 },
      ]),
    );
    expect(entries.filter((e) => e.level >= LEVEL.warn)).toEqual([]);
  });
});
