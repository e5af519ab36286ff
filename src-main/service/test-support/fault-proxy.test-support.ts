/**
 * Fault injection at the TCP level: a proxy on 127.0.0.1 in front of a simulator, so the service
 * meets the failures a real network gives it (refused connections, resets, cut streams, latency,
 * another server behind the same address) without knowing it is being tested.
 */

import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

const HOST = '127.0.0.1';
/** acceptedAt keeps this many timestamps; tests look at seconds of traffic, not hours. */
const MAX_TIMESTAMPS = 10_000;

export type ProxyState = 'up' | 'refusing' | 'resetting' | 'closed';

export interface FaultProxy {
  readonly port: number;
  /** http://127.0.0.1:<port>, what the kubeconfig names as the cluster's server. */
  readonly url: string;
  readonly state: ProxyState;
  /** Connections accepted since start, including those reset at once. */
  readonly accepted: number;
  /** When each connection was accepted (ms since the epoch), oldest first. */
  readonly acceptedAt: readonly number[];
  /** Client connections open right now. */
  readonly open: number;
  /** The most client connections ever open at once. */
  readonly maxOpen: number;
  /**
   * Cuts every open connection. 'refuse' (default) also stops listening, so clients get
   * ECONNREFUSED as from a host whose apiserver is gone; 'reset' keeps listening and resets each
   * new connection at once, so every attempt is still counted in `accepted`.
   */
  down(how?: 'refuse' | 'reset'): Promise<void>;
  /** Serves again, on the same port. */
  up(): Promise<void>;
  /** Every byte the cluster sends reaches the client `ms` later (0 turns it off). */
  slow(ms: number): void;
  /**
   * Keeps every byte the cluster sends (TLS handshakes, answers) from the clients until release():
   * requests in flight stay in flight, for as long as the test needs to look at them.
   */
  hold(): void;
  /** Sends what hold() kept, in order, and forwards as before. */
  release(): void;
  /** New connections go to this port; open ones stay where they are. */
  retarget(port: number): void;
  close(): Promise<void>;
}

export function portOf(url: string): number {
  return Number(new URL(url).port);
}

interface Pair {
  client: Socket;
  upstream: Socket;
}

export async function startFaultProxy(targetPort: number): Promise<FaultProxy> {
  let target = targetPort;
  let state: ProxyState = 'up';
  let delayMs = 0;
  let holding = false;
  /** Each connection's forwarder, told to send what it kept when a hold ends. */
  const flushers = new Set<() => void>();
  let accepted = 0;
  let maxOpen = 0;
  const acceptedAt: number[] = [];
  const pairs = new Set<Pair>();

  const server: Server = createServer((client) => {
    accepted++;
    acceptedAt.push(Date.now());
    if (acceptedAt.length > MAX_TIMESTAMPS) acceptedAt.shift();
    if (state !== 'up') {
      client.on('error', () => {});
      client.resetAndDestroy();
      return;
    }
    const upstream = tcpConnect({ host: HOST, port: target });
    const pair = { client, upstream };
    pairs.add(pair);
    maxOpen = Math.max(maxOpen, pairs.size);
    let flush: () => void = () => {};
    const cut = () => {
      pairs.delete(pair);
      flushers.delete(flush);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cut).on('close', cut);
    // A clean end from the target only ends the client once the delayed bytes are out.
    upstream.on('error', cut);
    client.pipe(upstream);
    flush = forwardWithDelay(
      upstream,
      client,
      () => delayMs,
      () => holding,
    );
    flushers.add(flush);
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) resolve();
      else server.close(() => resolve());
    });
  const cutAll = () => {
    for (const p of [...pairs]) {
      p.client.destroy();
      p.upstream.destroy();
    }
    pairs.clear();
  };

  await listen(0);
  const port = (server.address() as { port: number }).port;

  return {
    port,
    url: `http://${HOST}:${port}`,
    get state() {
      return state;
    },
    get accepted() {
      return accepted;
    },
    acceptedAt,
    get open() {
      return pairs.size;
    },
    get maxOpen() {
      return maxOpen;
    },
    async down(how = 'refuse') {
      if (state === 'closed') return;
      state = how === 'refuse' ? 'refusing' : 'resetting';
      cutAll();
      if (how === 'refuse') await stopListening();
      else if (!server.listening) await listen(port);
    },
    async up() {
      if (state === 'closed') throw new Error('the proxy is closed');
      state = 'up';
      if (server.listening) return;
      // The port was ours a moment ago; retry briefly in case the kernel has not let go of it.
      for (let attempt = 0; ; attempt++) {
        try {
          await listen(port);
          return;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 20) throw err;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    },
    slow(ms) {
      delayMs = Math.max(0, ms);
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const flush of [...flushers]) flush();
    },
    retarget(next) {
      target = next;
    },
    async close() {
      state = 'closed';
      cutAll();
      await stopListening();
    },
  };
}

/**
 * upstream → client, each chunk held until `delay()` ms after it arrived, and all of them while
 * `held()`. A queue rather than a timer per chunk keeps the order when the delay changes while
 * bytes are in flight. Returns the flush to call when a hold ends.
 */
function forwardWithDelay(from: Socket, to: Socket, delay: () => number, held: () => boolean): () => void {
  const queue: { due: number; chunk: Buffer | null }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (held()) return;
    while (queue.length > 0 && queue[0]!.due <= Date.now()) {
      const { chunk } = queue.shift()!;
      if (to.destroyed) return;
      if (chunk === null) {
        to.end();
        return;
      }
      if (!to.write(chunk) && !from.isPaused()) {
        from.pause();
        to.once('drain', () => from.resume());
      }
    }
    if (queue.length > 0) timer = setTimeout(flush, queue[0]!.due - Date.now());
  };
  const enqueue = (chunk: Buffer | null) => {
    const last = queue.length > 0 ? queue[queue.length - 1]!.due : 0;
    queue.push({ due: Math.max(last, Date.now() + delay()), chunk });
    if (timer === undefined) flush();
  };
  from.on('data', (chunk: Buffer) => enqueue(chunk));
  from.on('end', () => enqueue(null));
  to.on('close', () => {
    clearTimeout(timer);
    queue.length = 0;
  });
  return flush;
}
