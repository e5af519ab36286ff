/**
 * Slow and silent clients against the service's HTTP limits, over raw loopback sockets. Which
 * timeout or bound closed a connection is read from its 408 and from what the server holds, never
 * from elapsed time; how fast normal requests are answered during a flood is bench/slow-clients.ts.
 */
import { request, type Server } from 'node:http';
import { DEMO_PODS } from '@skiff/kube-simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { linesOf, logPath, openStream } from '../logs/stream-client.test-support';
import { eventually } from '../test-support/eventually.test-support';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import {
  endlessHeaders,
  freshRequest,
  type PlainResponse,
  type RawClient,
  RawClients,
  slowLogin,
} from './raw-clients.test-support';
import { LEVEL, recordingLogger } from './recording-logger.test-support';

// Short timeouts so each case runs in seconds; production defaults are in listener.ts.
const HEADERS_MS = 1_000;
const REQUEST_MS = 2_000;
const CHECK_MS = 200;
const MAX_WAITING = 100;

const hostOf = (url: string) => new URL(url).host;
const portOf = (url: string) => Number(new URL(url).port);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const lifetime = (c: RawClient) => c.closedAt! - c.openedAt;
/** The detail of the problem a connection was answered with before it was closed. */
const detailOf = (c: RawClient) =>
  (JSON.parse(c.received.slice(c.received.indexOf('\r\n\r\n') + 4)) as { detail?: string }).detail;

describe('slow clients', () => {
  const { logger, entries } = recordingLogger();
  let stack: Stack;
  let raw: RawClients;
  let server: Server;
  let base: string;
  /** Connections the server holds right now, as it counts them. */
  const serverConnections = () =>
    new Promise<number>((resolve, reject) =>
      server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
    );
  beforeAll(async () => {
    stack = await startStack({
      simulator: { scale: { pods: 2_000 } },
      service: {
        logger,
        http: {
          headersTimeoutMs: HEADERS_MS,
          requestTimeoutMs: REQUEST_MS,
          checkIntervalMs: CHECK_MS,
          maxWaitingConnections: MAX_WAITING,
        },
      },
    });
    // A second listener of the same service, so the test can ask the server what it holds.
    const second = await stack.service.listen(0, '127.0.0.1');
    server = second.server;
    base = second.url;
  });
  afterEach(async () => raw?.closeAll());
  afterAll(async () => stack?.close());

  it('closes each kind of slow connection with a 408 once its timeout runs out', async () => {
    raw = new RawClients(portOf(base));
    const host = hostOf(base);
    const silent: RawClient[] = [];
    const headers: RawClient[] = [];
    const bodies: RawClient[] = [];
    for (let i = 0; i < 30; i++) {
      silent.push(await raw.open());
      const h = await raw.open();
      raw.dribble(h, endlessHeaders(host, '/v1/health'));
      headers.push(h);
      const login = slowLogin(host, 200);
      const b = await raw.open(login.head);
      raw.dribble(b, login.body);
      bodies.push(b);
    }
    // None of them would ever end by itself: that each is closed at all (this test's own timeout
    // guards a hang) and which timeout its 408 names say what closed it; the lower bounds say not
    // before its time.
    await Promise.all(raw.all.map((c) => c.closed));

    for (const c of [...silent, ...headers]) {
      expect(c.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(detailOf(c)).toBe(
        `the request's headers did not arrive within ${HEADERS_MS / 1000} s (the headers timeout)`,
      );
      expect(lifetime(c)).toBeGreaterThanOrEqual(HEADERS_MS - 100);
    }
    for (const c of bodies) {
      expect(c.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(detailOf(c)).toBe(
        `the request did not arrive whole within ${REQUEST_MS / 1000} s (the request timeout)`,
      );
      expect(lifetime(c)).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    }
    // The server holds nothing of them, and closing slow clients is no error of its own.
    await eventually(async () => expect(await serverConnections()).toBe(0));
    expect(entries.filter((e) => e.level >= LEVEL.error)).toEqual([]);
  });

  it('lets a log follow and a slowly read long answer run past the request timeout', async () => {
    const { namespace, name, container } = DEMO_PODS.payments;
    const follow = await openStream(stack, logPath(stack, namespace, name, 'follow=true&tailLines=0'));
    expect(follow.status).toBe(200);

    // Asked now, read only after the request timeout has passed.
    const list = new Promise<{ count: number; waited: number }>((resolve, reject) => {
      const started = Date.now();
      const req = request(
        `${stack.url}${stack.cluster}/kubernetes-proxy/pod?limit=1000`,
        { headers: stack.session.headers, agent: false },
        (res) => {
          res.pause();
          setTimeout(
            () => {
              let body = '';
              res.setEncoding('utf8');
              res.on('data', (d: string) => {
                body += d;
              });
              res.on('end', () =>
                resolve({ count: (JSON.parse(body) as unknown[]).length, waited: Date.now() - started }),
              );
              res.on('error', reject);
              res.resume();
            },
            REQUEST_MS + 3 * CHECK_MS,
          );
        },
      );
      req.on('error', reject);
      req.end();
    });

    await sleep(REQUEST_MS + 3 * CHECK_MS);
    stack.sim.store.appendLog(namespace, name, container, 'still-following');
    await follow.waitFor((s) => linesOf(s).some((l) => l.raw === 'still-following'), 3_000);
    expect(follow.ended).toBe(false);
    follow.close();

    const answer = await list;
    expect(answer.count).toBe(1_000);
    expect(answer.waited).toBeGreaterThan(REQUEST_MS);
  });
});

describe('a flood of slow clients', () => {
  // Timeouts longer than this test may run: while it runs, only the guard's bound closes the
  // connections it opens, so how many it holds is a state, whatever the machine's load. The
  // timeouts' own closing is the first describe's.
  const PATIENT_MS = 120_000;
  const { logger, entries } = recordingLogger();
  let stack: Stack;
  let raw: RawClients;
  let server: Server;
  let base: string;
  const serverConnections = () =>
    new Promise<number>((resolve, reject) =>
      server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
    );
  beforeAll(async () => {
    stack = await startStack({
      simulator: { scale: { pods: 200 } },
      service: {
        logger,
        http: {
          headersTimeoutMs: PATIENT_MS,
          requestTimeoutMs: PATIENT_MS,
          checkIntervalMs: CHECK_MS,
          maxWaitingConnections: MAX_WAITING,
        },
      },
    });
    const second = await stack.service.listen(0, '127.0.0.1');
    server = second.server;
    base = second.url;
  });
  afterAll(async () => {
    await raw?.closeAll();
    await stack?.close();
  });

  const podPage = () => `${stack.cluster}/kubernetes-proxy/pod?limit=50&offset=100`;

  it('keeps answering health, login and a pod page while 600 slow connections arrive, holding at most the bound', async () => {
    raw = new RawClients(portOf(base));
    const host = hostOf(base);
    let opening = true;
    let mostOpen = 0;
    const attack = (async () => {
      for (let i = 0; i < 200; i++) {
        await raw.open();
        const h = await raw.open();
        raw.dribble(h, endlessHeaders(host, '/v1/health'));
        const login = slowLogin(host, 500);
        raw.dribble(await raw.open(login.head), login.body);
        if (i % 10 === 0) mostOpen = Math.max(mostOpen, await serverConnections());
      }
      opening = false;
    })();

    // How long these take under the flood is a figure of `npm run bench` (bench/slow-clients.ts).
    const answers: Array<PlainResponse & { what: string }> = [];
    const normal = async () => {
      // Logins are few: the service allows 20 per address per 10 minutes.
      for (let round = 0; round < 6; round++) {
        answers.push({ what: 'health', ...(await freshRequest(base, '/v1/health', { timeoutMs: 15_000 })) });
        answers.push({
          what: 'login',
          ...(await freshRequest(base, '/v1/auth/login', {
            method: 'POST',
            body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
            timeoutMs: 15_000,
          })),
        });
        answers.push({
          what: 'pods',
          ...(await freshRequest(base, podPage(), { headers: stack.session.headers, timeoutMs: 15_000 })),
        });
        await sleep(150);
      }
    };
    await Promise.all([attack, normal()]);
    expect(opening).toBe(false);
    expect(raw.all).toHaveLength(600);
    mostOpen = Math.max(mostOpen, await serverConnections());

    expect(answers.map((a) => `${a.what} ${a.status}`)).toEqual(answers.map((a) => `${a.what} 200`));
    expect(JSON.parse(answers.find((a) => a.what === 'pods')!.body)).toHaveLength(50);
    // No timeout runs out in this test: 600 connections opened and the server holds the bound (one
    // normal request may be in flight), so the guard closed the rest, the longest waiting first.
    expect(mostOpen).toBeLessThanOrEqual(MAX_WAITING + 1);
    await eventually(async () => expect(raw.openCount).toBeLessThanOrEqual(MAX_WAITING));
    const evicted = raw.all.filter((c) => c.closedAt !== null);
    expect(evicted.length).toBeGreaterThanOrEqual(600 - MAX_WAITING);
    // The silent ones among them were told why, in the words of a 408.
    expect(evicted.some((c) => /^HTTP\/1\.1 408 /.test(c.received))).toBe(true);
    // Told once, not once per connection closed; and nothing of it is an error.
    const told = entries.filter((e) => e.level === LEVEL.warn && /longest waiting/.test(e.msg ?? ''));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ maxWaiting: MAX_WAITING });
    expect(entries.filter((e) => e.level >= LEVEL.error)).toEqual([]);
    // Once the clients go, the server holds nothing of them and still answers.
    await raw.closeAll();
    await eventually(async () => expect(await serverConnections()).toBe(0));
    expect((await freshRequest(base, '/v1/health')).status).toBe(200);
  }, 60_000);
});

describe('the connection cap', () => {
  const MAX_CONNECTIONS = 12;
  let stack: Stack;
  let raw: RawClients;
  const { logger, entries } = recordingLogger();
  beforeAll(async () => {
    stack = await startStack({
      service: {
        logger,
        http: { maxConnections: MAX_CONNECTIONS, keepAliveTimeoutMs: 300, checkIntervalMs: CHECK_MS },
      },
    });
  });
  afterAll(async () => {
    await raw?.closeAll();
    await stack?.close();
  });

  it('refuses new connections past maxConnections, says so once in the log, and recovers when they close', async () => {
    // The harness's login connection closes after the short keep-alive time.
    await sleep(600);
    const { namespace, name } = DEMO_PODS.payments;
    const follows = [];
    for (let i = 0; i < MAX_CONNECTIONS; i++) {
      follows.push(await openStream(stack, logPath(stack, namespace, name, 'follow=true&tailLines=0')));
    }
    expect(follows.map((f) => f.status)).toEqual(follows.map(() => 200));

    raw = new RawClients(portOf(stack.url));
    const refused = await raw.open();
    await refused.closed;
    expect(refused.received).toBe('');
    await expect(freshRequest(stack.url, '/v1/health')).rejects.toThrow();
    const warnings = entries.filter((e) => e.level === LEVEL.warn && /connection limit/.test(e.msg ?? ''));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ maxConnections: MAX_CONNECTIONS });

    for (const f of follows) f.close();
    await eventually(async () => expect((await freshRequest(stack.url, '/v1/health')).status).toBe(200));
    expect(entries.filter((e) => e.level >= LEVEL.error)).toEqual([]);
  });
});
