import { request, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach } from 'vitest';

/** A TCP connection a test drives byte by byte, recording what the server does to it. */
export interface RawClient {
  socket: Socket;
  openedAt: number;
  /** When the server (or the test) closed it; null while open. */
  closedAt: number | null;
  received: string;
  closed: Promise<void>;
}

/**
 * Opens raw connections and dribbles bytes into them on one shared timer, the way a slowloris
 * client does: one byte per tick to each. `closeAll` ends everything it opened.
 */
export class RawClients {
  readonly all: RawClient[] = [];
  private readonly dribbling = new Map<RawClient, Buffer>();
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly port: number,
    tickMs = 50,
  ) {
    this.ticker = setInterval(() => this.tick(), tickMs);
  }

  async open(initial = ''): Promise<RawClient> {
    const socket = connect(this.port, '127.0.0.1');
    const client: RawClient = {
      socket,
      openedAt: Date.now(),
      closedAt: null,
      received: '',
      closed: new Promise((resolve) => socket.once('close', () => resolve())),
    };
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      client.received += d;
    });
    // The server resets some of them on purpose; that is what the tests look for.
    socket.on('error', () => {});
    socket.once('close', () => {
      client.closedAt = Date.now();
      this.dribbling.delete(client);
    });
    this.all.push(client);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('error', reject);
    });
    if (initial) socket.write(initial);
    return client;
  }

  /** Sends `text` one byte per tick, for as long as the connection stays open. */
  dribble(client: RawClient, text: string): void {
    this.dribbling.set(client, Buffer.from(text, 'latin1'));
  }

  get openCount(): number {
    return this.all.filter((c) => c.closedAt === null).length;
  }

  private tick(): void {
    for (const [client, rest] of this.dribbling) {
      if (rest.length === 0 || client.socket.destroyed) {
        this.dribbling.delete(client);
        continue;
      }
      client.socket.write(rest.subarray(0, 1));
      this.dribbling.set(client, rest.subarray(1));
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.ticker);
    for (const c of this.all) c.socket.destroy();
    await Promise.all(this.all.map((c) => c.closed));
  }
}

/** Request headers a slow client never finishes: one more header line, forever. */
export const endlessHeaders = (host: string, path: string) =>
  `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${'X-Slow: a\r\n'.repeat(10_000)}`;

/** A login whose body arrives a byte at a time. */
export function slowLogin(host: string, bodyBytes: number): { head: string; body: string } {
  const body = `{"username":"admin","password":"${'x'.repeat(Math.max(0, bodyBytes - 35))}"}`;
  return {
    head: `POST /v1/auth/login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    body,
  };
}

export interface PlainResponse {
  status: number;
  ms: number;
  body: string;
}

/**
 * One request on its own new connection, as a client arriving now would send it (fetch would
 * reuse a kept-alive connection, which is not what these tests ask about).
 */
export function freshRequest(
  url: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<PlainResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url + path,
      {
        method: opts.method ?? 'GET',
        agent: false,
        headers: { ...opts.headers, ...(opts.body ? { 'content-type': 'application/json' } : {}) },
        timeout: opts.timeoutMs ?? 5_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${path} did not answer in time`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/**
 * The server a test starts and the raw clients it opens to it, both closed after each test (open
 * connections too, so an answer a test held back cannot keep the next test waiting). Called once
 * at the top of a test file.
 */
export function serverPerTest() {
  let server: Server | undefined;
  let raw: RawClients | undefined;
  afterEach(async () => {
    await raw?.closeAll();
    await new Promise<void>((resolve) => {
      if (!server?.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    server = raw = undefined;
  });
  return {
    /** The test's server, to be closed after it. */
    track<S extends Server>(s: S): S {
      server = s;
      return s;
    },
    /** Listens on a free loopback port and opens raw clients there, ticking every `tickMs`. */
    async listen(s: Server, tickMs?: number): Promise<RawClients> {
      server = s;
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      raw = new RawClients((s.address() as AddressInfo).port, tickMs);
      return raw;
    },
  };
}
