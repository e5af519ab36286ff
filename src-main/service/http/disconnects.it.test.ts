import { request } from 'node:http';
import type { Socket } from 'node:net';
import { DEMO_PODS } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logPath } from '../logs/stream-client.test-support';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { freshRequest, RawClients, slowLogin } from './raw-clients.test-support';
import { LEVEL, type LogEntry, recordingLogger } from './recording-logger.test-support';

const PER_KIND = 40;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Half the clients close politely (FIN), half reset the connection (RST), as a killed tab does. */
const hangUp = (socket: Socket, i: number) => (i % 2 ? socket.destroy() : socket.resetAndDestroy());

/**
 * Sends a GET on its own connection and hangs up once `when` says so: after the first bytes of
 * the answer arrive, or after `afterMs` whether or not anything arrived.
 */
function getAndHangUp(
  stack: Stack,
  path: string,
  i: number,
  when: { firstBytes: true } | { afterMs: number },
  headers: Record<string, string> = {},
): Promise<void> {
  return new Promise((resolve) => {
    const req = request(stack.url + path, {
      headers: { ...stack.session.headers, ...headers },
      agent: false,
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    if ('afterMs' in when) {
      req.on('socket', (s) => setTimeout(() => hangUp(s, i), when.afterMs));
    } else {
      req.on('response', (res) => res.once('data', () => hangUp(req.socket!, i)));
    }
    req.end();
  });
}

async function inBatches(count: number, size: number, one: (i: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < count; start += size) {
    await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, k) => one(start + k)));
  }
}

describe('clients that go away', () => {
  let stack: Stack;
  const { logger, entries } = recordingLogger();
  beforeAll(async () => {
    stack = await startStack({ simulator: { scale: { pods: 3_000, events: 5_000 } }, service: { logger } });
    // Warm caches, so the lists below answer at once and their answers are large.
    for (const path of ['kubernetes-proxy/pod?limit=1', 'kubernetes-events?limit=1'])
      expect((await stack.get(`${stack.cluster}/${path}`)).status).toBe(200);
  });
  afterAll(async () => stack?.close());

  const requestLines = (from: number) =>
    entries.slice(from).filter((e): e is LogEntry & { path: string } => e.msg === 'request');

  it('logs 200 requests the client abandoned at every stage as at most debug, and keeps answering', async () => {
    const from = entries.length;
    const { namespace, name } = DEMO_PODS.payments;
    const podList = `${stack.cluster}/kubernetes-proxy/pod?limit=1000`;
    const raw = new RawClients(Number(new URL(stack.url).port));
    const host = new URL(stack.url).host;
    try {
      // Right after sending the headers of a list request.
      await inBatches(PER_KIND, 20, async (i) => {
        const c = await raw.open(
          `GET ${podList} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${stack.session.headers.authorization}\r\n\r\n`,
        );
        hangUp(c.socket, i);
        await c.closed;
      });
      // Halfway through a login's body.
      await inBatches(PER_KIND, 20, async (i) => {
        const login = slowLogin(host, 1_000);
        const c = await raw.open(login.head + login.body.slice(0, 400));
        await sleep(20);
        hangUp(c.socket, i);
        await c.closed;
      });
      // Partway through receiving large answers: a pod list of 1,000 and an events page of 1,000.
      await inBatches(PER_KIND, 10, (i) =>
        getAndHangUp(stack, i % 2 ? podList : `${stack.cluster}/kubernetes-events?limit=1000`, i, {
          firstBytes: true,
        }),
      );
      // In the middle of a log follow.
      await inBatches(PER_KIND, 10, (i) =>
        getAndHangUp(stack, logPath(stack, namespace, name, 'follow=true&tailLines=50'), i, {
          firstBytes: true,
        }),
      );
      // Before the answer: the service is still waiting on the cluster. (A namespace by name: no
      // watch of namespaces runs, so the read goes to the apiserver; a pod would come from the cache.)
      stack.sim.faults.latencyMs = 300;
      await inBatches(PER_KIND, 20, (i) =>
        getAndHangUp(stack, `${stack.cluster}/kubernetes-proxy/namespace/${namespace}`, i, {
          afterMs: 50,
        }),
      );
    } finally {
      stack.sim.faults.latencyMs = 0;
      await raw.closeAll();
    }
    // Work a departed client started ends a moment after it left (the cluster's 300 ms, then the
    // request line): waited for as a state, since a busy machine stretches that moment.
    const goneOf = (path: (p: string) => boolean) =>
      requestLines(from).filter((e) => e.clientGone === true && path(e.path)).length;
    await expect
      .poll(
        () => [
          goneOf((p) => p === '/v1/auth/login'),
          goneOf((p) => p.endsWith(`/namespace/${namespace}`)),
          goneOf((p) => p.endsWith('/logs')),
        ],
        { timeout: 30_000 },
      )
      .toEqual([PER_KIND, PER_KIND, PER_KIND]);

    const logged = entries.slice(from);
    expect(logged.filter((e) => e.level >= LEVEL.warn)).toEqual([]);
    expect(logged.filter((e) => /unhandled/i.test(e.msg ?? ''))).toEqual([]);
    // Each departure really reached the service's handlers, and was recorded as such.
    const gone = requestLines(from).filter((e) => e.clientGone === true);
    const goneLogins = gone.filter((e) => e.path === '/v1/auth/login');
    const goneGets = gone.filter((e) => e.path.endsWith(`/namespace/${namespace}`));
    expect(goneLogins).toHaveLength(PER_KIND);
    expect(goneGets).toHaveLength(PER_KIND);
    expect(gone.filter((e) => e.path.endsWith('/logs')).length).toBe(PER_KIND);
    expect(requestLines(from).filter((e) => e.status === 500)).toEqual([]);

    // And the service still answers everyone else.
    expect((await freshRequest(stack.url, '/v1/health')).status).toBe(200);
    expect((await stack.get(`${stack.cluster}/kubernetes-proxy/pod?limit=5`)).status).toBe(200);
    const login = await freshRequest(stack.url, '/v1/auth/login', {
      method: 'POST',
      body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
  });
});
